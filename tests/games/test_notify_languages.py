"""Every message a player gets, in their language and time zone: a reader in
Macedonian in Europe/Skopje and one in Polish in America/New_York get each kind (your
turn, a reminder, a timeout strike, the game's end, the daily digest, the pushes, the
address verification, the password reset, and the calendar feed) with no English text of the site's
catalogues left in it, its times in their zone, its links on ``SITE_URL`` opening the
page they name, and, for what a player may stop, a one-click unsubscribe."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import icalendar
import polib  # type: ignore[import-untyped]
import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage
from django.test import Client
from django.utils import timezone, translation

from games import tasks
from games.models import Game, PlayerSettings
from games.notify import push
from games.play.resign import game_resign
from games.read.catalogue import preset_name
from remi_site import formats
from tests.games.notify_kit import (
    Duel,
    duel,
    links_in,
    mails_to,
    person,
    site_path,
    unsubscribe_link,
    web_client,
)

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
# An address unlike the test client's host, so that a link built on the request's shows.
SITE_URL = "http://remi.example:8123"
PLACEHOLDER = re.compile(r"%(?:\([^)]*\))?[sd]|\{\{[^}]*\}\}|\{[^}]*\}")


@dataclass(frozen=True)
class Reader:
    language: str
    zone: str
    place: str  # how the messages name the zone, in the reader's language

    def when(self, moment: datetime, form: formats.DateForm) -> str:
        """``moment`` as the emails write it for this reader (CLDR's ``form``)."""
        with translation.override(self.language):
            return formats.moment(moment, form, zone=ZoneInfo(self.zone))


READERS = (
    Reader("mk", "Europe/Skopje", "Северна Македонија"),
    Reader("pl", "America/New_York", "Nowy Jork"),
)


@pytest.fixture(params=READERS, ids=lambda reader: reader.language)
def reader(request: pytest.FixtureRequest) -> Reader:
    return request.param


@pytest.fixture(autouse=True)
def site_url(settings: Any) -> str:
    settings.SITE_URL = SITE_URL
    return SITE_URL


@pytest.fixture
def table(
    reader: Reader, user_factory: Callable[..., Any], deals_seeded: Callable[[int], None]
) -> Duel:
    """A correspondence game of two people who read ``reader``'s language in its zone."""
    users = [person(user_factory, name, zone=reader.zone) for name in ("ana", "marko")]
    for user in users:
        user.profile.language = reader.language
        user.profile.save(update_fields=["language"])
    return duel(user_factory, users=users)


@pytest.fixture
def pushed(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, dict[str, Any]]]:
    """The push payloads sent, by user (their delivery is test_push.py's)."""
    sent: list[tuple[int, dict[str, Any]]] = []

    def record(*, user_id: int, payload: dict[str, Any]) -> int:
        sent.append((user_id, payload))
        return 1

    monkeypatch.setattr(push, "push_send", record)
    return sent


# ------------------------------------------------------------------ what is English


@cache
def english_left_over(language: str) -> tuple[str, ...]:
    """The English words and phrases of the site's catalogues that a text in
    ``language`` must not show: the literal parts of every message (between its
    placeholders) that its translation does not keep, and all of an untranslated one."""
    catalogue_dir = "sr_Latn" if language == "sr-latn" else language
    found: set[str] = set()
    for folder in (ROOT / "locale", ROOT / "games" / "locale", ROOT / "accounts" / "locale"):
        po = folder / catalogue_dir / "LC_MESSAGES" / "django.po"
        for entry in polib.pofile(str(po)):
            if entry.obsolete:
                continue
            translations = [entry.msgstr, *entry.msgstr_plural.values()]
            translated = " ".join(t for t in translations if t) if not entry.fuzzy else ""
            for msgid in (entry.msgid, entry.msgid_plural):
                for part in PLACEHOLDER.split(msgid):
                    part = part.strip(" \n\t.,:;!?()—–-\"'“”‘’")
                    if len(re.sub(r"[^A-Za-z]", "", part)) >= 3 and part not in translated:
                        found.add(part)
    return tuple(sorted(found, key=len, reverse=True))


@cache
def any_english(language: str) -> re.Pattern[str]:
    """Any of ``english_left_over(language)`` where it stands as a whole, in one pattern:
    a search per part compiled each of the thousands of parts again on every text (more
    patterns than the ``re`` module's cache keeps)."""
    parts = "|".join(re.escape(part) for part in english_left_over(language))
    return re.compile(rf"(?<![\w])(?:{parts or '(?!)'})(?![\w])")


def english_in(text: str, reader: Reader, *, spare: tuple[str, ...] = ()) -> list[str]:
    """The English of the catalogues found in ``text`` (links, the players' names, the
    zone's name and ``spare`` taken out first)."""
    text = re.sub(r"https?://\S+|\S+@\S+", " ", text)
    for name in (reader.place, *spare):
        text = text.replace(name, " ")
    if not any_english(reader.language).search(text):
        return []
    # Each part found, for the failure's message.
    return [
        part
        for part in english_left_over(reader.language)
        if re.search(rf"(?<![\w]){re.escape(part)}(?![\w])", text)
    ]


def names_of(table: Duel) -> tuple[str, ...]:
    return tuple(user.profile.display_name for user in table.users)


def translated(message: EmailMessage, reader: Reader, *spare: str) -> None:
    """Subject, text and HTML all in the reader's language."""
    html = str(message.alternatives[0][0]) if message.alternatives else ""  # type: ignore[attr-defined]
    html = re.sub(r"<[^>]+>", " ", html)
    for part in (str(message.subject), str(message.body), html):
        assert english_in(part, reader, spare=spare) == [], part


def in_their_language(text: str, reader: Reader) -> None:
    """Macedonian is written in Cyrillic: a check that does not depend on knowing the
    English (Polish has the catalogue check alone)."""
    if reader.language == "mk":
        assert re.search(r"[\u0400-\u04ff]{4}", text), text


# ------------------------------------------------------------------ links


def links_resolve(message: EmailMessage, user: Any) -> list[str]:
    """Every link of the message is on ``SITE_URL`` and opens a page (for ``user``
    signed in: their game, their settings; an unsubscribe link asks to confirm)."""
    links = links_in(message)
    assert links, message.body
    for link in links:
        assert link.startswith(SITE_URL + "/"), link
        response = web_client(user).get(site_path(link), follow=True)
        assert response.status_code == 200, link
    return links


def unsubscribes(message: EmailMessage, user: Any, field: str, off: Any) -> None:
    """The List-Unsubscribe headers name the body's link, which a mail client's one-click
    POST follows to turn ``field`` off."""
    path = site_path(unsubscribe_link(message))
    done = Client().post(
        path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert done.status_code == 200
    assert getattr(PlayerSettings.objects.get(user=user), field) == off


def the_one(messages: list[EmailMessage]) -> EmailMessage:
    assert len(messages) == 1, [message.subject for message in messages]
    return messages[0]


def preset_in(reader: Reader) -> str:
    with translation.override(reader.language):
        return str(preset_name("serbian"))


# ------------------------------------------------------------------ the emails


def test_your_turn(table: Duel, reader: Reader, mailoutbox: list[EmailMessage]) -> None:
    mover, game = table.mover, table.game
    assert game.deadline_at is not None

    message = the_one(mails_to(mailoutbox, mover))

    translated(message, reader, *names_of(table))
    in_their_language(str(message.subject), reader)
    assert table.waiting.profile.display_name in message.subject
    assert preset_in(reader) in message.subject
    assert reader.when(game.deadline_at, "long") in message.body
    assert f"({reader.place})" in message.body
    assert reader.zone not in message.body
    links_resolve(message, mover)
    unsubscribes(message, mover, "email_turns", PlayerSettings.EmailTurns.OFF)


def test_a_reminder(table: Duel, reader: Reader, mailoutbox: list[EmailMessage]) -> None:
    mover = table.mover
    now = timezone.now()
    deadline = now + timedelta(hours=3)
    Game.objects.filter(public_id=table.game_id).update(deadline_at=deadline)
    mailoutbox.clear()

    assert tasks.send_reminders(now=now) == 1

    message = the_one(mails_to(mailoutbox, mover))
    translated(message, reader, *names_of(table))
    in_their_language(str(message.subject), reader)
    assert preset_in(reader) in message.subject
    assert reader.when(deadline, "long") in message.body
    links_resolve(message, mover)
    unsubscribes(message, mover, "reminders", False)


def test_a_timeout_strike(table: Duel, reader: Reader, mailoutbox: list[EmailMessage]) -> None:
    mover = table.mover
    Game.objects.filter(public_id=table.game_id).update(
        deadline_at=timezone.now() - timedelta(seconds=1)
    )
    mailoutbox.clear()

    assert tasks.sweep_deadlines() == 1

    message = the_one(mails_to(mailoutbox, mover))
    translated(message, reader, *names_of(table))
    in_their_language(str(message.subject), reader)
    assert preset_in(reader) in message.subject
    links_resolve(message, mover)
    unsubscribes(message, mover, "email_strikes", False)
    # The turn passed: the other player's "your turn" is in the language too.
    translated(the_one(mails_to(mailoutbox, table.waiting)), reader, *names_of(table))


def test_the_game_over(table: Duel, reader: Reader, mailoutbox: list[EmailMessage]) -> None:
    loser, winner = table.mover, table.waiting
    mailoutbox.clear()

    game_resign(game=table.game, user=loser)

    for user in (winner, loser):
        message = the_one(mails_to(mailoutbox, user))
        translated(message, reader, *names_of(table))
        in_their_language(str(message.subject), reader)
        in_their_language(str(message.body), reader)
        links_resolve(message, user)
    unsubscribes(the_one(mails_to(mailoutbox, winner)), winner, "email_game_over", False)


def test_the_daily_digest(table: Duel, reader: Reader, mailoutbox: list[EmailMessage]) -> None:
    mover, game = table.mover, table.game
    assert game.deadline_at is not None
    PlayerSettings.objects.filter(user=mover).update(email_turns=PlayerSettings.EmailTurns.DAILY)
    mailoutbox.clear()

    assert tasks.send_daily_digests() == 1

    message = the_one(mails_to(mailoutbox, mover))
    translated(message, reader, *names_of(table))
    in_their_language(str(message.subject), reader)
    assert reader.when(game.deadline_at, "medium") in message.body
    assert reader.place in message.body
    assert reader.zone not in message.body
    links = links_resolve(message, mover)
    assert any(f"/games/{game.public_id}/" in link for link in links)
    unsubscribes(message, mover, "email_turns", PlayerSettings.EmailTurns.OFF)


# ------------------------------------------------------------------ the pushes


def payload_checked(payload: dict[str, Any], reader: Reader, table: Duel, user: Any) -> None:
    for part in (payload["title"], payload["body"]):
        assert english_in(part, reader, spare=names_of(table)) == [], part
    in_their_language(payload["title"], reader)
    assert payload["url"].startswith(SITE_URL + "/")
    assert web_client(user).get(site_path(payload["url"]), follow=True).status_code == 200


def test_the_pushes_of_a_turn_and_of_the_end(
    table: Duel, reader: Reader, pushed: list[tuple[int, dict[str, Any]]]
) -> None:
    PlayerSettings.objects.filter(user__in=table.users).update(push_turns=True, push_game_over=True)
    mover, waiting = table.mover, table.waiting
    Game.objects.filter(public_id=table.game_id).update(
        deadline_at=timezone.now() - timedelta(seconds=1)
    )

    assert tasks.sweep_deadlines() == 1  # the server plays the turn: it passes
    game_resign(game=table.game, user=waiting)

    kinds = {(user_id, payload["kind"]): payload for user_id, payload in pushed}
    assert set(kinds) == {(waiting.pk, "turn"), (mover.pk, "game_over"), (waiting.pk, "game_over")}
    for (user_id, _kind), payload in kinds.items():
        payload_checked(payload, reader, table, waiting if user_id == waiting.pk else mover)


def test_the_push_of_a_challenge(
    reader: Reader,
    user_factory: Callable[..., Any],
    client_for: Callable[[Any], Any],
    pushed: list[tuple[int, dict[str, Any]]],
) -> None:
    challenger = user_factory(username="jova", display_name="Jova")
    player = user_factory(username="vera", display_name="Vera", language=reader.language)
    PlayerSettings.objects.create(user=player, time_zone=reader.zone, push_challenges=True)

    made = client_for(challenger).post(
        "/api/v1/challenges", {"to": "vera", "preset": "macedonian"}, format="json"
    )

    assert made.status_code == 201, made.json()
    [(user_id, payload)] = pushed
    assert user_id == player.pk and payload["kind"] == "challenge"
    assert "Jova" in payload["title"]
    with translation.override(reader.language):
        assert payload["body"] == preset_name("macedonian")
    payload_checked(payload, reader, Duel("", [challenger, player]), player)


def test_the_email_of_a_challenge(
    reader: Reader,
    user_factory: Callable[..., Any],
    client_for: Callable[[Any], Any],
    mailoutbox: list[EmailMessage],
    pushed: list[tuple[int, dict[str, Any]]],
) -> None:
    challenger = user_factory(username="jova", display_name="Jova")
    player = user_factory(username="vera", display_name="Vera", language=reader.language)
    player.email = "vera@example.com"
    player.save(update_fields=["email"])
    PlayerSettings.objects.create(user=player, time_zone=reader.zone)

    def challenge(who: Any) -> None:
        made = client_for(who).post(
            "/api/v1/challenges", {"to": "vera", "preset": "macedonian"}, format="json"
        )
        assert made.status_code == 201, made.json()

    challenge(challenger)

    message = the_one(mails_to(mailoutbox, player))
    with translation.override(reader.language):
        preset = preset_name("macedonian")
    assert "Jova" in message.subject and preset in message.subject
    translated(message, reader, "Jova", "Vera")
    in_their_language(str(message.body), reader)
    assert any(link.endswith("#challenges") for link in links_resolve(message, player))
    assert pushed == []  # no push asked for

    path = site_path(unsubscribe_link(message))
    done = Client().post(
        path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert done.status_code == 200
    player.profile.refresh_from_db()
    assert player.profile.email_challenges is False

    mailoutbox.clear()
    challenge(user_factory(username="zora", display_name="Zora"))
    assert mails_to(mailoutbox, player) == []


# ------------------------------------------------------------------ the account's own


@pytest.fixture
def browser(reader: Reader) -> Iterator[Client]:
    """A visitor whose browser asks for the reader's language."""
    yield Client(HTTP_ACCEPT_LANGUAGE=reader.language)


def test_the_address_verification_in_the_language_of_the_browser_that_signed_up(
    reader: Reader, browser: Client, mailoutbox: list[EmailMessage], password: str
) -> None:
    signed = browser.post(
        "/accounts/signup/",
        {
            "username": "vesna",
            "email": "v@example.com",
            "password1": password,
            "password2": password,
        },
    )
    assert signed.status_code == 302

    user = get_user_model().objects.get(username="vesna")
    assert user.profile.language == reader.language  # the setting, from the browser
    message = the_one(mailoutbox)
    translated(message, reader, "vesna", "Vesna")
    in_their_language(str(message.subject), reader)
    [link] = links_resolve(message, user)
    assert get_user_model().objects.get(username="vesna").email == "v@example.com"
    assert "/accounts/verify-email/" in link


def test_the_password_reset_in_the_accounts_language(
    reader: Reader,
    user_factory: Callable[..., Any],
    mailoutbox: list[EmailMessage],
    password: str,
) -> None:
    user = user_factory(username="vesna", display_name="Vesna", language=reader.language)
    user.email = "v@example.com"
    user.save()

    asked = Client(HTTP_ACCEPT_LANGUAGE="en").post(
        "/accounts/password-reset/", {"email": "v@example.com"}
    )

    assert asked.status_code == 302
    message = the_one(mailoutbox)
    translated(message, reader, "vesna", "Vesna")
    in_their_language(str(message.subject), reader)
    [link] = links_in(message)
    assert link.startswith(SITE_URL + "/accounts/reset/"), link
    form = Client().get(site_path(link), follow=True)
    assert form.status_code == 200 and b"new_password1" in form.content


def test_the_catalogue_check_sees_english() -> None:
    """The check above finds an English message left in a text (else it proves nothing)."""
    mk = Reader("mk", "Europe/Skopje", "Северна Македонија")
    assert english_in("Your turn against Ana", mk)
    assert english_in("На потег си против Ana", mk, spare=("Ana",)) == []
    assert django_settings.LANGUAGE_CODE == "en"


def test_the_calendar_feed_in_the_players_language(
    table: Duel, reader: Reader, client_for: Callable[[Any], Any]
) -> None:
    mover = table.mover
    url = client_for(mover).get("/api/v1/me/notifications").json()["calendar_url"]
    assert url.startswith(SITE_URL + "/")

    fetched = Client().get(site_path(url))  # a calendar app: no session, no language

    assert fetched.status_code == 200
    calendar = icalendar.Calendar.from_ical(fetched.content)
    [event] = calendar.walk("VEVENT")
    for text in (str(calendar["x-wr-calname"]), str(event["summary"]), str(event["description"])):
        assert english_in(text, reader, spare=names_of(table)) == [], text
        in_their_language(text, reader)
    assert str(event["url"]).startswith(SITE_URL + f"/games/{table.game_id}/")
