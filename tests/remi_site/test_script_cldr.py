"""The script catalogue carries CLDR's words for its language (remi_site/script_cldr.py):
the scripts write numbers, units of time, lists, times and dates with them, not with
the browser's own CLDR, which may lack the language."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from remi_site.script_cldr import script_cldr


@pytest.mark.parametrize(
    ("language", "counts", "letters"),
    [
        # Polish: one, few (2-4, 22-24 but not 12-14), many.
        ("pl", [1, 2, 5, 12, 22, 25, 112, 122], "ofmmfmmf"),
        # Macedonian: one for 1, 21, 31 but not 11; other.
        ("mk", [0, 1, 11, 21, 111, 121], "xoxoxo"),
        # Serbian: one, few, other.
        ("sr-latn", [1, 3, 5, 13, 23, 101], "ofxxfo"),
    ],
)
def test_each_count_has_its_languages_plural_category(
    language: str, counts: list[int], letters: str
) -> None:
    plural = script_cldr(language)["plural"]
    assert "".join(plural[count if count < 200 else 100 + count % 100] for count in counts) == (
        letters
    )


def test_a_units_words_come_for_each_plural_category() -> None:
    days = script_cldr("pl")["units"]["day"]["long"]
    assert (days["o"], days["f"], days["m"]) == ("{0} dzień", "{0} dni", "{0} dni")
    assert script_cldr("mk")["units"]["hour"]["narrow"]["x"] == "{0} ч."


@pytest.mark.parametrize(
    ("language", "group", "decimal", "minimum"),
    [
        # Macedonian and Serbian "1.234"; Polish "1234" but "12 345" (a no-break space, and
        # no group before five digits); English "1,234".
        ("mk", ".", ",", 1),
        ("sr-cyrl", ".", ",", 1),
        ("sr-latn", ".", ",", 1),
        ("pl", "\xa0", ",", 2),
        ("en", ",", ".", 1),
    ],
)
def test_the_catalogue_says_how_the_language_writes_a_number(
    language: str, group: str, decimal: str, minimum: int
) -> None:
    assert script_cldr(language)["number"] == {
        "group": group,
        "decimal": decimal,
        "minus": "-",
        "plus": "+",
        "grouping": [3, 3],
        "min_grouping": minimum,
        "fraction": 3,
    }


def test_the_script_catalogue_sets_the_languages_cldr_words() -> None:
    script = Client().get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="mk").content.decode()

    data = json.loads(script.split("window.remiCldr = ", 1)[1].rstrip().rstrip(";"))
    assert data == json.loads(json.dumps(script_cldr("mk")))
    assert data["time"] == "HH:mm" and data["lists"]["long"]["end"] == " и "
