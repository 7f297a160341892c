"""Who is told about what: the rules every message follows.

- Bot accounts are never told anything (a program moves them).
- In a game against bots only, a player is not told of the game's own news (their
  turn, its end): the bots answer at once, and a player driving such a game through
  the API would get a message after every reply. What concerns their own clock
  (reminders, timeouts) is still sent.
- "Your turn" waits only while the game's table is seen: its script reports while
  the page is visible and was used lately (``table_seen``), not merely open. A turn
  that begins while the table is seen is told only if it is still unseen a few
  minutes later (``TURN_NOTICE_UNSEEN_S``); otherwise at once. A player watching
  the game is not told of its timeouts or its end.
- A muted game sends nothing (``GameMute``).
- A closed (deleted, deactivated) or banned account is sent nothing (``is_reachable``):
  its push subscriptions are gone with the change (``accounts.lifecycle``), and every
  email asks here before it goes.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import cache

from accounts.moderation.selectors import ban_in_force_subquery
from games.live import presence
from games.models import Seat

logger = logging.getLogger(__name__)

# The table's script reports every 30 s while it is seen: a report this recent means
# the table is seen now.
SEEN_FRESH_S = 75.0
# A report is kept for longer than any turn notice waits for one.
_SEEN_KEEP_S = 3600


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


def _seen_key(user_id: int, game_id: str) -> str:
    return f"remi:seen:{user_id}:{game_id}"


def table_seen(*, user_id: int, game_id: str) -> None:
    """The game's table is in front of the user now (reported by its script)."""
    try:
        cache.set(_seen_key(user_id, game_id), time.time(), timeout=_SEEN_KEEP_S)
    except Exception:
        logger.warning("cache unavailable: the table of %s seen by %s not kept", game_id, user_id)


def _seen_at(user_id: int, game_id: str) -> float | None:
    """When the user last had the game's table in view (a lost cache: never, so a
    message too many rather than one lost)."""
    try:
        seen = cache.get(_seen_key(user_id, game_id))
    except Exception:
        logger.warning("cache unavailable: the table of %s counts as unseen", game_id)
        return None
    return float(seen) if isinstance(seen, int | float) else None


def turn_seen(user_id: int, game_id: str, turn_started: datetime | None) -> bool:
    """Whether the user has seen the table since their turn began (so they know)."""
    seen = _seen_at(user_id, game_id)
    return seen is not None and turn_started is not None and seen >= turn_started.timestamp()


def table_seen_now(user_id: int, game_id: str) -> bool:
    """Whether the user has the game's table in view now."""
    seen = _seen_at(user_id, game_id)
    return seen is not None and seen >= time.time() - SEEN_FRESH_S


def watching(game_id: str) -> set[int]:
    """The users connected to the game's table (none when Redis is unavailable)."""
    try:
        return presence.connected_users(game_id)
    except Exception:
        logger.warning("presence unavailable: nobody counts as watching %s", game_id)
        return set()
