"""The site in five languages: every catalogue complete, with no fuzzy entry and its
committed .mo holding exactly its .po's entries (no gettext tools needed to serve
them); the language chosen from the browser, the switcher or the person's settings;
Django's own messages translated too; emails in the recipient's language and zone."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import polib  # type: ignore[import-untyped]
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.utils import translation

from accounts.models import Language
from remi_site import formats
from tests.games.notify_kit import duel, mails_to, person

ROOT = Path(settings.BASE_DIR)
# Where catalogues live: the site's own, and each app's.
LOCALE_DIRS = [ROOT / "locale", ROOT / "games" / "locale", ROOT / "accounts" / "locale"]
# The directory names of the languages besides English (Django's locale names).
LOCALES = {"mk", "sr_Latn", "sr_Cyrl", "pl"}
CATALOGUES = sorted(
    po for base in LOCALE_DIRS if base.is_dir() for po in base.glob("*/LC_MESSAGES/*.po")
)
PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]")

# The home page's heading in each language.
HEADLINE = {
    "en": "Balkan rummy, online.",
    "mk": "Балканско реми, онлајн.",
    "sr-cyrl": "Балкански реми, онлајн.",
    "sr-latn": "Balkanski remi, onlajn.",
    "pl": "Bałkański remik, online.",
}


def catalogue_id(path: Path) -> str:
    return str(path.relative_to(ROOT))


def translations(entry: polib._BaseEntry) -> list[str]:
    """The entry's translation, or each of its plural forms."""
    if entry.msgid_plural:
        return [entry.msgstr_plural[index] for index in sorted(entry.msgstr_plural)]
    return [entry.msgstr]


def entries(catalogue: polib._BaseFile) -> dict[tuple[str | None, str], tuple[str, ...]]:
    """Every translated entry (not the header): (context, msgid) -> its translations."""
    return {
        (entry.msgctxt, entry.msgid): tuple(translations(entry))
        for entry in catalogue
        if entry.msgid and not entry.obsolete
    }


# ------------------------------------------------------------------ the catalogues


def test_the_site_offers_the_languages_an_account_can_choose() -> None:
    assert [code for code, _ in settings.LANGUAGES] == [
        "en",
        "mk",
        "sr-cyrl",
        "sr-latn",
        "pl",
    ]
    assert {code for code, _ in settings.LANGUAGES} == set(Language.values)
    assert settings.LANGUAGE_CODE == "en"


def test_every_catalogue_directory_has_all_four_translations() -> None:
    assert (ROOT / "locale") in LOCALE_DIRS and CATALOGUES
    for base in LOCALE_DIRS:
        if not base.is_dir():
            continue
        domains = {po.name for po in base.glob("*/LC_MESSAGES/*.po")}
        for domain in domains:
            present = {po.parent.parent.name for po in base.glob(f"*/LC_MESSAGES/{domain}")}
            assert present == LOCALES, f"{catalogue_id(base)} {domain}: {sorted(present)}"
    project = {po.parent.parent.name for po in (ROOT / "locale").glob("*/LC_MESSAGES/django.po")}
    assert project == LOCALES


@pytest.mark.parametrize("path", CATALOGUES, ids=catalogue_id)
def test_a_catalogue_has_no_empty_or_fuzzy_translation(path: Path) -> None:
    catalogue = polib.pofile(str(path))
    assert not catalogue.metadata_is_fuzzy, "the header is marked fuzzy"
    fuzzy = [entry.msgid for entry in catalogue.fuzzy_entries()]
    assert not fuzzy, f"fuzzy: {fuzzy}"
    empty = [
        entry.msgid
        for entry in catalogue
        if not entry.obsolete and not all(text.strip() for text in translations(entry))
    ]
    assert not empty, f"untranslated: {empty}"


@pytest.mark.parametrize("path", CATALOGUES, ids=catalogue_id)
def test_a_translation_keeps_the_placeholders_of_its_text(path: Path) -> None:
    for entry in polib.pofile(str(path)):
        if entry.obsolete or not entry.msgid:
            continue
        wanted = set(PLACEHOLDER.findall(entry.msgid + entry.msgid_plural))
        for text in translations(entry):
            found = set(PLACEHOLDER.findall(text))
            # A plural form may leave out the count ("one game"), never add a name.
            assert found <= wanted, f"{entry.msgid!r}: {text!r}"
            if not entry.msgid_plural:
                assert found == wanted, f"{entry.msgid!r}: {text!r}"


@pytest.mark.parametrize("path", CATALOGUES, ids=catalogue_id)
def test_the_committed_mo_file_holds_exactly_the_po_files_entries(path: Path) -> None:
    compiled = path.with_suffix(".mo")
    assert compiled.is_file(), f"{catalogue_id(compiled)} is missing: run compilemessages"
    source = polib.pofile(str(path))
    assert entries(polib.mofile(str(compiled))) == entries(source), (
        f"{catalogue_id(compiled)} is out of date: run compilemessages"
    )
    assert polib.mofile(str(compiled)).metadata["Plural-Forms"] == source.metadata["Plural-Forms"]


# ------------------------------------------------------------------ choosing the language


def page(client: Client, path: str = "/", **headers: str) -> str:
    response = client.get(path, headers=headers)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("accept", "language"),
    [
        ("mk", "mk"),
        ("mk-MK,mk;q=0.9,en;q=0.5", "mk"),
        ("sr", "sr-cyrl"),
        ("sr-Cyrl", "sr-cyrl"),
        ("sr-RS", "sr-cyrl"),
        ("sr-Latn", "sr-latn"),
        ("sr-Latn-RS", "sr-latn"),
        ("pl-PL,pl;q=0.9", "pl"),
        ("de-DE,de;q=0.9", "en"),
    ],
)
def test_the_browsers_language_chooses_the_page_language(
    client: Client, accept: str, language: str
) -> None:
    html = page(client, accept_language=accept)

    assert f'<html lang="{language}">' in html
    assert HEADLINE[language] in html
    assert f'<option value="{language}" lang="{language}" selected>' in html


@pytest.mark.django_db
def test_every_page_loads_the_script_catalogue_before_its_scripts(client: Client) -> None:
    html = page(client, "/", accept_language="pl")
    assert html.index('<script src="/jsi18n/">') < html.index("<body>")

    catalogue = client.get("/jsi18n/", headers={"accept-language": "pl"})
    assert catalogue.status_code == 200
    assert catalogue["Content-Type"].startswith("text/javascript")
    assert b"django.gettext" in catalogue.content or b"gettext" in catalogue.content


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "required"),
    [
        ("sr-cyrl", "Ово поље се мора попунити."),
        ("sr-latn", "Ovo polje se mora popuniti."),
        ("mk", "Ова поле е задолжително."),
        ("pl", "To pole jest wymagane."),
    ],
)
def test_djangos_own_form_errors_come_in_the_language(
    client: Client, language: str, required: str
) -> None:
    response = client.post(
        "/accounts/signup/", {"username": ""}, headers={"accept-language": language}
    )

    assert required in response.content.decode()


@pytest.mark.django_db
def test_the_switcher_sets_a_visitors_language(client: Client) -> None:
    response = client.post("/i18n/setlang/", {"language": "sr-cyrl", "next": "/accounts/login/"})

    assert response.status_code == 302 and response["Location"] == "/accounts/login/"
    html = page(client, accept_language="pl")
    assert HEADLINE["sr-cyrl"] in html


@pytest.mark.django_db
def test_the_switcher_saves_the_language_to_a_signed_in_persons_settings(
    client: Client, user: Any
) -> None:
    client.force_login(user)

    client.post("/i18n/setlang/", {"language": "mk", "next": "/"})

    user.profile.refresh_from_db()
    assert user.profile.language == "mk"
    settings_page = page(client, "/settings/", accept_language="pl")
    assert '<option value="mk" selected>' in settings_page  # the settings form agrees
    assert '<html lang="mk">' in settings_page


@pytest.mark.django_db
def test_a_signed_in_persons_saved_language_beats_the_browsers(
    user_factory: Callable[..., Any],
) -> None:
    person = user_factory(username="vesna", language="sr-latn")
    client = Client()
    client.force_login(person)

    html = page(client, accept_language="mk")
    assert '<html lang="sr-latn">' in html and HEADLINE["sr-latn"] in html

    client.post("/i18n/setlang/", {"language": "mk", "next": "/"})  # a cookie for a visitor
    client.post("/settings/", {**settings_form(person), "language": "pl"})
    assert HEADLINE["pl"] in page(client, accept_language="mk")


def settings_form(person: Any) -> dict[str, Any]:
    return {
        "display_name": person.profile.display_name,
        "language": person.profile.language,
        "email_turns": "each",
        "chat_enabled": "on",
        "show_online": "on",
    }


@pytest.mark.django_db
def test_a_new_account_keeps_the_language_it_signed_up_in(client: Client) -> None:
    response = client.post(
        "/accounts/signup/",
        {
            "username": "dragan",
            "password1": "a long pass phrase 7",
            "password2": "a long pass phrase 7",
        },
        headers={"accept-language": "sr-Latn"},
    )

    assert response.status_code == 302
    assert get_user_model().objects.get(username="dragan").profile.language == "sr-latn"


# ------------------------------------------------------------------ emails


@pytest.mark.django_db
def test_the_password_reset_comes_in_the_accounts_language(
    client: Client, user_factory: Callable[..., Any]
) -> None:
    person = user_factory(username="ola", display_name="Ola", language="pl")
    person.email = "ola@example.com"
    person.save()

    client.post(
        "/accounts/password-reset/", {"email": "ola@example.com"}, headers={"accept-language": "en"}
    )

    (message,) = mail.outbox
    assert message.subject == "Wybierz nowe hasło do Remik online"
    assert message.body.startswith("Cześć Ola,")


@pytest.mark.django_db(transaction=True)
def test_the_turn_email_is_in_the_players_language_and_time_zone(
    user_factory: Callable[..., Any], deals_seeded: Callable[[int], None], mailoutbox: list[Any]
) -> None:
    zone = "America/New_York"
    players = [person(user_factory, name, zone=zone) for name in ("ana", "marko")]
    for player in players:
        player.profile.language = "sr-latn"
        player.profile.save()
    table = duel(user_factory, users=players)
    mover, game = table.mover, table.game
    assert game.deadline_at is not None

    (message,) = mails_to(mailoutbox, mover)

    other = table.waiting.profile.display_name
    assert message.subject.startswith(f"Na potezu si protiv {other} — ")
    assert message.body.startswith(f"Zdravo {mover.profile.display_name},")
    assert f"Potez je do {local(game.deadline_at, zone, 'sr-latn')} (Njujork)" in message.body
    html = str(message.alternatives[0][0])  # type: ignore[attr-defined]
    assert '<html lang="sr-latn">' in html


def local(moment: datetime, zone: str, language: str) -> str:
    """``moment`` as the emails write a deadline, in ``zone`` and ``language``'s words."""
    with translation.override(language):
        return formats.moment(moment, "long", zone=ZoneInfo(zone))
