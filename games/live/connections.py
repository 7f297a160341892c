"""Who is connected now, either way: a websocket (its presence) or an NDJSON stream
(which holds a connection slot, as a websocket does)."""

from __future__ import annotations

from games.live import limits, presence


def connected_now(user_ids: list[int]) -> set[int]:
    """Which of these users hold a live connection of either kind; none when Redis
    cannot say."""
    return presence.connected_many(user_ids) | limits.users_holding_slots(user_ids)
