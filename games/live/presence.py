"""Who is connected, to which games: Redis sorted sets scored by expiry time, so the
connections of an ASGI process that crashed simply expire. Refreshed by each websocket
connection; read by the absent-player rule and before a "your turn" email.
"""

from __future__ import annotations

import time
from functools import cache

import redis
from django.conf import settings

PRESENCE_TTL_S = 60.0  # a connection not refreshed for this long is gone


@cache
def _redis() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL)


def _game_key(game_id: str) -> str:
    return f"remi:presence:game:{game_id}"


def _user_key(user_id: int) -> str:
    return f"remi:presence:user:{user_id}"


def presence_touch(*, user_id: int, channel: str, games: list[str]) -> None:
    """Record (or refresh) that ``channel`` of ``user_id`` is connected and watching
    ``games``."""
    expires = time.time() + PRESENCE_TTL_S
    member = f"{user_id}|{channel}"
    pipe = _redis().pipeline()
    pipe.zadd(_user_key(user_id), {channel: expires})
    pipe.expire(_user_key(user_id), int(PRESENCE_TTL_S) * 2)
    for game_id in games:
        pipe.zadd(_game_key(game_id), {member: expires})
        pipe.expire(_game_key(game_id), int(PRESENCE_TTL_S) * 2)
    pipe.execute()


def presence_drop(*, user_id: int, channel: str, games: list[str]) -> None:
    """Forget ``channel`` (disconnected, or no longer watching ``games``)."""
    pipe = _redis().pipeline()
    if not games:
        pipe.zrem(_user_key(user_id), channel)
    for game_id in games:
        pipe.zrem(_game_key(game_id), f"{user_id}|{channel}")
    pipe.execute()


def connected_users(game_id: str) -> set[int]:
    """Ids of the users with a live connection watching the game."""
    members: list[bytes] = _redis().zrangebyscore(  # type: ignore[assignment]
        _game_key(game_id), time.time(), "+inf"
    )
    return {int(member.split(b"|", 1)[0]) for member in members}


def is_connected(user_id: int) -> bool:
    """Whether the user has any live websocket connection."""
    return bool(_redis().zcount(_user_key(user_id), time.time(), "+inf"))
