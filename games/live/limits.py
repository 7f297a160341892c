"""Limits of the websocket endpoint: connections per user (and per client address for
visitors without an account), frames per connection.

- **Connections per user** (``WS_MAX_CONNECTIONS_PER_USER``): each open connection
  holds a slot in Redis, a sorted set per user of channel names scored by an expiry
  time. The consumer refreshes its slot while it lives and frees it on disconnect; a
  server that dies frees nothing, so slots past their expiry do not count. With Redis
  unreachable the connection is allowed (and a warning logged): the limit protects
  the servers, it must not lock everyone out.
- **Visitors per client address** (``WS_MAX_WATCHERS_PER_ADDRESS``): a connection
  without an account (``?watch=1``) holds a slot the same way, in the set of its
  client address (``remi_site.client_ip``, ``PROXY_COUNT``).
- **Frames per connection** (``WS_FRAMES_PER_SECOND``, ``WS_FRAME_BURST``): a token
  bucket in the connection's memory, checked before a frame is even parsed, so that
  a flood costs neither the database nor Redis.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from functools import cache
from typing import Any

import redis
from asgiref.sync import sync_to_async
from django.conf import settings

from remi_site.client_ip import client_ip_from_scope

logger = logging.getLogger(__name__)

SLOT_TTL_S = 60.0  # a slot not refreshed for this long is free again


# ------------------------------------------------------------------ connections per user


@cache
def _redis(url: str) -> redis.Redis:
    # Fail fast: a connection waits on this before it is accepted.
    return redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)


def _slots_key(user_id: int) -> str:
    return f"remi:ws:connections:{user_id}"


def _slot_take(key: str, channel: str, limit: int) -> bool:
    now = time.time()
    try:
        pipe = _redis(settings.REDIS_URL).pipeline(transaction=True)
        pipe.zremrangebyscore(key, "-inf", now)
        pipe.zadd(key, {channel: now + SLOT_TTL_S})
        pipe.zcard(key)
        pipe.expire(key, int(SLOT_TTL_S) * 2)
        held = pipe.execute()[2]
        if held <= limit:
            return True
        # One transaction counts every racing connection in turn: the last ones over
        # the limit give their slot back.
        _redis(settings.REDIS_URL).zrem(key, channel)
    except redis.RedisError as exc:
        logger.warning("websocket connection allowed uncounted (Redis: %s)", exc)
        return True
    return False


def _slot_refresh(key: str, channel: str) -> None:
    try:
        pipe = _redis(settings.REDIS_URL).pipeline(transaction=True)
        pipe.zadd(key, {channel: time.time() + SLOT_TTL_S})
        pipe.expire(key, int(SLOT_TTL_S) * 2)
        pipe.execute()
    except redis.RedisError as exc:
        logger.warning("websocket connection slot not refreshed (Redis: %s)", exc)


def _slot_release(key: str, channel: str) -> None:
    try:
        _redis(settings.REDIS_URL).zrem(key, channel)
    except redis.RedisError as exc:  # it expires by itself
        logger.warning("websocket connection slot not released (Redis: %s)", exc)


def users_holding_slots(user_ids: list[int]) -> set[int]:
    """Which of these users hold a live connection now (a websocket or an NDJSON
    stream), in one trip to Redis; none when Redis cannot say."""
    if not user_ids:
        return set()
    now = time.time()
    try:
        pipe = _redis(settings.REDIS_URL).pipeline(transaction=False)
        for user_id in user_ids:
            pipe.zcount(_slots_key(user_id), now, "+inf")
        counts = pipe.execute()
    except redis.RedisError as exc:
        logger.warning("connections not counted (Redis: %s)", exc)
        return set()
    return {user_id for user_id, count in zip(user_ids, counts, strict=True) if count}


def max_connections_per_user() -> int:
    return int(settings.WS_MAX_CONNECTIONS_PER_USER)


async def connection_slot_take(user_id: int, channel: str) -> bool:
    """Count a new connection of the user; False when the user already holds
    ``WS_MAX_CONNECTIONS_PER_USER`` (0: no limit)."""
    return await _take(_slots_key(user_id), channel, max_connections_per_user())


async def connection_slot_refresh(user_id: int, channel: str) -> None:
    if max_connections_per_user() > 0:
        await sync_to_async(_slot_refresh, thread_sensitive=False)(_slots_key(user_id), channel)


async def connection_slot_release(user_id: int, channel: str) -> None:
    if max_connections_per_user() > 0:
        await sync_to_async(_slot_release, thread_sensitive=False)(_slots_key(user_id), channel)


# ------------------------------------------------------------------ visitors per address


def max_watchers_per_address() -> int:
    return int(settings.WS_MAX_WATCHERS_PER_ADDRESS)


def _watcher_slots_key(scope: Mapping[str, Any]) -> str:
    return _watcher_key(client_ip_from_scope(scope))


def _watcher_key(address: str) -> str:
    return f"remi:ws:watchers:{address}"


async def watcher_slot_take(scope: Mapping[str, Any], channel: str) -> bool:
    """Count a new connection of a visitor without an account from the client address
    of ``scope``; False when that address already holds ``WS_MAX_WATCHERS_PER_ADDRESS``
    (0: no limit)."""
    address = client_ip_from_scope(scope)
    limit = max_watchers_per_address()
    if await _take(_watcher_key(address), channel, limit):
        return True
    logger.warning("websocket refused: %s visitors already connected from %s", limit, address)
    return False


async def watcher_slot_refresh(scope: Mapping[str, Any], channel: str) -> None:
    if max_watchers_per_address() > 0:
        key = _watcher_slots_key(scope)
        await sync_to_async(_slot_refresh, thread_sensitive=False)(key, channel)


async def watcher_slot_release(scope: Mapping[str, Any], channel: str) -> None:
    if max_watchers_per_address() > 0:
        key = _watcher_slots_key(scope)
        await sync_to_async(_slot_release, thread_sensitive=False)(key, channel)


async def _take(key: str, channel: str, limit: int) -> bool:
    if limit <= 0:
        return True
    return await sync_to_async(_slot_take, thread_sensitive=False)(key, channel, limit)


# ------------------------------------------------------------------ frames per connection


class FrameBucket:
    """A token bucket: ``burst`` frames at once, then ``rate`` frames per second.
    A rate of 0 or less means no limit."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = max(1.0, burst)
        self.tokens = self.burst
        self.stamp = time.monotonic()

    @classmethod
    def from_settings(cls) -> FrameBucket:
        return cls(float(settings.WS_FRAMES_PER_SECOND), float(settings.WS_FRAME_BURST))

    def take(self) -> bool:
        """Spend a token for one frame; False when none is left."""
        if self.rate <= 0:
            return True
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def retry_after_s(self) -> float:
        """Seconds until the next frame would be accepted."""
        if self.rate <= 0:
            return 0.0
        return max(0.0, (1 - self.tokens) / self.rate)
