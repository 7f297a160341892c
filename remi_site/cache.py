"""Django's Redis cache, with its Redis connections shared by the whole process.

Django keeps one cache backend per thread, and under ASGI every request runs in a
thread of its own: each request built a new backend, a new connection pool and a
new TCP connection to Redis (plus redis-py's per-connection handshake), and a new
``redis.Redis`` object for every cache call (its constructor fills a table of ~170
response callbacks). DRF's throttles make two cache calls per API request, so that
was over a millisecond of CPU on every request. Connection pools and ``redis.Redis``
objects are thread-safe; one of each per server is enough for the process.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import redis
from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient

_shared: dict[tuple[Any, ...], Any] = {}
_shared_lock = threading.Lock()


class RedisCacheClient(DjangoRedisCacheClient):
    # Set by Django's __init__ (untyped in the stubs).
    _servers: list[str]
    _pool_options: dict[str, Any]
    _pool_class: Any
    _client: Any

    def _get_connection_pool(self, write: bool) -> Any:
        index: int = self._get_connection_pool_index(write)  # type: ignore[attr-defined]
        key = ("pool", self._servers[index], repr(sorted(self._pool_options.items())))
        pool = _shared.get(key)
        if pool is None:
            with _shared_lock:
                pool = _shared.get(key)
                if pool is None:
                    pool = _shared[key] = self._pool_class.from_url(
                        self._servers[index], **self._pool_options
                    )
        return pool

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = _shared.get(("client", id(pool)))
        if client is None:
            client = _shared[("client", id(pool))] = self._client(connection_pool=pool)
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient


class Outage:
    """Redis unreachable, for what can do without it: after a failure Redis is not
    asked again for ``RETRY_AFTER_S`` (a blackholed Redis would otherwise cost a
    connect timeout on every request), and the outage is logged once per
    ``RETRY_AFTER_S`` with what it costs (``lost``)."""

    RETRY_AFTER_S = 5.0
    errors = (redis.RedisError, OSError)

    def __init__(self, name: str, lost: str) -> None:
        self.logger = logging.getLogger(name)
        self.lost = lost
        self.until = 0.0

    def is_on(self) -> bool:
        return time.monotonic() < self.until

    def began(self, error: Exception) -> None:
        self.until = time.monotonic() + self.RETRY_AFTER_S
        self.logger.warning(
            "Redis unreachable (%s): %s for %.0f s", error, self.lost, self.RETRY_AFTER_S
        )


class FailOpenCache(BaseCache):
    """The default cache for what can do without it (results kept to save work):
    while Redis cannot be reached, reads miss and writes are dropped, so requests go
    on (doing the work again) instead of failing with a 500 (``Outage``)."""

    def __init__(self, lost: str, alias: str = "default") -> None:
        super().__init__({})
        self.alias = alias
        self.outage = Outage(__name__, lost)

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        if self.outage.is_on():
            return default
        try:
            return caches[self.alias].get(key, default, version)
        except Outage.errors as error:
            self.outage.began(error)
            return default

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> None:
        if self.outage.is_on():
            return
        try:
            caches[self.alias].set(key, value, timeout, version)
        except Outage.errors as error:
            self.outage.began(error)


# Drawings kept to save reading them again (accounts.rating_chart).
kept_cache = FailOpenCache(lost="kept results are read again")
