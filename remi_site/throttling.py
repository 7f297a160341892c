"""DRF's throttles, identifying an anonymous client by :func:`remi_site.client_ip.client_ip`
(``PROXY_COUNT``), never by a header the client chose.

DRF's own ``get_ident`` trusts ``X-Forwarded-For`` unless ``NUM_PROXIES`` is set, and
counts proxies its own way; these classes are the ones ``DEFAULT_THROTTLE_CLASSES``
names. A view's ``throttle_scope`` (login, signup, chat) goes to
:class:`ScopedRateThrottle`.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.base import BaseCache
from rest_framework import throttling

from remi_site.cache import throttle_cache
from remi_site.client_ip import client_ip


class ClientIpIdentMixin:
    # Redis down: requests go on unthrottled (with a warning), not a 500.
    cache: BaseCache = throttle_cache

    def get_ident(self, request: Any) -> str:
        return client_ip(request)


class AnonRateThrottle(ClientIpIdentMixin, throttling.AnonRateThrottle):
    pass


class UserRateThrottle(ClientIpIdentMixin, throttling.UserRateThrottle):
    pass


class ScopedRateThrottle(ClientIpIdentMixin, throttling.ScopedRateThrottle):
    pass
