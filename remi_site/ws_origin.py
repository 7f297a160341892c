"""The websocket Origin check, refusing without waiting.

Channels' ``AllowedHostsOriginValidator`` decides well (the Origin's host must be
one of ``ALLOWED_HOSTS``) but refuses through a consumer that then waits on the
channel layer for the client's disconnect, which a refused client need not send:
each refused handshake held a task and a Redis read open until the server stopped
(and a server with such a task never finishes a graceful shutdown). Here the
refusal closes the handshake and returns.

A handshake without an ``Origin`` header passes: browsers always send one, so its
absence means a program (a bot, a client library) that authenticates with a token,
which no other site's page can make a browser send.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import ParseResult, urlparse

from channels.security.websocket import AllowedHostsOriginValidator


class OriginCheck:
    def __init__(self, application: Any) -> None:
        self.validator = AllowedHostsOriginValidator(application)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if not _has_origin(scope) or self.validator.valid_origin(_origin(scope)):
            return await self.validator.application(scope, receive, send)
        await receive()  # the client's websocket.connect
        await send({"type": "websocket.close"})  # before accept: a 403 to the client
        return None


def _has_origin(scope: dict[str, Any]) -> bool:
    return any(name == b"origin" for name, _value in scope.get("headers", []))


def _origin(scope: dict[str, Any]) -> ParseResult | None:
    for name, value in scope.get("headers", []):
        if name == b"origin":
            try:
                return urlparse(value.decode("latin1"))
            except (UnicodeDecodeError, ValueError):
                return None
    return None
