"""Reminders that cannot be lost: at each lead time the player chose, once per
deadline, again when the deadline moves (a vacation), whatever the cache does."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import tasks
from games.models import Game, PlayerSettings, SentReminder
from games.play import vacation
from tests.games.notify_kit import Duel, duel, mails_to

pytestmark = pytest.mark.django_db(transaction=True)

HOUR = timedelta(hours=1)


@pytest.fixture
def table(user_factory: Callable[..., Any], deals_seeded: Callable[[int], None]) -> Duel:
    return duel(user_factory, days=2)


def reminders_to(outbox: list[Any], user: Any) -> list[str]:
    """The time left each reminder to ``user`` announced ("3 hours", "1 day, 1 hour", ...)."""
    return [
        message.subject.split(" left for your move")[0]
        for message in mails_to(outbox, user)
        if " left for your move " in message.subject
    ]


def test_a_reminder_comes_again_after_a_vacation_moved_the_deadline(table, mailoutbox):
    mover = table.mover
    now = timezone.now()
    Game.objects.filter(public_id=table.game_id).update(deadline_at=now + 3 * HOUR)

    assert tasks.send_reminders(now=now) == 1  # the 24 h reminder
    assert tasks.send_reminders(now=now) == 0
    vacation.vacation_start(user=mover, days=3, now=now)  # the deadline moves 3 days on
    assert tasks.send_reminders(now=now) == 0
    later = now + timedelta(days=3)  # the deadline nears again

    assert tasks.send_reminders(now=later) == 1
    assert tasks.send_reminders(now=later + 2 * HOUR) == 1  # and its 2 h reminder
    assert reminders_to(mailoutbox, mover) == ["3 hours", "3 hours", "1 hour"]


def test_each_lead_time_the_player_chose_comes_once(table, mailoutbox):
    mover = table.mover
    PlayerSettings.objects.filter(user=mover).update(reminder_hours=[24, 8, 2])
    deadline = table.game.deadline_at
    assert deadline is not None
    mailoutbox.clear()

    sent = [
        tasks.send_reminders(now=deadline - timedelta(hours=hours))
        for hours in (30, 24, 20, 8, 8, 2, 1)
    ]

    assert sent == [0, 1, 0, 1, 0, 1, 0]
    assert reminders_to(mailoutbox, mover) == ["1 day", "8 hours", "2 hours"]


def test_lead_times_due_at_once_send_one_reminder(table, mailoutbox):
    mover = table.mover
    PlayerSettings.objects.filter(user=mover).update(reminder_hours=[24, 8, 2])
    now = timezone.now()
    Game.objects.filter(public_id=table.game_id).update(deadline_at=now + HOUR)
    mailoutbox.clear()

    assert tasks.send_reminders(now=now) == 1
    assert tasks.send_reminders(now=now + 10 * timedelta(minutes=1)) == 0

    assert reminders_to(mailoutbox, mover) == ["1 hour"]
    assert sorted(SentReminder.objects.values_list("lead_hours", flat=True)) == [2, 8, 24]


def test_a_lead_time_as_long_as_the_move_is_not_sent(user_factory, deals_seeded, mailoutbox):
    table = duel(user_factory, days=1)  # 24 h to move: the 24 h reminder is the turn itself
    deadline = table.game.deadline_at
    assert deadline is not None
    mailoutbox.clear()

    assert tasks.send_reminders(now=deadline - 23 * HOUR) == 0
    assert tasks.send_reminders(now=deadline - 2 * HOUR) == 1
    assert reminders_to(mailoutbox, table.mover) == ["2 hours"]


def test_a_lost_cache_sends_no_reminder_twice(table, mailoutbox):
    now = timezone.now()
    Game.objects.filter(public_id=table.game_id).update(deadline_at=now + 3 * HOUR)
    assert tasks.send_reminders(now=now) == 1

    cache.clear()  # a restarted Redis

    assert tasks.send_reminders(now=now) == 0
    assert len(reminders_to(mailoutbox, table.mover)) == 1


def test_reminders_turned_off_are_not_sent_and_old_keys_are_forgotten(table, mailoutbox):
    mover = table.mover
    now = timezone.now()
    Game.objects.filter(public_id=table.game_id).update(deadline_at=now + 3 * HOUR)
    assert tasks.send_reminders(now=now) == 1
    PlayerSettings.objects.filter(user=mover).update(reminders=False)

    assert tasks.send_reminders(now=now + 2 * HOUR) == 0  # the 2 h one: turned off
    assert tasks.send_reminders(now=now + timedelta(days=2)) == 0

    assert SentReminder.objects.count() == 0  # a day past its deadline, a key is dropped
    assert len(reminders_to(mailoutbox, mover)) == 1


def test_a_sweep_reads_the_turns_due_in_a_few_queries_however_many(
    user_factory, deals_seeded, mailoutbox
):
    now = timezone.now()

    def more_games_due(count: int, first: int) -> None:
        for index in range(first, first + count):
            table = duel(user_factory, names=(f"a{index}", f"b{index}"))
            Game.objects.filter(public_id=table.game_id).update(deadline_at=now + 3 * HOUR)
        assert tasks.send_reminders(now=now) == count

    def queries_of_a_sweep_with_nothing_new() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert tasks.send_reminders(now=now + timedelta(minutes=5)) == 0
        return len(queries.captured_queries)

    more_games_due(1, first=0)
    one = queries_of_a_sweep_with_nothing_new()
    more_games_due(5, first=1)

    assert queries_of_a_sweep_with_nothing_new() == one <= 8
