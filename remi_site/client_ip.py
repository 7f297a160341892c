"""The client's address: one rule, driven by ``PROXY_COUNT``, for every consumer.

DRF's throttles (``remi_site.throttling``), django-axes (``AXES_CLIENT_IP_CALLABLE``),
the websocket connection and the server's access log (through
:class:`ClientAddressMiddleware`) all ask here, so that nobody trusts a header the
client wrote.

- ``PROXY_COUNT=0`` (the default): the socket address. ``X-Forwarded-For`` is
  ignored: without a proxy in front, the client writes it.
- ``PROXY_COUNT=N``: each of the N proxies appends the address it received the
  request from, so the N-th entry from the right of ``X-Forwarded-For`` was written
  by the outermost trusted proxy: the client's address. Entries further left are
  the client's own and never read.
- Fewer than N entries, or an N-th entry that is not an IP address: the request did
  not come through every proxy (or one is misconfigured), so no entry can be
  trusted: the socket address. A client can then only be counted as whoever it
  connected from, never as an address of its choice.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from django.conf import settings


class _HasMeta(Protocol):
    @property
    def META(self) -> Mapping[str, Any]: ...  # noqa: N802  (Django's name)


def forwarded_client(remote: str, forwarded_for: str | None, proxies: int) -> str:
    """The client's address given the socket address ``remote``, the
    ``X-Forwarded-For`` header (``None``: absent) and the number of trusted proxies."""
    if proxies <= 0 or not forwarded_for:
        return remote
    # Empty items can only come from the client's part: proxies always write one.
    hops = [hop for hop in (part.strip() for part in forwarded_for.split(",")) if hop]
    if len(hops) < proxies:
        return remote
    return _ip_address(hops[-proxies]) or remote


def client_ip(request: _HasMeta) -> str:
    """The client's address of a Django (or DRF) request."""
    meta = request.META
    return forwarded_client(
        str(meta.get("REMOTE_ADDR") or ""),
        meta.get("HTTP_X_FORWARDED_FOR"),
        settings.PROXY_COUNT,
    )


def client_ip_from_scope(scope: Mapping[str, Any]) -> str:
    """The client's address of an ASGI connection (HTTP or websocket)."""
    return forwarded_client(
        _socket_host(scope), _forwarded_for(scope.get("headers") or ()), settings.PROXY_COUNT
    )


class ClientAddressMiddleware:
    """Puts the client's address in ``scope["client"]``, so that everything that reads
    the socket address (Django's ``REMOTE_ADDR``, the websocket consumers, the ASGI
    server's access log) sees the address this module decided.

    The scope is changed in place on purpose: the server logs from the same dict.
    Deciding again from the rewritten scope gives the same answer (the forwarded
    entry, or the socket address it already holds), so consumers may still call
    :func:`client_ip` on the request."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if settings.PROXY_COUNT > 0 and scope.get("type") in ("http", "websocket"):
            port = (scope.get("client") or ("", 0))[1]
            scope["client"] = (client_ip_from_scope(scope), port)
        return await self.application(scope, receive, send)


def _socket_host(scope: Mapping[str, Any]) -> str:
    client = scope.get("client")
    if not client:
        return ""
    return str(client[0])


def _forwarded_for(headers: Iterable[tuple[bytes, bytes]]) -> str | None:
    # Repeated headers are one list, in order (as Django joins them in META).
    values = [value.decode("latin1") for name, value in headers if name == b"x-forwarded-for"]
    return ",".join(values) if values else None


def _ip_address(hop: str) -> str | None:
    """The IP address of one X-Forwarded-For entry, normalised; some proxies add a
    port (``203.0.113.7:41234``, ``[2001:db8::1]:443``). ``None`` if it is not one."""
    candidate = hop
    if candidate.startswith("["):
        candidate = candidate[1:].partition("]")[0]
    elif candidate.count(":") == 1:
        candidate = candidate.partition(":")[0]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return None
