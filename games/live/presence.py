"""Who is connected, to which games: Redis sorted sets scored by expiry time, so the
connections of an ASGI process that crashed simply expire. Refreshed by each websocket
connection; read by the absent-player rule and before a "your turn" email, and (as
each person lets others see it) on the pages that show who is online.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from functools import cache
from typing import Any

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


def connected_many(user_ids: list[int]) -> set[int]:
    """Which of these users have a live websocket connection, in one trip to Redis;
    none when Redis cannot say."""
    if not user_ids:
        return set()
    now = time.time()
    pipe = _redis().pipeline()
    for user_id in user_ids:
        pipe.zcount(_user_key(user_id), now, "+inf")
    try:
        counts = pipe.execute()
    except redis.RedisError:
        return set()
    return {user_id for user_id, count in zip(user_ids, counts, strict=True) if count}


def shown_online(users: Iterable[Any]) -> dict[int, bool | None]:
    """Whether each user is online, as other people may be told: None for a user who
    keeps it to themselves (their profile's ``show_online`` off), and for everyone
    when Redis cannot say. The server's own decisions (the absent-player rule, the
    emails) read ``connected_users`` and ``is_connected``, which the setting leaves be.
    """
    users = list(users)
    shown = [user for user in users if getattr(user.profile, "show_online", True)]
    answer: dict[int, bool | None] = {user.pk: None for user in users}
    if not shown:
        return answer
    now = time.time()
    pipe = _redis().pipeline()
    for user in shown:
        pipe.zcount(_user_key(user.pk), now, "+inf")
    try:
        counts = pipe.execute()
    except redis.RedisError:
        return answer
    for user, count in zip(shown, counts, strict=True):
        answer[user.pk] = bool(count)
    return answer
