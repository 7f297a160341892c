"""The API's throttles: DRF's rates and scopes, counted in O(1) per request, and
identifying an anonymous client by :func:`remi_site.client_ip.client_ip`
(``PROXY_COUNT``), never by a header the client chose.

DRF's own ``get_ident`` trusts ``X-Forwarded-For`` unless ``NUM_PROXIES`` is set, and
counts proxies its own way; these classes are the ones ``DEFAULT_THROTTLE_CLASSES``
names. A view's ``throttle_scope`` (login, signup, chat) goes to
:class:`ScopedRateThrottle`.

DRF counts with a list of the time of every request in the window, read from the cache
and written back whole on each request: a client near the user rate (3,000 a minute)
made every one of its requests unpickle and pickle 3,000 floats (about 30 kB), a
millisecond of CPU that grew with the rate (``bench/move_floor.py`` measured the GET
at 1.6 ms with a short list and 2.7 ms at 3,400 entries). ``limits``' sliding window
counter keeps two counters a client (this window's and the last one's, the last
weighted by how much of it still overlaps the window ending now): one script call to
Redis a request, whatever the rate.
"""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

from django.core.cache import caches
from limits import RateLimitItem, RateLimitItemPerSecond
from limits.storage import RedisStorage
from limits.strategies import SlidingWindowCounterRateLimiter
from rest_framework import throttling

from remi_site import formats
from remi_site.cache import Outage
from remi_site.client_ip import client_ip

# Redis down: requests go on unthrottled (with a warning), not a 500.
outage = Outage("remi_site.throttling", "rate limits are not enforced")

_limiters: dict[int, SlidingWindowCounterRateLimiter] = {}


def _limiter() -> SlidingWindowCounterRateLimiter:
    """The limiter on the default cache's Redis connections (its server and database;
    one per connection pool, so a changed ``CACHES`` takes its own)."""
    cache: Any = caches["default"]
    pool = cache._cache.get_client(write=True).connection_pool
    limiter = _limiters.get(id(pool))
    if limiter is None:
        prefix = f"{cache.key_prefix}:limits" if cache.key_prefix else "limits"
        storage = RedisStorage("redis://", connection_pool=pool, key_prefix=prefix)
        limiter = _limiters[id(pool)] = SlidingWindowCounterRateLimiter(storage)
    return limiter


class SlidingWindowRateThrottle(throttling.SimpleRateThrottle):
    """DRF's ``SimpleRateThrottle`` (rates, scopes, cache keys) counting with a sliding
    window counter instead of a list of times."""

    item: RateLimitItem | None = None
    # Set by DRF's ``__init__`` from the rate (untyped in the stubs).
    num_requests: int
    duration: int

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.item = RateLimitItemPerSecond(self.num_requests, self.duration)
        if outage.is_on():
            return True
        try:
            return _limiter().hit(self.item, self.key)
        except outage.errors as error:
            outage.began(error)
            return True

    def wait(self) -> float | None:
        """Seconds until the next request would be counted in (Retry-After): at least
        one, as a refused client asking again at once would be refused again."""
        if self.item is None or self.key is None or outage.is_on():
            return None
        try:
            stats = _limiter().get_window_stats(self.item, self.key)
        except outage.errors as error:
            outage.began(error)
            return None
        return max(1.0, stats.reset_time - time.time())


class ClientIpIdentMixin:
    def get_ident(self, request: Any) -> str:
        return client_ip(request)


class AnonRateThrottle(ClientIpIdentMixin, throttling.AnonRateThrottle, SlidingWindowRateThrottle):
    pass


class UserRateThrottle(ClientIpIdentMixin, throttling.UserRateThrottle, SlidingWindowRateThrottle):
    pass


class ScopedRateThrottle(
    ClientIpIdentMixin, throttling.ScopedRateThrottle, SlidingWindowRateThrottle
):
    pass


class _Scope:
    def __init__(self, scope: str) -> None:
        self.throttle_scope = scope


def scope_refusal(request: Any, scope: str, message: Any) -> str | None:
    """For a page that does what the API's operations of ``scope`` do: None if it may
    go on now (and is counted), else ``message`` (a text with ``%(time)s``) with the
    time to wait. The page and the API then count against one rate, so a page is no way
    around the API's limit."""
    throttle = ScopedRateThrottle()
    if throttle.allow_request(request, _Scope(scope)):
        return None
    wait = timedelta(seconds=round(throttle.wait() or 60.0))
    return str(message) % {"time": formats.duration(wait, seconds=True)}
