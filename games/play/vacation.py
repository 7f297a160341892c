"""Vacations of correspondence players, and their play settings: the writes.

Taking a vacation pushes the deadlines of the games where it is already the player's
turn by its length (``vacation_start``); ending it early gives the unused days back
(``vacation_end``). The allowance is earned over time (``VACATION_DAYS_PER_YEAR``) up
to a cap (``VACATION_MAX_DAYS``), computed lazily when read. The clock of a player on
vacation starts when the vacation ends (``games.clock.turn_deadline``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from games.clock import DAY
from games.errors import Conflict, InvalidRequest
from games.live import outbox
from games.models import Game, PlayerSettings


def vacation_cap() -> float:
    return float(settings.VACATION_MAX_DAYS)


def vacation_rate_per_day() -> float:
    return float(settings.VACATION_DAYS_PER_YEAR) / 365.0


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
    return list(
        Game.objects.select_for_update().filter(
            status=Game.Status.ACTIVE,
            time_control=Game.TimeControl.CORRESPONDENCE,
            seats__user=user,
            seats__position=F("to_move"),
            deadline_at__isnull=False,
        )
    )


def vacation_start(*, user: Any, days: float, now: datetime | None = None) -> VacationState:
    """Take ``days`` of vacation from now: the deadlines of the user's correspondence
    games where it is their turn move by that much, and a turn that comes to them
    during the vacation starts its clock when the vacation ends."""
    now = now or timezone.now()
    if days <= 0:
        raise InvalidRequest(
            gettext("a vacation lasts at least part of a day"), code="invalid_vacation"
        )
    with transaction.atomic():
        row = PlayerSettings.objects.select_for_update().get(pk=settings_for(user).pk)
        _accrue(row, now)
        if row.vacation_until is not None and row.vacation_until > now:
            raise Conflict(gettext("you are already on vacation"), code="already_on_vacation")
        if days > row.vacation_days + 1e-9:
            raise InvalidRequest(
                gettext("only %(vacation_days)s vacation days are left")
                % {"vacation_days": format(row.vacation_days, ".1f")},
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
            raise Conflict(gettext("you are not on vacation"), code="not_on_vacation")
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
        raise InvalidRequest(
            gettext("unknown email preference %(email_turns)s")
            % {"email_turns": repr(email_turns)},
            code="invalid",
        )
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
    outbox.game_event_on_commit(
        game.public_id,
        game.ply,
        {"type": "deadline_changed", "deadline_at": _iso(game.deadline_at), "reason": "vacation"},
    )


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()
