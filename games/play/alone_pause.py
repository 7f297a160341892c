"""A live game with one person and only bots waits for that person (docs/rules.md §10).

Nobody else is kept waiting, so the absent-player rule would only punish the person
for closing the tab: when their turn's deadline passes while they are disconnected,
the turn's clock stops instead (no deadline, nothing used from the time bank, no
strike, no absence counted) and the game stays as it is. When they come back (their
websocket subscribes to the game again) their turn starts afresh: the turn's own
seconds and what is left of their bank.

A pause is the current turn of a live game without a deadline: the sweep finds
nothing to do, and both steps run under the game's row lock with the ply re-checked.
Each step tells the table with ``deadline_changed`` (``player_away``,
``player_back``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games import clock
from games.live import outbox
from games.models import Game, Seat

REASON_AWAY = "player_away"
REASON_BACK = "player_back"


def only_person(seats: Sequence[Seat], seat: Seat) -> bool:
    """Whether ``seat`` is the one person still in the game among bots."""
    return all(
        other.user.profile.is_bot
        for other in seats
        if other.position != seat.position and other.status != Seat.Status.OUT
    )


def pause_turn(*, game: Game, position: int, now: datetime) -> bool:
    """Stop the clock of the overdue turn of ``position`` (its player the only person,
    away). False when the turn changed or is not overdue any more."""
    with transaction.atomic():
        locked = (
            Game.objects.select_for_update(skip_locked=True)
            .filter(pk=game.pk, ply=game.ply, status=Game.Status.ACTIVE, to_move=position)
            .first()
        )
        if locked is None or locked.deadline_at is None or locked.deadline_at > now:
            return False
        locked.deadline_at = None
        # No start: a move made while paused uses nothing from the bank.
        locked.turn_started_at = None
        locked.save(update_fields=["deadline_at", "turn_started_at", "updated_at"])
        _announce(locked, REASON_AWAY)
    return True


def resume_turn(*, game_id: str, user: User, now: datetime | None = None) -> bool:
    """The person of a paused game is back: their turn starts again with its full time.
    False (and nothing changed) unless ``user`` is that person and the game is paused."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = (
            Game.objects.select_for_update()
            .filter(
                public_id=game_id,
                status=Game.Status.ACTIVE,
                time_control=Game.TimeControl.LIVE,
                seconds_per_turn__isnull=False,
                deadline_at__isnull=True,
                to_move__isnull=False,
            )
            .first()
        )
        if locked is None:
            return False
        seats = list(Seat.objects.select_related("user__profile").filter(game=locked))
        seat = next((s for s in seats if s.position == locked.to_move), None)
        if (
            seat is None
            or seat.user_id != user.pk
            or seat.status != Seat.Status.ACTIVE
            or not only_person(seats, seat)
        ):
            return False
        locked.turn_started_at = now
        locked.deadline_at = clock.turn_deadline(
            locked, now, away_until=None, bank_ms=clock.bank_left_ms(locked, seat)
        )
        locked.save(update_fields=["deadline_at", "turn_started_at", "updated_at"])
        _announce(locked, REASON_BACK)
    return True


def _announce(game: Game, reason: str) -> None:
    outbox.game_event_on_commit(
        game.public_id,
        game.ply,
        {
            "type": "deadline_changed",
            "deadline_at": None if game.deadline_at is None else game.deadline_at.isoformat(),
            "reason": reason,
        },
    )
