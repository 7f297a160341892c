"""Every kind of email, in two time zones: what it says (the opponent, the rules, the
time left, the deadline in the player's zone), a link to the game that opens it, and
a one-click unsubscribe (the body's link and the List-Unsubscribe headers) that works
without logging in and turns off that kind only."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core.mail import EmailMessage
from django.utils import timezone

from games import tasks
from games.models import Game, GameMute, PlayerSettings
from games.play.resign import game_resign
from tests.games.notify_kit import (
    PLACES,
    SERBIAN,
    ZONES,
    Duel,
    duel,
    links_in,
    mails_to,
    shown,
    site_path,
    unsubscribe_link,
    web_client,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def game_of(
    user_factory: Callable[..., Any], deals_seeded: Callable[[int], None]
) -> Callable[..., Duel]:
    return lambda **options: duel(user_factory, **options)


def the_one(messages: list[EmailMessage]) -> EmailMessage:
    assert len(messages) == 1, [message.subject for message in messages]
    return messages[0]


def game_link_opens(message: EmailMessage, user: Any, game_id: str) -> None:
    """The message links to the game's table, and the link opens it for its player."""
    links = [link for link in links_in(message) if f"/games/{game_id}/" in link]
    assert links, message.body
    assert web_client(user).get(site_path(links[0])).status_code == 200
    html = str(message.alternatives[0][0])  # type: ignore[attr-defined]
    assert f'href="{links[0]}"' in html


def one_click_turns_off(message: EmailMessage, user: Any, field: str, off: Any) -> None:
    """The unsubscribe link asks first (a link checker changes nothing), then a mail
    client's one-click POST, without a session or a CSRF token, turns ``field`` off."""
    path = site_path(unsubscribe_link(message))
    before = getattr(PlayerSettings.objects.get(user=user), field)
    asked = web_client().get(path)
    assert asked.status_code == 200 and b"<form" in asked.content
    assert getattr(PlayerSettings.objects.get(user=user), field) == before != off
    done = web_client().post(
        path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert done.status_code == 200
    assert getattr(PlayerSettings.objects.get(user=user), field) == off


@pytest.mark.parametrize("zone", ZONES)
def test_your_turn_names_the_opponent_the_rules_and_the_time_left(game_of, mailoutbox, zone):
    table = game_of(zone=zone)
    mover, game = table.mover, table.game
    assert game.deadline_at is not None

    message = the_one(mails_to(mailoutbox, mover))  # the start gave them the first turn

    other = table.waiting.profile.display_name
    assert message.subject == f"Your turn against {other} — {SERBIAN}, 1 day, 23 hours left"
    assert f"Your move is due by {shown(game.deadline_at, zone)} ({PLACES[zone]})" in message.body
    game_link_opens(message, mover, game.public_id)
    one_click_turns_off(message, mover, "email_turns", PlayerSettings.EmailTurns.OFF)
    assert PlayerSettings.objects.get(user=mover).reminders is True  # that kind only


@pytest.mark.parametrize("zone", ZONES)
def test_a_reminder_says_how_long_is_left_and_when_in_the_players_zone(game_of, mailoutbox, zone):
    table = game_of(zone=zone)
    mover, game = table.mover, table.game
    now = timezone.now()
    Game.objects.filter(pk=game.pk).update(deadline_at=now + timedelta(hours=3))
    mailoutbox.clear()

    assert tasks.send_reminders(now=now) == 1

    message = the_one(mailoutbox)
    deadline = now + timedelta(hours=3)
    assert message.to == [mover.email]
    other = table.waiting.profile.display_name
    assert message.subject == f"3 hours left for your move against {other} — {SERBIAN}"
    assert f"is due by {shown(deadline, zone)} ({PLACES[zone]}): 3 hours from now" in message.body
    game_link_opens(message, mover, game.public_id)
    one_click_turns_off(message, mover, "reminders", False)


@pytest.mark.parametrize("zone", ZONES)
def test_a_timeout_tells_the_player_their_strike(game_of, mailoutbox, zone):
    table = game_of(zone=zone)
    mover, other, game = table.mover, table.waiting, table.game
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    mailoutbox.clear()

    assert tasks.sweep_deadlines() == 1  # the server plays the turn: the outbox says so

    message = the_one(mails_to(mailoutbox, mover))
    assert message.subject == (
        f"Your time ran out against {other.profile.display_name} — {SERBIAN} (timeout 1 of 3)"
    )
    assert "the server played your turn for you" in message.body
    assert "That is 1 timeout in a row; at 3 you are out of the game." in message.body
    # The turn passed: the opponent is told it is theirs.
    assert the_one(mails_to(mailoutbox, other)).subject.startswith("Your turn against")
    game_link_opens(message, mover, game.public_id)
    one_click_turns_off(message, mover, "email_strikes", False)


@pytest.mark.parametrize("zone", ZONES)
def test_the_end_of_a_game_tells_both_players_the_result(game_of, mailoutbox, zone):
    table = game_of(zone=zone)
    loser, winner = table.mover, table.waiting
    mailoutbox.clear()

    game_resign(game=table.game, user=loser)

    won, lost = the_one(mails_to(mailoutbox, winner)), the_one(mails_to(mailoutbox, loser))
    assert won.subject == f"You won against {loser.profile.display_name} — {SERBIAN}"
    assert lost.subject == f"Game over against {winner.profile.display_name} — {SERBIAN}"
    assert "You won." in won.body and "a player resigned" in won.body
    assert f"{winner.profile.display_name} won." in lost.body
    assert "Final totals (lowest wins):" in lost.body
    game_link_opens(won, winner, table.game_id)
    one_click_turns_off(won, winner, "email_game_over", False)
    assert PlayerSettings.objects.get(user=loser).email_game_over is True


@pytest.mark.parametrize("zone", ZONES)
def test_the_daily_digest_lists_the_games_waiting_with_local_deadlines(game_of, mailoutbox, zone):
    table = game_of(zone=zone)
    mover, game = table.mover, table.game
    assert game.deadline_at is not None
    PlayerSettings.objects.filter(user=mover).update(email_turns=PlayerSettings.EmailTurns.DAILY)
    mailoutbox.clear()

    assert tasks.send_daily_digests() == 1

    message = the_one(mailoutbox)
    assert message.subject == "1 game waiting for your move"
    due = f"due {shown(game.deadline_at, zone, 'medium')}"
    assert f"{SERBIAN} against {table.waiting.profile.display_name}, {due}" in message.body
    assert f"Times are in {PLACES[zone]}." in message.body
    assert zone not in message.body
    game_link_opens(message, mover, game.public_id)
    one_click_turns_off(message, mover, "email_turns", PlayerSettings.EmailTurns.OFF)


def test_the_mute_link_of_a_message_silences_that_game_only(game_of, mailoutbox):
    table = game_of(zone=ZONES[0])
    mover = table.mover
    message = the_one(mails_to(mailoutbox, mover))
    mute = next(
        link
        for link in links_in(message)
        if "/unsubscribe/" in link and link != unsubscribe_link(message)
    )

    assert web_client().post(site_path(mute)).status_code == 200

    assert GameMute.objects.filter(user=mover, game__public_id=table.game_id).exists()
    now = timezone.now()
    Game.objects.filter(public_id=table.game_id).update(deadline_at=now + timedelta(hours=1))
    mailoutbox.clear()
    assert tasks.send_reminders(now=now) == 1  # reminded on the site, no email
    assert mailoutbox == []


def test_a_forged_or_altered_unsubscribe_link_is_not_found(game_of, mailoutbox):
    table = game_of()
    link = unsubscribe_link(the_one(mails_to(mailoutbox, table.mover)))
    altered = site_path(link).replace("/unsubscribe/", "/unsubscribe/x")

    assert web_client().post(altered).status_code == 404
    assert web_client().get("/unsubscribe/not-a-token/").status_code == 404
    assert PlayerSettings.objects.get(user=table.mover).email_turns == "each"
