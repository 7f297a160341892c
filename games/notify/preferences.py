"""A player's notification choices, their per-game mutes and their calendar secret:
the writes, and the checks the API and the settings page share."""

from __future__ import annotations

import secrets
import zoneinfo
from collections.abc import Iterable, Mapping
from datetime import UTC, tzinfo
from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext, ngettext

from accounts.preferences import settings_update as account_settings_update
from games.errors import InvalidRequest
from games.models import DEFAULT_REMINDER_HOURS, Game, GameMute, PlayerSettings
from games.notify.tokens import Kind, Unsubscribe

# Reminder lead times: whole hours before the deadline, a few of them.
MIN_REMINDER_HOURS = 1
MAX_REMINDER_HOURS = 168
MAX_REMINDERS = 5

# The choices that ``preferences_update`` changes, each a column of PlayerSettings.
BOOLEAN_CHOICES = (
    "reminders",
    "email_strikes",
    "email_game_over",
    "push_turns",
    "push_challenges",
    "push_game_over",
)
CHOICES = ("email_turns", "reminder_hours", "time_zone", *BOOLEAN_CHOICES)


def preferences_for(user: Any) -> PlayerSettings:
    """The user's settings row (created with the defaults on first use)."""
    row, _ = PlayerSettings.objects.get_or_create(user=user)
    return row


def preferences_of(user: Any) -> PlayerSettings:
    """The user's settings as loaded with the user, else read; a user who never chose
    gets the defaults (an unsaved row: reading creates nothing)."""
    try:
        row: PlayerSettings = user.play_settings
    except PlayerSettings.DoesNotExist:
        return PlayerSettings(user=user)
    return row


# ------------------------------------------------------------------ checks


@cache
def time_zones() -> tuple[str, ...]:
    """Every IANA time zone name, sorted (what a player may choose)."""
    return tuple(sorted(zoneinfo.available_timezones()))


def time_zone_error(name: str) -> str | None:
    """Why ``name`` is no time zone a player may choose, or None ("" is: none chosen)."""
    if name and name not in time_zones():
        return gettext("%(name)s is not a time zone (use an IANA name such as Europe/Belgrade)") % {
            "name": repr(name)
        }
    return None


def reminder_hours_error(hours: Iterable[Any]) -> str | None:
    """Why ``hours`` are not reminder lead times, or None."""
    values = list(hours)
    if len(values) > MAX_REMINDERS:
        return ngettext(
            "at most %(count)s reminder",
            "at most %(count)s reminders",
            MAX_REMINDERS,
        ) % {"count": MAX_REMINDERS}
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int):
            return gettext("each reminder is a whole number of hours")
        if not MIN_REMINDER_HOURS <= value <= MAX_REMINDER_HOURS:
            return ngettext(
                "each reminder is %(least)s to %(most)s hour before the deadline",
                "each reminder is %(least)s to %(most)s hours before the deadline",
                MAX_REMINDER_HOURS,
            ) % {
                "least": MIN_REMINDER_HOURS,
                "most": MAX_REMINDER_HOURS,
            }
    return None


def reminder_hours_of(prefs: PlayerSettings) -> list[int]:
    """The player's reminder lead times in hours, longest first (the defaults when the
    stored value is not a list of whole hours)."""
    values = prefs.reminder_hours
    if not isinstance(values, list) or reminder_hours_error(values):
        return list(DEFAULT_REMINDER_HOURS)
    return sorted(values, reverse=True)


def zone_of(prefs: PlayerSettings) -> tzinfo:
    """The zone the player's messages show times in (UTC until they choose one)."""
    if prefs.time_zone and time_zone_error(prefs.time_zone) is None:
        return zoneinfo.ZoneInfo(prefs.time_zone)
    return UTC


# ------------------------------------------------------------------ writes


def preferences_update(*, user: Any, changes: Mapping[str, Any]) -> PlayerSettings:
    """Change the user's choices named in ``changes`` (any of ``CHOICES``); the others
    stay as they are. A bad value is ``InvalidRequest`` naming the field."""
    unknown = set(changes) - set(CHOICES)
    if unknown:
        raise InvalidRequest(
            ngettext("unknown setting: %(value)s", "unknown settings: %(value)s", len(unknown))
            % {"value": ", ".join(sorted(unknown))}
        )
    errors = _errors(changes)
    if errors:
        raise InvalidRequest("; ".join(errors.values()), code="invalid", details={"fields": errors})
    with transaction.atomic():
        row = PlayerSettings.objects.select_for_update().get(pk=preferences_for(user).pk)
        changed = []
        for name, value in changes.items():
            if name == "reminder_hours":
                value = sorted(set(value), reverse=True)
            if getattr(row, name) != value:
                setattr(row, name, value)
                changed.append(name)
        if changed:
            row.save(update_fields=changed)
    return row


def _errors(changes: Mapping[str, Any]) -> dict[str, str]:
    errors: dict[str, str] = {}
    if "email_turns" in changes and changes["email_turns"] not in PlayerSettings.EmailTurns.values:
        errors["email_turns"] = gettext("unknown email preference %(email_turns)s") % {
            "email_turns": repr(changes["email_turns"])
        }
    if "time_zone" in changes:
        zone = changes["time_zone"]
        problem = (
            gettext("a time zone is a string")
            if not isinstance(zone, str)
            else time_zone_error(zone)
        )
        if problem:
            errors["time_zone"] = problem
    if "reminder_hours" in changes:
        hours = changes["reminder_hours"]
        problem = (
            gettext("a list of hours")
            if not isinstance(hours, list)
            else reminder_hours_error(hours)
        )
        if problem:
            errors["reminder_hours"] = problem
    for name in BOOLEAN_CHOICES:
        if name in changes and not isinstance(changes[name], bool):
            errors[name] = gettext("true or false")
    return errors


# ------------------------------------------------------------------ per-game mutes


def game_mute(*, user: Any, game: Game) -> None:
    """No more messages to ``user`` about ``game`` (muting twice is muting)."""
    try:
        with transaction.atomic():
            GameMute.objects.get_or_create(user=user, game=game)
    except IntegrityError:
        pass  # muted at the same moment by another request


def game_unmute(*, user: Any, game_id: str) -> None:
    """Messages about the game (by public id) again."""
    GameMute.objects.filter(user=user, game__public_id=game_id).delete()


def is_muted(*, user_id: int, game: Game) -> bool:
    return GameMute.objects.filter(user_id=user_id, game=game).exists()


def muted_games(user: Any) -> list[Game]:
    """The games the user muted, newest mute first."""
    mutes = GameMute.objects.filter(user=user).select_related("game").order_by("-created_at", "-id")
    return [mute.game for mute in mutes]


# ------------------------------------------------------------------ unsubscribe links


def unsubscribe_apply(unsubscribe: Unsubscribe) -> bool:
    """Turn off what a signed link asks for. False when its user or game is gone."""
    user = get_user_model().objects.filter(pk=unsubscribe.user_id).first()
    if user is None:
        return False
    if unsubscribe.kind == Kind.GAME:
        game = Game.objects.filter(public_id=unsubscribe.game_id).first()
        if game is None:
            return False
        game_mute(user=user, game=game)
        return True
    if unsubscribe.kind == Kind.CHALLENGE:
        # The account's own setting (the settings page's "challenges by email").
        account_settings_update(user=user, email_challenges=False)
        return True
    change: dict[Kind, tuple[str, Any]] = {
        Kind.TURN: ("email_turns", PlayerSettings.EmailTurns.OFF),
        Kind.DIGEST: ("email_turns", PlayerSettings.EmailTurns.OFF),
        Kind.REMINDER: ("reminders", False),
        Kind.STRIKE: ("email_strikes", False),
        Kind.GAME_OVER: ("email_game_over", False),
    }
    name, value = change[unsubscribe.kind]
    preferences_update(user=user, changes={name: value})
    return True


# ------------------------------------------------------------------ calendar feed


def calendar_secret_for(user: Any) -> str:
    """The secret of the user's calendar feed URL (made on first use)."""
    row = preferences_for(user)
    if row.calendar_secret:
        return row.calendar_secret
    # Set only where none is yet: two first looks at once (two tabs) both get the one
    # secret written, not a URL the other look has already replaced.
    rows = PlayerSettings.objects.filter(pk=row.pk)
    unset = Q(calendar_secret__isnull=True) | Q(calendar_secret="")
    rows.filter(unset).update(calendar_secret=_new_calendar_secret())
    return str(rows.values_list("calendar_secret", flat=True).get())


def calendar_reset(*, user: Any) -> str:
    """A new secret for the user's calendar feed: the old URL stops working."""
    secret = _new_calendar_secret()
    PlayerSettings.objects.filter(pk=preferences_for(user).pk).update(calendar_secret=secret)
    return secret


def _new_calendar_secret() -> str:
    return secrets.token_urlsafe(24)
