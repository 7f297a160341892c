"""Playbans for abandoning rated games, on lichess's model: a player who leaves rated
games for good (put out for timeouts, or for being away from a live table) too often
waits, before their next rated game, a period that grows with each playban.

``PLAYBAN_ABANDONMENTS`` abandonments within ``PLAYBAN_WINDOW_DAYS`` (counted since
the last playban, if it is more recent) bring a playban of the next length of
``PLAYBAN_MINUTES``: the first of the last ``PLAYBAN_ESCALATION_DAYS`` is the
shortest. ``games.play.sanctions`` reports each abandonment, in the transaction that
puts the seat out, and refuses a rated game while a playban is in force. A new playban
runs the account's lifecycle once it commits: the account's pending rated challenges
and its seats in rated games not yet started go.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone

from accounts import lifecycle
from accounts.models import Abandonment, ModAction, Profile, Sanction
from accounts.moderation.modlog import modlog_record
from games.models import Game

# How a seat leaves a game that counts as abandoning it (the reason of its server resign).
ABANDON_REASONS = frozenset({"timeout", "absent"})

# 15 minutes, an hour, 3 hours, 12 hours, a day, 3 days.
PLAYBAN_MINUTES = (15, 60, 180, 720, 1440, 4320)


def abandonment_record(
    *, user: User, game: Game, reason: str, now: datetime | None = None
) -> Sanction | None:
    """Count the rated ``game`` that ``user`` left for good; returns the playban this
    brings, if it does. Runs in the transaction that puts the seat out."""
    if reason not in ABANDON_REASONS:
        return None
    now = now or timezone.now()
    # One player's abandonments are counted one at a time (two games ending together).
    Profile.objects.select_for_update().filter(user=user).first()
    _, created = Abandonment.objects.get_or_create(
        user=user, game=game, defaults={"reason": reason, "created_at": now}
    )
    if not created:
        return None
    return _playban_if_due(user, game, now)


def _playban_if_due(user: User, game: Game, now: datetime) -> Sanction | None:
    days = settings.PLAYBAN_WINDOW_DAYS
    since = now - timedelta(days=days)
    last = Sanction.objects.filter(user=user, kind=Sanction.Kind.PLAYBAN).first()
    if last is not None and last.created_at > since:
        since = last.created_at
    count = Abandonment.objects.filter(user=user, created_at__gt=since).count()
    if count < settings.PLAYBAN_ABANDONMENTS:
        return None
    minutes = playban_minutes(user, now)
    reason = f"you abandoned {count} rated games (timed out or left) within {days} days"
    playban = Sanction.objects.create(
        user=user,
        kind=Sanction.Kind.PLAYBAN,
        reason=reason,
        created_at=now,
        ends_at=now + timedelta(minutes=minutes),
    )
    modlog_record(
        moderator=None,
        action=ModAction.Action.PLAYBAN,
        reason=reason,
        target=user,
        game=game,
        details={"minutes": minutes, "abandonments": count, "sanction": playban.pk},
    )
    lifecycle.account_changed_on_commit(user=user, change=lifecycle.Change.PLAYBAN)
    return playban


def playban_minutes(user: User, now: datetime) -> int:
    """The length of the user's next playban: longer for each of the recent ones."""
    recent = Sanction.objects.filter(
        user=user,
        kind=Sanction.Kind.PLAYBAN,
        created_at__gt=now - timedelta(days=settings.PLAYBAN_ESCALATION_DAYS),
    ).count()
    return PLAYBAN_MINUTES[min(recent, len(PLAYBAN_MINUTES) - 1)]
