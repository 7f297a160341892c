"""Words of Django's admin that its catalogues get wrong: a yes/no column says yes or no
in the reader's language, not Python's "True" (accounts/admin/boolean_icons.py); a title
names the model after a colon in Polish and Serbian, whose nouns Django's catalogues
leave in the nominative after a verb ("Dodaj gra"; remi_site/admin_model_words.py)."""

from __future__ import annotations

import re
from html import unescape

import pytest

from tests.moderation.admin_walk_kit import superuser_reading

pytestmark = pytest.mark.django_db

TITLE = re.compile(r"<title>(.*?) \|")

ALTS = re.compile(r'<img src="[^"]*/admin/img/icon-(yes|no|unknown)\.svg" alt="([^"]*)"')


@pytest.mark.parametrize(
    ("language", "yes", "no"),
    [("en", "Yes", "No"), ("mk", "Да", "Не"), ("sr-latn", "Da", "Ne"), ("pl", "Tak", "Nie")],
)
def test_a_yes_no_column_says_yes_or_no_in_the_readers_language(
    language: str, yes: str, no: str
) -> None:
    client = superuser_reading(language)

    # The accounts' list: "staff status" is yes for the superuser.
    page = client.get("/admin/auth/user/").content.decode()
    alts = dict(ALTS.findall(page))

    assert alts["yes"] == yes
    assert "True" not in alts.values() and "False" not in alts.values()
    assert all(alt in (yes, no) for alt in alts.values())


@pytest.mark.parametrize(
    ("language", "games", "add_user"),
    [
        ("pl", "Wybierz do podglądu: gra", "Dodaj: użytkownik"),
        ("sr-latn", "Odaberi za pregled: partija", "Dodaj: korisnik"),
        ("sr-cyrl", "Одабери за преглед: партија", "Додај: корисник"),
        ("mk", "Избери партија за прегледување", "Додади корисник"),
    ],
)
def test_a_title_names_the_model_where_its_case_is_right(
    language: str, games: str, add_user: str
) -> None:
    client = superuser_reading(language)

    def title(url: str) -> str:
        found = TITLE.search(client.get(url).content.decode())
        assert found, url
        return unescape(found[1])

    # Games are read-only in the admin (only games/play writes them): a list to view.
    assert title("/admin/games/game/") == games
    assert title("/admin/auth/user/add/") == add_user
