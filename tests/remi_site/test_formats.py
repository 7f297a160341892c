"""Every word a person reads is right in their language: dates, months, durations and
counts from CLDR (remi_site.formats), times in the reader's zone, and the words that
were left in English or shown as internal ids (the My games tabs, the password rules,
the bots' bios, the game-end reasons, the rules tables, a challenge's rules)."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from html import unescape
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import polib  # type: ignore[import-untyped]
import pytest
from django.conf import settings
from django.template import Context, Template
from django.test import Client
from django.utils import timezone, translation

from accounts.models import Sanction
from accounts.moderation.selectors import sanction_message
from accounts.services import bots_ensure
from games import rule_words
from games.engine import PRESETS
from games.engine_words import preset_display_name
from games.models import PlayerSettings
from games.notify import wording
from remi_site import formats

ROOT = Path(settings.BASE_DIR)
DECEMBER_7 = datetime(2026, 12, 7, 2, 6, tzinfo=UTC)


def said(language: str, text: Callable[[], str]) -> str:
    with translation.override(language):
        return text()


# ------------------------------------------------------------------ the formats


@pytest.mark.parametrize(
    ("language", "expected"),
    [("pl", "grudnia 2026"), ("mk", "декември 2026"), ("sr-latn", "decembar 2026")],
)
def test_a_month_after_since_is_in_the_form_the_sentence_wants(
    language: str, expected: str
) -> None:
    assert said(language, lambda: formats.month(DECEMBER_7)) == expected


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "23 hours, 59 minutes"),
        ("mk", "23 часа и 59 минути"),
        ("sr-latn", "23 sata i 59 minuta"),
        ("sr-cyrl", "23 сата и 59 минута"),
        ("pl", "23 godziny i 59 minut"),
    ],
)
def test_a_duration_is_said_in_the_language_with_its_plurals(language: str, expected: str) -> None:
    assert said(language, lambda: formats.duration(timedelta(hours=23, minutes=59))) == expected


@pytest.mark.parametrize(
    ("span", "expected"),
    [
        (timedelta(days=1), "1 day"),
        (timedelta(days=2, minutes=5), "2 days"),
        (timedelta(hours=1, minutes=1), "1 hour, 1 minute"),
        (timedelta(seconds=20), "0 minutes"),
    ],
)
def test_a_duration_says_its_largest_unit_and_the_next_one(span: timedelta, expected: str) -> None:
    assert said("en", lambda: formats.duration(span)) == expected


@pytest.mark.parametrize(
    ("language", "span", "expected"),
    [
        ("en", timedelta(seconds=45), "45 seconds"),
        ("en", timedelta(minutes=1, seconds=5), "1 minute, 5 seconds"),
        ("pl", timedelta(seconds=22), "22 sekundy"),
        ("sr-cyrl", timedelta(seconds=5), "5 секунди"),
    ],
)
def test_a_wait_counted_down_says_its_seconds(
    language: str, span: timedelta, expected: str
) -> None:
    assert said(language, lambda: formats.duration(span, seconds=True)) == expected


@pytest.mark.parametrize(
    ("refusal", "expected"),
    [
        ("you are already on vacation", "You are already on vacation."),
        ("ти си веќе на одмор", "Ти си веќе на одмор."),
        ("Reported already.", "Reported already."),
        ("wait: ", "Wait:"),
        ("", ""),
    ],
)
def test_a_refusal_on_a_page_is_a_sentence(refusal: str, expected: str) -> None:
    assert formats.sentence(refusal) == expected


def test_a_moment_is_in_the_readers_zone_and_a_day_in_the_languages_words() -> None:
    new_york = ZoneInfo("America/New_York")
    assert said("pl", lambda: formats.moment(DECEMBER_7, "long", zone=new_york)) == (
        "6 grudnia 2026 21:06"
    )
    assert said("sr-latn", lambda: formats.day(DECEMBER_7)) == "7. 12. 2026."
    assert said("mk", lambda: formats.day(DECEMBER_7, "full")).startswith("понеделник, 7 декември")


def test_numbers_and_lists_follow_the_language() -> None:
    assert said("pl", lambda: formats.number(12345)) == "12\xa0345"
    assert said("en", lambda: formats.number(12345)) == "12,345"
    assert said("sr-latn", lambda: formats.word_list(["Ana", "Marko", "Ivan"])) == (
        "Ana, Marko i Ivan"
    )


def test_a_list_of_marked_up_names_is_joined_as_the_language_joins_words() -> None:
    """``{% listed %}``: each opponent's name with its badge, joined by CLDR's words;
    the names' markup kept, nothing else let through unescaped."""
    page = Template(
        "{% load formats %}{% listed people as p %}<b>{{ p }}</b>{% empty %}-{% endlisted %}"
    )
    people = ["Ana", "Bo", "<i>Ivan</i>"]
    assert said("sr-latn", lambda: page.render(Context({"people": people}))) == (
        "<b>Ana</b>, <b>Bo</b> i <b>&lt;i&gt;Ivan&lt;/i&gt;</b>"
    )
    assert said("mk", lambda: page.render(Context({"people": people[:2]}))) == (
        "<b>Ana</b> и <b>Bo</b>"
    )
    assert said("en", lambda: page.render(Context({"people": ["Ana"]}))) == "<b>Ana</b>"
    assert said("en", lambda: page.render(Context({"people": []}))) == "-"


# What CLDR writes (ICU 78 and Chromium's Intl agree for the languages they hold): Polish
# groups from five digits on (minimumGroupingDigits 2), the others from four.
NUMBERS = [0, 7, 999, 1234, -1234, 12345, -12345, 1234567, 1.5, -0.25]
WRITTEN = {
    "mk": "0 7 999 1.234 -1.234 12.345 -12.345 1.234.567 1,5 -0,25",
    "sr-cyrl": "0 7 999 1.234 -1.234 12.345 -12.345 1.234.567 1,5 -0,25",
    "pl": "0 7 999 1234 -1234 12\xa0345 -12\xa0345 1\xa0234\xa0567 1,5 -0,25",
    "en": "0 7 999 1,234 -1,234 12,345 -12,345 1,234,567 1.5 -0.25",
}


@pytest.mark.parametrize("language", sorted(WRITTEN))
def test_a_number_is_written_as_cldr_writes_it_in_the_language(language: str) -> None:
    with translation.override(language):
        assert " ".join(formats.number(value) for value in NUMBERS) == WRITTEN[language]


@pytest.mark.parametrize("language", ["mk", "sr-latn", "en"])
def test_where_no_minimum_grouping_applies_a_number_is_babels_own(language: str) -> None:
    """Babel does not read CLDR's minimumGroupingDigits; for a language that wants none
    (1) what the site writes is exactly Babel's ``format_decimal``."""
    from babel.numbers import format_decimal

    with translation.override(language):
        assert [formats.number(value) for value in NUMBERS] == [
            format_decimal(value, locale=formats.locale(language)) for value in NUMBERS
        ]


@pytest.mark.parametrize(
    ("language", "written"),
    [("mk", "+1.234 -40 0"), ("pl", "+1234 -40 0"), ("en", "+1,234 -40 0")],
)
def test_a_change_carries_its_sign(language: str, written: str) -> None:
    with translation.override(language):
        assert " ".join(formats.signed(value) for value in (1234, -40, 0)) == written


def test_a_unit_of_time_is_cldrs() -> None:
    assert said("mk", lambda: formats.unit(8, "hour")) == "8 ч."
    assert said("pl", lambda: formats.unit(8, "hour")) == "8 godz."
    assert said("en", lambda: formats.unit(72, "hour", "long")) == "72 hours"


def test_a_long_span_writes_its_count_as_a_number() -> None:
    assert said("mk", lambda: formats.duration(timedelta(days=1500))) == "1.500 дена"
    assert said("pl", lambda: formats.duration(timedelta(days=1500))) == "1500 dni"
    assert said("pl", lambda: formats.duration(timedelta(days=12345))) == "12\xa0345 dni"


@pytest.mark.parametrize(
    ("locale_dir", "nplurals"), [("mk", 2), ("sr_Latn", 3), ("sr_Cyrl", 3), ("pl", 4)]
)
def test_every_catalogue_carries_its_languages_plural_rule(locale_dir: str, nplurals: int) -> None:
    catalogues = [
        po
        for base in (ROOT / "locale", ROOT / "games" / "locale", ROOT / "accounts" / "locale")
        for po in base.glob(f"{locale_dir}/LC_MESSAGES/*.po")
    ]
    assert catalogues
    for po in catalogues:
        header = polib.pofile(str(po)).metadata["Plural-Forms"]
        assert header.startswith(f"nplurals={nplurals};"), f"{po}: {header}"


# ------------------------------------------------------------------ pages


def text_of(html: str) -> str:
    """The page's visible text, roughly: tags and scripts out, entities read."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


@pytest.mark.django_db
def test_a_polish_profile_says_member_since_in_the_genitive(
    user_factory: Callable[..., Any],
) -> None:
    person = user_factory(username="ola", language="pl")
    person.date_joined = DECEMBER_7
    person.save()

    page = Client().get(f"/accounts/players/{person.username}/", headers={"accept-language": "pl"})

    assert page.status_code == 200
    assert "Członek od grudnia 2026" in text_of(page.content.decode())


@pytest.mark.django_db
def test_the_vacation_page_shows_the_end_in_the_players_zone_and_names_it(
    user_factory: Callable[..., Any],
) -> None:
    person = user_factory(username="ana", language="en")
    PlayerSettings.objects.update_or_create(user=person, defaults={"time_zone": "America/New_York"})
    client = Client()
    client.force_login(person)

    page = client.post("/settings/vacation/", {"action": "start", "days": "3"}, follow=True)

    until = PlayerSettings.objects.get(user=person).vacation_until
    assert until is not None
    with translation.override("en"):
        shown = formats.moment(until, zone=ZoneInfo("America/New_York"))
    html = page.content.decode()
    current = text_of(html.split('id="vacation-current"')[1].split("</p>")[0])
    assert f"until {' '.join(shown.split())} (New York)." in current


@pytest.mark.django_db
def test_the_macedonian_sign_up_lists_every_password_rule_in_macedonian() -> None:
    page = Client().get("/accounts/signup/", headers={"accept-language": "mk"})

    text = text_of(page.content.decode())
    for english in ("too similar", "commonly used", "entirely numeric", "at least"):
        assert english not in text
    assert "Лозинката не смее да биде често користена лозинка." in text
    assert "Лозинката не смее да се состои само од цифри." in text


@pytest.mark.django_db
def test_the_my_games_tabs_and_filters_are_in_the_players_language(
    user_factory: Callable[..., Any],
) -> None:
    client = Client()
    client.force_login(user_factory(username="ola", language="pl"))

    text = text_of(client.get("/games/").content.decode())

    for polish in ("Twój ruch", "W toku", "Czekają na start", "Zakończone", "Na żywo"):
        assert polish in text
    for english in ("Your turn", "Waiting to start", "Correspondence"):
        assert english not in text


@pytest.mark.django_db
def test_a_built_in_bots_bio_is_in_the_readers_language() -> None:
    bot = bots_ensure()[0]

    page = Client().get(f"/accounts/players/{bot.username}/", headers={"accept-language": "pl"})

    assert bot.profile.bio not in page.content.decode()
    with translation.override("pl"):
        assert translation.gettext(bot.profile.bio) in page.content.decode()


@pytest.mark.parametrize("reason", ["banned", "adjudicated", "host_left", "aborted", "new_one"])
def test_every_game_end_reason_is_said_in_words(reason: str) -> None:
    for language in ("mk", "sr-latn", "pl"):
        words = said(language, lambda: wording.end_reason(reason))
        assert words and reason not in words
        assert words != said("en", lambda: wording.end_reason(reason))


# ------------------------------------------------------------------ the rules in words

INTERNAL = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b|\b(?:yes|no|anyone)\b")


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "mk", "sr-latn", "sr-cyrl", "pl"])
@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_rules_page_names_every_rule_and_value_in_words(preset: str, language: str) -> None:
    page = Client().get(f"/rules/{preset}/", headers={"accept-language": language})

    table = page.content.decode().split('id="rules-fields"')[1].split("</table>")[0]
    cells = " ".join(re.findall(r"<td>(.*?)</td>", table))
    ids = {name for name in INTERNAL.findall(cells) if language != "en" or "_" in name}
    assert not ids, f"internal ids or English shown: {sorted(ids)}"
    assert "<code>" not in table


@pytest.mark.django_db
def test_the_house_rules_say_their_values_in_the_readers_language(lobby: Any) -> None:
    game, _users = lobby(2, overrides={"hand_needs_51": False})

    html = Client().get(f"/rules/serbian/?game={game.public_id}", headers={"accept-language": "pl"})
    house = html.content.decode().split('id="house-rules"')[1].split("</table>")[0]

    assert "<td>tak</td><td><strong>nie</strong></td>" in house


@pytest.mark.parametrize("language", ["en", "mk", "sr-latn", "pl"])
def test_no_rule_means_another_by_its_id(language: str) -> None:
    for name in PRESETS["serbian"].to_dict():
        meaning = said(language, lambda: rule_words.meaning(name))  # noqa: B023
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", meaning), (name, meaning)


@pytest.mark.django_db
def test_a_challenge_carries_its_rules_name_in_the_readers_language(
    user_factory: Callable[..., Any],
) -> None:
    ana, marko = user_factory(username="ana", language="pl"), user_factory(username="marko")
    client = Client()
    client.force_login(ana)

    created = client.post(
        "/api/v1/challenges",
        {"to": marko.username, "preset": "polish51"},
        content_type="application/json",
        headers={"accept-language": "pl"},
    )

    assert created.status_code == 201, created.json()
    assert created.json()["preset"] == "polish51"
    assert created.json()["preset_name"] == said("pl", lambda: preset_display_name("polish51"))
    assert created.json()["preset_name"] != said("en", lambda: preset_display_name("polish51"))


def test_a_moment_without_a_zone_is_read_in_the_active_one() -> None:
    with translation.override("en"), timezone.override(ZoneInfo("Europe/Belgrade")):
        assert formats.clock(DECEMBER_7) == "3:06\u202fAM"


def test_a_ban_says_when_it_ends_in_the_readers_words_and_zone() -> None:
    ban = Sanction(kind=Sanction.Kind.BAN, ends_at=DECEMBER_7, reason="obelgi w czacie")

    with translation.override("pl"), timezone.override(ZoneInfo("America/New_York")):
        message = sanction_message(ban)

    assert message == (
        "To konto jest zablokowane do 6 grudnia 2026 21:06 (Nowy Jork): obelgi w czacie"
    )


def _zone_seen(request: Any) -> Any:
    from django.http import HttpResponse

    return HttpResponse(str(timezone.get_current_timezone()))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("cookie", "zone"),
    [("America/New_York", "America/New_York"), ("Mars/Olympus", "UTC"), ("../etc/x", "UTC")],
)
def test_a_visitors_pages_are_in_the_browsers_zone(cookie: str, zone: str) -> None:
    from django.contrib.auth.models import AnonymousUser
    from django.test import RequestFactory

    from remi_site.time_zones import BROWSER_ZONE_COOKIE, AccountTimeZoneMiddleware

    request = RequestFactory().get("/rules/")
    request.COOKIES[BROWSER_ZONE_COOKIE] = cookie
    request.user = AnonymousUser()

    assert AccountTimeZoneMiddleware(_zone_seen)(request).content.decode() == zone


@pytest.mark.django_db
def test_a_persons_chosen_zone_comes_before_the_browsers(
    user_factory: Callable[..., Any],
) -> None:
    from django.test import RequestFactory

    from remi_site.time_zones import BROWSER_ZONE_COOKIE, AccountTimeZoneMiddleware

    person = user_factory(username="ana")
    PlayerSettings.objects.update_or_create(user=person, defaults={"time_zone": "Europe/Skopje"})
    request = RequestFactory().get("/games/")
    request.COOKIES[BROWSER_ZONE_COOKIE] = "America/New_York"
    request.user = person

    assert AccountTimeZoneMiddleware(_zone_seen)(request).content.decode() == "Europe/Skopje"


@pytest.mark.parametrize("language", ["en", "mk", "sr-cyrl", "pl"])
def test_a_rating_is_written_in_digits_alone_in_every_language(language: str) -> None:
    assert said(language, lambda: formats.rating(1658)) == "1658"
    assert said(language, lambda: formats.rating(1658.4)) == "1658"
