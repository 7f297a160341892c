"""Every email and push kind read in the pseudo-locale (every message wrapped in "⟦…⟧",
docs/translations.md): subject, text, HTML and the push's title and body hold no word
outside the markers other than names, numbers, addresses and the reader's time zone.
A word found there was never marked for translation, or was put together from pieces.
(tests/browser/test_pseudo_locale.py reads the pages.) Their templates write no number
bare either (``|number``, tests/raw_numbers_kit.py)."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.core.mail import EmailMessage
from django.test import Client
from django.utils import timezone

from games import tasks
from games.models import Game, PlayerSettings
from games.notify import push
from games.play.resign import game_resign
from tests import pseudo_locale_kit as pseudo
from tests.games.notify_kit import Duel, duel, mails_to, person
from tests.raw_numbers_kit import numbers_written_raw

pytestmark = pytest.mark.django_db(transaction=True)

ZONE = "Europe/Skopje"
# The ends of a game an email names (games.notify.wording.END_REASONS and the two the
# moderation gives).
END_REASONS = ("completed", "resigned", "timeout", "absent", "banned", "adjudicated")

# Words a message may show unmarked for now; each must still be seen (the test says
# when one is marked, and it comes off this list). None is left.
KNOWN_LEAKS: tuple[str, ...] = ()


@pytest.fixture(autouse=True)
def no_bare_number() -> Iterator[None]:
    """Each message's template writes its numbers as the reader's language does."""
    with numbers_written_raw() as bare:
        yield
    assert not bare, f"numbers written without the language's separators: {sorted(bare)}"


@pytest.fixture
def language(settings: Any) -> str:
    settings.SITE_URL = "http://remi.example"
    return pseudo.enable(settings)


@pytest.fixture
def table(language: str, user_factory: Callable[..., Any]) -> Duel:
    """A correspondence game of two people who read the pseudo-locale."""
    users = [person(user_factory, name, zone=ZONE) for name in ("ana", "marko")]
    for user in users:
        user.profile.language = language
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


class Leaks:
    """The unmarked words found, by message; the known leaks seen."""

    def __init__(self) -> None:
        self.found: dict[str, list[str]] = {}
        self.known_seen: set[str] = set()

    def look(self, where: str, text: str, names: tuple[str, ...]) -> None:
        words = pseudo.unmarked_words(text, names)
        self.known_seen |= set(words) & set(KNOWN_LEAKS)
        words = [word for word in words if word not in KNOWN_LEAKS]
        if words:
            self.found[where] = words

    def email(self, where: str, message: EmailMessage, names: tuple[str, ...]) -> None:
        markup = str(message.alternatives[0][0]) if message.alternatives else ""  # type: ignore[attr-defined]
        page = html.unescape(re.sub(r"<[^>]+>", " ", markup))
        for part, text in (("subject", message.subject), ("text", message.body), ("html", page)):
            self.look(f"{where} ({part})", str(text), names)

    def push(self, where: str, payload: dict[str, Any], names: tuple[str, ...]) -> None:
        for part in ("title", "body"):
            self.look(f"{where} push ({part})", str(payload[part]), names)

    def verify(self, known: tuple[str, ...] = ()) -> None:
        assert not self.found, f"words outside the pseudo-locale's markers: {self.found}"
        gone = sorted(set(known) - self.known_seen)
        assert not gone, f"marked now, take them off KNOWN_LEAKS: {gone}"


def names_of(table: Duel) -> tuple[str, ...]:
    return tuple(
        name for user in table.users for name in (user.username, user.profile.display_name)
    )


def the_one(messages: list[EmailMessage]) -> EmailMessage:
    assert len(messages) == 1, [message.subject for message in messages]
    return messages[0]


def test_the_game_emails_and_pushes_are_all_marked(
    table: Duel, mailoutbox: list[EmailMessage], pushed: list[tuple[int, dict[str, Any]]]
) -> None:
    names = names_of(table)
    leaks = Leaks()
    PlayerSettings.objects.filter(user__in=table.users).update(push_turns=True, push_game_over=True)
    leaks.email("your turn", the_one(mails_to(mailoutbox, table.mover)), names)

    now = timezone.now()
    Game.objects.filter(public_id=table.game_id).update(deadline_at=now + timedelta(hours=3))
    mailoutbox.clear()
    assert tasks.send_reminders(now=now) == 1
    leaks.email("reminder", the_one(mails_to(mailoutbox, table.mover)), names)

    PlayerSettings.objects.filter(user=table.mover).update(
        email_turns=PlayerSettings.EmailTurns.DAILY
    )
    mailoutbox.clear()
    assert tasks.send_daily_digests() == 1
    leaks.email("daily digest", the_one(mails_to(mailoutbox, table.mover)), names)

    mover = table.mover
    Game.objects.filter(public_id=table.game_id).update(deadline_at=now - timedelta(seconds=1))
    mailoutbox.clear()
    pushed.clear()
    assert tasks.sweep_deadlines() == 1
    leaks.email("timeout strike", the_one(mails_to(mailoutbox, mover)), names)
    [(_, turn)] = [sent for sent in pushed if sent[1]["kind"] == "turn"]
    leaks.push("your turn", turn, names)

    loser = table.mover
    game_resign(game=table.game, user=loser)
    for reason in END_REASONS:
        # The same end told again for each reason an email names.
        Game.objects.filter(public_id=table.game_id).update(end_reason=reason)
        cache.clear()
        mailoutbox.clear()
        pushed.clear()
        assert tasks.game_over_notice(table.game_id) == 2
        for user in table.users:
            leaks.email(f"game over, {reason}", the_one(mails_to(mailoutbox, user)), names)
        for _, payload in pushed:
            leaks.push(f"game over, {reason}", payload, names)

    leaks.verify(KNOWN_LEAKS)


def test_the_challenge_email_and_push_are_all_marked(
    language: str,
    user_factory: Callable[..., Any],
    client_for: Callable[[Any], Any],
    mailoutbox: list[EmailMessage],
    pushed: list[tuple[int, dict[str, Any]]],
) -> None:
    challenger = user_factory(username="jova", display_name="Jova")
    player = user_factory(username="vera", display_name="Vera", language=language)
    player.email = "vera@example.com"
    player.save(update_fields=["email"])
    PlayerSettings.objects.create(user=player, time_zone=ZONE, push_challenges=True)

    made = client_for(challenger).post(
        "/api/v1/challenges", {"to": "vera", "preset": "macedonian"}, format="json"
    )

    assert made.status_code == 201, made.json()
    names = ("jova", "Jova", "vera", "Vera")
    leaks = Leaks()
    leaks.email("challenge", the_one(mails_to(mailoutbox, player)), names)
    [(_, payload)] = pushed
    leaks.push("challenge", payload, names)
    leaks.verify()


def test_the_account_emails_are_all_marked(
    language: str, user_factory: Callable[..., Any], mailoutbox: list[EmailMessage], password: str
) -> None:
    vesna = user_factory(username="vesna", display_name="Vesna", language=language)
    browser = Client()
    browser.force_login(vesna)
    asked = browser.post("/settings/email/", {"email": "v@example.com", "password": password})
    assert asked.status_code == 302
    leaks = Leaks()
    names = ("vesna", "Vesna", "vera", "Vera")
    leaks.email("address verification", the_one(mailoutbox), names)

    # A reset goes to a confirmed address only: another account's.
    vera = user_factory(username="vera", display_name="Vera", language=language)
    vera.email = "vera@example.com"
    vera.save(update_fields=["email"])
    mailoutbox.clear()
    asked = Client(HTTP_ACCEPT_LANGUAGE="en").post(
        "/accounts/password-reset/", {"email": "vera@example.com"}
    )
    assert asked.status_code == 302
    leaks.email("password reset", the_one(mailoutbox), names)
    leaks.verify()


def test_the_check_finds_a_word_outside_the_markers() -> None:
    """The check sees unmarked text (else the tests above prove nothing), and lets
    names, numbers, card symbols, addresses and zones through."""
    marked = pseudo.pseudo_locale.pseudo_message("Your turn against %(name)s")
    assert pseudo.unmarked_words(marked % {"name": "Ana"}, ("Ana",)) == []
    said = marked % {"name": "Ana"}
    assert pseudo.unmarked_words(f"{said} at 7 (dry hand)", ("Ana",)) == ["at", "dry", "hand"]
    assert pseudo.unmarked_words("10♥ Q♠ 25 http://remi.example/g/ Ana", ("Ana",)) == []
    assert pseudo.unmarked_words("(Europe/Skopje)", ()) == ["Europe", "Skopje"]  # an id
    nested = pseudo.pseudo_locale.pseudo_message("%(who)s won") % {
        "who": pseudo.pseudo_locale.pseudo_message("Nobody")
    }
    assert pseudo.unmarked_words(nested, ()) == []
