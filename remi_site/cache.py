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

import threading
from typing import Any

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
