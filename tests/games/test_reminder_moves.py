"""A reminder is sent again for a deadline that moved only when it moved by at least the
reminder's lead: a vacation of seconds is no news, one of days is."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import tasks
from games.models import Game, PlayerSettings
from games.play import vacation
from tests.games.notify_kit import Duel, duel, mails_to

pytestmark = pytest.mark.django_db(transaction=True)

HOUR = timedelta(hours=1)


@pytest.fixture
def table(user_factory: Callable[..., Any], deals_seeded: Callable[[int], None]) -> Duel:
    table = duel(user_factory, days=2)
    PlayerSettings.objects.filter(user=table.mover).update(reminder_hours=[24, 8, 2])
    return table


def reminders(outbox: list[Any], user: Any) -> int:
    return sum(" left for your move " in m.subject for m in mails_to(outbox, user))


def move_deadline(table: Duel, by: timedelta) -> None:
    game = table.game
    assert game.deadline_at is not None
    Game.objects.filter(pk=game.pk).update(deadline_at=game.deadline_at + by)


def test_a_twenty_second_vacation_sends_no_reminder_again(table: Duel, mailoutbox: Any) -> None:
    now = timezone.now()
    Game.objects.filter(public_id=table.game_id).update(deadline_at=now + 90 * timedelta(minutes=1))
    assert tasks.send_reminders(now=now) == 1  # the 2 h reminder (and the longer ones with it)

    vacation.vacation_start(user=table.mover, days=20 / 86400, now=now)  # 20 seconds

    assert table.game.deadline_at == now + 90 * timedelta(minutes=1) + timedelta(seconds=20)
    assert tasks.send_reminders(now=now + timedelta(seconds=30)) == 0
    assert reminders(mailoutbox, table.mover) == 1


@pytest.mark.parametrize(
    ("moved", "sent_again"),
    [
        (timedelta(seconds=20), False),
        (timedelta(minutes=90), False),  # less than 2 h: the 2 h reminder still told it
        (timedelta(hours=2), True),  # as much as the lead: due again
        (timedelta(hours=30), True),
    ],
)
def test_the_two_hour_reminder_comes_again_only_past_its_lead(
    table: Duel, mailoutbox: Any, moved: timedelta, sent_again: bool
) -> None:
    deadline = table.game.deadline_at
    assert deadline is not None
    assert tasks.send_reminders(now=deadline - 2 * HOUR) == 1
    move_deadline(table, moved)

    again = tasks.send_reminders(now=deadline + moved - 2 * HOUR)

    assert again == int(sent_again)
    assert reminders(mailoutbox, table.mover) == 1 + int(sent_again)


def test_each_lead_is_measured_against_its_own_length(table: Duel, mailoutbox: Any) -> None:
    """Moved by 3 h: past the 2 h lead, within the 8 h and the 24 h ones."""
    deadline = table.game.deadline_at
    assert deadline is not None
    sent = [tasks.send_reminders(now=deadline - hours * HOUR) for hours in (24, 8, 2)]
    assert sent == [1, 1, 1]
    move_deadline(table, 3 * HOUR)
    moved = deadline + 3 * HOUR

    again = [tasks.send_reminders(now=moved - hours * HOUR) for hours in (24, 8, 2)]

    assert again == [0, 0, 1]
