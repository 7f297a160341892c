"""'Your turn' emails (per preference, never for a turn seen at the table), reminders,
digests."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from games import tasks
from games.models import Game, PlayerSettings, Seat
from games.read.selectors import current_deal

pytestmark = pytest.mark.django_db(transaction=True)


def to_move(game: Game) -> Seat:
    game.refresh_from_db()
    deal = current_deal(game)
    assert deal is not None
    return game.seats.select_related("user").get(position=deal.to_move)


@pytest.fixture
def game(started_game: Callable[..., Game], user_factory: Callable[..., Any]) -> Game:
    users = [user_factory() for _ in range(2)]
    game = started_game(2, users=users, days_per_move=2)
    # Addresses after the start, so that the start's own "your turn" email is not sent.
    for person in users:
        person.email = f"{person.username}@example.com"
        person.save()
    return game


def test_the_player_to_move_gets_a_your_turn_email(game: Game) -> None:
    seat = to_move(game)
    mail.outbox.clear()

    assert tasks.your_turn_email(game.pk, game.ply, seat.user_id) is True
    assert tasks.your_turn_email(game.pk, game.ply, seat.user_id) is False  # once per turn

    assert [message.to for message in mail.outbox] == [[seat.user.email]]
    assert game.public_id in mail.outbox[0].body


def test_no_email_for_a_turn_seen_at_the_table_or_when_turned_off(
    game: Game, client_for: Callable[[Any], Any]
) -> None:
    seat = to_move(game)
    mail.outbox.clear()
    seen = client_for(seat.user).post(f"/api/v1/games/{game.public_id}/seen")
    assert seen.status_code == 204
    assert tasks.your_turn_email(game.pk, game.ply, seat.user_id) is False

    PlayerSettings.objects.update_or_create(
        user=seat.user, defaults={"email_turns": PlayerSettings.EmailTurns.OFF}
    )
    assert tasks.your_turn_email(game.pk, game.ply, seat.user_id) is False
    assert mail.outbox == []


def test_a_reminder_comes_when_most_of_the_time_is_gone(game: Game) -> None:
    seat = to_move(game)
    mail.outbox.clear()
    assert tasks.send_reminders() == 0  # the whole two days are left

    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() + timedelta(hours=3))
    assert tasks.send_reminders() == 1
    assert tasks.send_reminders() == 0  # once per turn
    assert [message.to for message in mail.outbox] == [[seat.user.email]]


def test_the_daily_digest_lists_the_games_waiting_once_a_day(game: Game) -> None:
    seat = to_move(game)
    PlayerSettings.objects.update_or_create(
        user=seat.user, defaults={"email_turns": PlayerSettings.EmailTurns.DAILY}
    )
    mail.outbox.clear()
    assert tasks.your_turn_email(game.pk, game.ply, seat.user_id) is False  # digest only

    assert tasks.send_daily_digests() == 1
    assert tasks.send_daily_digests() == 0
    assert game.public_id in mail.outbox[0].body
    assert tasks.send_daily_digests(now=timezone.now() + timedelta(days=1)) == 1
