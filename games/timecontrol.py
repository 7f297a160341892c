"""Turn deadlines, time banks and vacations.

A turn's deadline is computed when the turn starts (``turn_deadline``, called by
``games.services`` on every turn change) and stored on the game with its ply.
Live games: ``seconds_per_turn`` plus the mover's time bank: each seat has
``time_bank_s`` for the whole game (not refilled per deal), used only by the part
of a turn that runs past ``seconds_per_turn``; what a player used is taken from
their bank when their turn ends (``bank_charge``), and a turn that times out
leaves it empty. The sweep only sees the stored deadline, bank included.
Correspondence games: ``days_per_move``, and the
clock of a player on vacation starts when the vacation ends; taking a vacation
pushes the deadlines of the games where it is already their turn by its length
(``vacation_start``), ending it early gives the unused days back
(``vacation_end``).

The vacation allowance is earned over time (``VACATION_DAYS_PER_YEAR``) up to a
cap (``VACATION_MAX_DAYS``); it is computed lazily when read.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games import events
from games.errors import Conflict, InvalidRequest
from games.models import Deal, Game, PlayerSettings, Seat

DAY = timedelta(days=1)


def _setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


def vacation_cap() -> float:
    return _setting("VACATION_MAX_DAYS", 30.0)


def vacation_rate_per_day() -> float:
    return _setting("VACATION_DAYS_PER_YEAR", 30.0) / 365.0


# ------------------------------------------------------------------ timeout policy


def strike_limit(game: Game) -> int:
    """Timeouts in a row that take a seat out: the game's own limit, else the site's
    (``LIVE_STRIKES`` / ``CORRESPONDENCE_STRIKES``, 3)."""
    if game.strike_limit:
        return int(game.strike_limit)
    if game.time_control == Game.TimeControl.LIVE:
        return int(getattr(settings, "LIVE_STRIKES", 3))
    return int(getattr(settings, "CORRESPONDENCE_STRIKES", 3))


def absent_wait(game: Game) -> timedelta:
    """How long a live table waits for a disconnected player to move (RULES.md §10): the
    game's own wait, else ``LIVE_ABSENT_WAIT_S`` (2 minutes)."""
    if game.absent_wait_s:
        return timedelta(seconds=game.absent_wait_s)
    return timedelta(seconds=_setting("LIVE_ABSENT_WAIT_S", 120.0))


def absent_choice_wait() -> timedelta:
    """How long the host has to choose once the wait is over, before the default
    (continue without the player; 2 players: the other one wins) applies."""
    return timedelta(seconds=_setting("LIVE_ABSENT_CHOICE_S", 60.0))


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
    to_move = (
        Deal.objects.filter(game=game, number=game.deal_number)
        .values_list("state__to_move", flat=True)
        .first()
    )
    if to_move is None:
        return None
    return (
        PlayerSettings.objects.filter(user__seats__game=game, user__seats__position=int(to_move))
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


@dataclass(frozen=True)
class VacationState:
    days_left: float
    until: datetime | None
    started_at: datetime | None = None  # of the vacation being taken

    def to_dict(self) -> dict[str, Any]:
        return {"days_left": round(self.days_left, 2), "until": self.until}


def settings_for(user: Any) -> PlayerSettings:
    """The user's play settings (created with the defaults on first use)."""
    row, _ = PlayerSettings.objects.get_or_create(user=user)
    return row


def _accrue(row: PlayerSettings, now: datetime) -> None:
    """Add the days earned since the last accrual, up to the cap."""
    earned = (now - row.vacation_accrued_at) / DAY * vacation_rate_per_day()
    row.vacation_days = min(vacation_cap(), row.vacation_days + earned)
    row.vacation_accrued_at = now


def vacation_state(*, user: Any, now: datetime | None = None) -> VacationState:
    now = now or timezone.now()
    row = settings_for(user)
    _accrue(row, now)
    until = row.vacation_until if row.vacation_until and row.vacation_until > now else None
    started = row.vacation_started_at if until is not None else None
    return VacationState(days_left=row.vacation_days, until=until, started_at=started)


def _games_waiting_for(user: Any) -> list[Game]:
    """Active correspondence games of ``user`` where it is their turn (locked)."""
    games = []
    for game in Game.objects.select_for_update().filter(
        status=Game.Status.ACTIVE,
        time_control=Game.TimeControl.CORRESPONDENCE,
        seats__user=user,
        deadline_at__isnull=False,
    ):
        position = Seat.objects.get(game=game, user=user).position
        to_move = (
            Deal.objects.filter(game=game, number=game.deal_number)
            .values_list("state__to_move", flat=True)
            .first()
        )
        if to_move is not None and int(to_move) == position:
            games.append(game)
    return games


def vacation_start(*, user: Any, days: float, now: datetime | None = None) -> VacationState:
    """Take ``days`` of vacation from now: the deadlines of the user's correspondence
    games where it is their turn move by that much, and a turn that comes to them
    during the vacation starts its clock when the vacation ends."""
    now = now or timezone.now()
    if days <= 0:
        raise InvalidRequest("a vacation lasts at least part of a day", code="invalid_vacation")
    with transaction.atomic():
        row = PlayerSettings.objects.select_for_update().get(pk=settings_for(user).pk)
        _accrue(row, now)
        if row.vacation_until is not None and row.vacation_until > now:
            raise Conflict("you are already on vacation", code="already_on_vacation")
        if days > row.vacation_days + 1e-9:
            raise InvalidRequest(
                f"only {row.vacation_days:.1f} vacation days are left",
                code="not_enough_vacation",
                details={"days_left": row.vacation_days},
            )
        row.vacation_days -= days
        row.vacation_started_at = now
        row.vacation_until = now + days * DAY
        row.save()
        for game in _games_waiting_for(user):
            _shift_deadline(game, days * DAY)
    return VacationState(
        days_left=row.vacation_days, until=row.vacation_until, started_at=row.vacation_started_at
    )


def vacation_end(*, user: Any, now: datetime | None = None) -> VacationState:
    """End the vacation now: the unused days go back to the allowance and the
    deadlines that were pushed come back by as much."""
    now = now or timezone.now()
    with transaction.atomic():
        row = PlayerSettings.objects.select_for_update().get(pk=settings_for(user).pk)
        _accrue(row, now)
        if row.vacation_until is None or row.vacation_until <= now:
            raise Conflict("you are not on vacation", code="not_on_vacation")
        unused = row.vacation_until - now
        row.vacation_days = min(vacation_cap(), row.vacation_days + unused / DAY)
        row.vacation_until = now
        row.save()
        for game in _games_waiting_for(user):
            _shift_deadline(game, -unused)
    return VacationState(days_left=row.vacation_days, until=None)


def play_settings_update(
    *, user: Any, email_turns: str | None = None, reminders: bool | None = None
) -> PlayerSettings:
    """Change the user's notification preferences ("your turn" emails: each move, a
    daily digest or off; reminders on or off). ``None`` leaves a preference as it is."""
    if email_turns is not None and email_turns not in PlayerSettings.EmailTurns.values:
        raise InvalidRequest(f"unknown email preference {email_turns!r}", code="invalid")
    with transaction.atomic():
        row = PlayerSettings.objects.select_for_update().get(pk=settings_for(user).pk)
        changed = []
        if email_turns is not None and email_turns != row.email_turns:
            row.email_turns = email_turns
            changed.append("email_turns")
        if reminders is not None and reminders != row.reminders:
            row.reminders = reminders
            changed.append("reminders")
        if changed:
            row.save(update_fields=changed)
    return row


def _shift_deadline(game: Game, by: timedelta) -> None:
    """Move the current turn's deadline (same ply: the turn is unchanged)."""
    Game.objects.filter(pk=game.pk, ply=game.ply).update(deadline_at=F("deadline_at") + by)
    game.refresh_from_db(fields=["deadline_at"])
    events.game_event_on_commit(
        game.public_id,
        game.ply,
        {"type": "deadline_changed", "deadline_at": _iso(game.deadline_at), "reason": "vacation"},
    )


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()
