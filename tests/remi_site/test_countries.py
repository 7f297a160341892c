"""The countries a profile may name: ISO 3166-1's, and Kosovo's code, each by its name
in the reader's language from CLDR, listed in the order a reader looks them up."""

from __future__ import annotations

import pytest
from django.utils import translation

from remi_site import collation, countries


def test_the_codes_are_iso_3166_1_and_kosovo() -> None:
    codes = countries.codes()

    # ISO 3166-1 assigns 249 codes; XK is Kosovo's user-assigned one.
    assert len(codes) == 250
    assert {"RS", "MK", "PL", "BA", "ME", "HR", "SI", "XK"} <= codes
    assert not {"EU", "EZ", "UN", "ZZ", "QO", "XA", "XB", "IC", "EA"} & codes


@pytest.mark.parametrize(
    ("language", "code", "name"),
    [
        ("en", "MK", "North Macedonia"),
        ("mk", "RS", "Србија"),
        ("sr-cyrl", "MK", "Северна Македонија"),
        ("sr-latn", "PL", "Poljska"),
        ("pl", "DE", "Niemcy"),
    ],
)
def test_a_country_is_named_in_the_readers_language(language: str, code: str, name: str) -> None:
    with translation.override(language):
        assert countries.name(code) == name


def test_a_code_that_is_no_country_is_shown_as_it_was_saved() -> None:
    assert countries.name("ZZ") == "ZZ"


def test_the_choices_are_in_the_order_of_the_readers_alphabet() -> None:
    with translation.override("pl"):
        names = [name for _, name in countries.choices()]

    # A letter with a stroke or an accent is looked up under its base letter.
    assert names.index("Litwa") < names.index("Łotwa") < names.index("Luksemburg")
    assert names.index("Chorwacja") < names.index("Czechy") < names.index("Dania")
    assert names == collation.in_order(names, str)


def test_cyrillic_choices_keep_the_alphabets_letters_in_their_places() -> None:
    """Macedonian "Ј" is U+0408, before "А" in code point order; "Ѓ", "Ќ", "Љ", "Њ" after "Я"."""
    with translation.override("mk"):
        names = [name for _, name in countries.choices()]

    assert names.index("Италија") < names.index("Јапонија") < names.index("Камерун")
    assert names.index("Чиле") < names.index("Џибути") < names.index("Шведска")
    assert names[0] == "Авганистан"
