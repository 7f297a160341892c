"""Who is told about what: the rules every message follows.

- Bot accounts are never told anything (a program moves them).
- In a game against bots only, a player is not told of the game's own news (their
  turn, its end): the bots answer at once, and a player driving such a game through
  the API would get a message after every reply. What concerns their own clock
  (reminders, timeouts) is still sent.
- A player connected to the site is not sent "your turn" (the site shows it); one
  watching the game is not told of its timeouts or its end.
- A muted game sends nothing (``GameMute``).
- A closed (deleted, deactivated) or banned account is sent nothing (``is_reachable``):
  its push subscriptions are gone with the change (``accounts.lifecycle``), and every
  email asks here before it goes.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.contrib.auth import get_user_model

from accounts.moderation.selectors import ban_in_force_subquery
from games.live import presence
from games.models import Seat

logger = logging.getLogger(__name__)


def is_bot_account(user: Any) -> bool:
    """A built-in bot or an external bot account."""
    profile = getattr(user, "profile", None)
    return bool(profile is not None and profile.is_bot)


def is_reachable(user_id: int) -> bool:
    """Whether the account may be sent anything: open (active, not deleted) and not
    banned, as the database says now (a task may run long after it was queued)."""
    return (
        get_user_model()
        .objects.filter(pk=user_id, is_active=True, profile__deleted_at__isnull=True)
        .alias(ban=ban_in_force_subquery("pk"))
        .filter(ban__isnull=True)
        .exists()
    )


def others_are_bots(seats: Sequence[Seat], user_id: int) -> bool:
    """Whether everyone but ``user_id`` at the table is a bot."""
    others = [seat for seat in seats if seat.user_id != user_id]
    return bool(others) and all(is_bot_account(seat.user) for seat in others)


def is_connected(user_id: int) -> bool:
    """Whether the user has a live connection (a lost Redis counts as not connected:
    a message too many is better than one lost)."""
    try:
        return presence.is_connected(user_id)
    except Exception:
        logger.warning("presence unavailable: %s counts as not connected", user_id)
        return False


def watching(game_id: str) -> set[int]:
    """The users connected to the game's table (none when Redis is unavailable)."""
    try:
        return presence.connected_users(game_id)
    except Exception:
        logger.warning("presence unavailable: nobody counts as watching %s", game_id)
        return set()
