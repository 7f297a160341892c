"""Turn deadlines and time banks: functions of the game's rows, the settings and now.

A turn's deadline is computed when the turn starts (``turn_deadline``, called by
``games.play.turns`` on every turn change) and stored on the game with its ply.
Live games: ``seconds_per_turn`` plus the mover's time bank: each seat has
``time_bank_s`` for the whole game (not refilled per deal), used only by the part
of a turn that runs past ``seconds_per_turn``; what a player used is taken from
their bank when their turn ends (``bank_charge``), and a turn that times out
leaves it empty. The sweep only sees the stored deadline, bank included.
Correspondence games: ``days_per_move``, and the clock of a player on vacation
(``games.play.vacation``) starts when the vacation ends.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from games.models import Game, PlayerSettings, Seat

DAY = timedelta(days=1)


# ------------------------------------------------------------------ timeout policy


def strike_limit(game: Game) -> int:
    """Timeouts in a row that take a seat out: the game's own limit, else the site's
    (``LIVE_STRIKES`` / ``CORRESPONDENCE_STRIKES``, 3)."""
    if game.strike_limit:
        return int(game.strike_limit)
    if game.time_control == Game.TimeControl.LIVE:
        return int(settings.LIVE_STRIKES)
    return int(settings.CORRESPONDENCE_STRIKES)


def absent_wait(game: Game) -> timedelta:
    """How long a live table waits for a disconnected player to move (docs/rules.md §10): the
    game's own wait, else ``LIVE_ABSENT_WAIT_S`` (2 minutes)."""
    if game.absent_wait_s:
        return timedelta(seconds=game.absent_wait_s)
    return timedelta(seconds=float(settings.LIVE_ABSENT_WAIT_S))


def absent_choice_wait() -> timedelta:
    """How long the host has to choose once the wait is over, before the default
    (continue without the player; 2 players: the other one wins) applies."""
    return timedelta(seconds=float(settings.LIVE_ABSENT_CHOICE_S))


# ------------------------------------------------------------------ deadlines


_UNKNOWN: Any = object()


def turn_deadline(
    game: Game,
    now: datetime,
    *,
    away_until: datetime | None = _UNKNOWN,
    bank_ms: int = 0,
) -> datetime | None:
    """The deadline of the turn that starts ``now`` (the game's current deal saved).

    ``away_until``: the end of the vacation of the player to move (None: none), when
    the caller has it; else it is read from the database. ``bank_ms``: what is left
    of the live mover's time bank (``bank_left_ms``)."""
    if game.status != Game.Status.ACTIVE:
        return None
    if game.time_control == Game.TimeControl.LIVE and game.seconds_per_turn:
        return now + timedelta(seconds=game.seconds_per_turn, milliseconds=bank_ms)
    if not game.days_per_move:
        return None
    start = now
    if away_until is _UNKNOWN:
        away_until = _vacation_of_player_to_move(game)
    if away_until is not None and away_until > now:
        start = away_until  # the clock starts when the vacation ends
    return start + timedelta(days=game.days_per_move)


def _vacation_of_player_to_move(game: Game) -> datetime | None:
    if game.to_move is None:
        return None
    return (
        PlayerSettings.objects.filter(user__seats__game=game, user__seats__position=game.to_move)
        .values_list("vacation_until", flat=True)
        .first()
    )


# ------------------------------------------------------------------ time bank


def has_bank(game: Game) -> bool:
    return game.time_control == Game.TimeControl.LIVE and game.time_bank_s > 0


def bank_left_ms(game: Game, seat: Seat) -> int:
    """What is left of ``seat``'s time bank, as of the start of the current turn."""
    if not has_bank(game):
        return 0
    return max(0, game.time_bank_s * 1000 - seat.time_bank_used_ms)


def bank_charge(game: Game, seat: Seat, now: datetime) -> bool:
    """The turn of ``seat`` ended ``now``: take the time it ran past the turn's own
    seconds from the seat's bank (never below empty). True when the seat changed."""
    if not has_bank(game) or game.turn_started_at is None or not game.seconds_per_turn:
        return False
    over = now - game.turn_started_at - timedelta(seconds=game.seconds_per_turn)
    used = min(int(over.total_seconds() * 1000), bank_left_ms(game, seat))
    if used <= 0:
        return False
    seat.time_bank_used_ms += used
    return True


def bank_exhaust(game: Game, seat: Seat) -> bool:
    """The turn of ``seat`` timed out: its bank is empty. True when the seat changed."""
    if not has_bank(game) or seat.time_bank_used_ms >= game.time_bank_s * 1000:
        return False
    seat.time_bank_used_ms = game.time_bank_s * 1000
    return True


def turn_ends_at(game: Game) -> datetime | None:
    """When the current live turn's own seconds run out and the mover's bank starts
    being used (equal to ``deadline_at`` without a bank); None when there is no clock."""
    if game.deadline_at is None:
        return None
    if (
        game.time_control != Game.TimeControl.LIVE
        or game.turn_started_at is None
        or not game.seconds_per_turn
    ):
        return game.deadline_at
    return min(game.deadline_at, game.turn_started_at + timedelta(seconds=game.seconds_per_turn))


def bank_remaining_s(game: Game, seat: Seat) -> float | None:
    """A seat's bank in seconds for the API (as of the current turn's start; the
    mover's is being used from ``turn_ends_at`` on); None for correspondence games."""
    if game.time_control != Game.TimeControl.LIVE:
        return None
    return round(bank_left_ms(game, seat) / 1000, 1)


def turn_clock(game: Game, to_move: Seat) -> dict[str, Any]:
    """The clock fields of a ``turn`` event: when the turn's own seconds end, and what
    is left of the mover's bank (seconds; null for correspondence games)."""
    ends = turn_ends_at(game)
    return {
        "turn_ends_at": None if ends is None else ends.isoformat(),
        "time_bank_remaining_s": bank_remaining_s(game, to_move),
    }


def time_left(game: Game, now: datetime | None = None) -> timedelta | None:
    if game.deadline_at is None:
        return None
    return game.deadline_at - (now or timezone.now())


def move_period(game: Game) -> timedelta | None:
    """How long a turn lasts under the game's time control."""
    if game.time_control == Game.TimeControl.LIVE and game.seconds_per_turn:
        return timedelta(seconds=game.seconds_per_turn)
    if game.days_per_move:
        return timedelta(days=game.days_per_move)
    return None


# ------------------------------------------------------------------ vacation
