"""The database did not answer: PostgreSQL down or restarting, the connection pool
empty for DB_POOL_TIMEOUT, SQLite's write lock held past its timeout, a deadlock.

Passing, and nothing a client did wrong: the same request may well succeed a moment
later. An HTTP request is answered 503 with Retry-After (``remi_site.views``); a
websocket is closed with 1013, Try Again Later (``WebsocketDatabaseGuard`` below; the
consumer first lets go of what a connection it holds had taken); /healthz says
``database: fail`` (docs/operations.md).
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from django.db import InterfaceError, OperationalError

logger = logging.getLogger(__name__)

DATABASE_DOWN = (OperationalError, InterfaceError)
RETRY_AFTER_S = 10
# RFC 6455's "Try Again Later": what a websocket client is told when the database
# does not answer (the same code as a channel layer that is down at the handshake).
CLOSE_TRY_AGAIN_LATER = 1013


class WebsocketDatabaseGuard:
    """Outermost on the websocket stack: a handshake whose session, account or token
    lookup finds the database down is accepted and closed with 1013, which a client
    reconnects after, instead of a 500 that a browser reports as a failed connection
    (the consumer closes a connection it already holds the same way)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            return await self.inner(scope, receive, send)
        seen = {"connect": False, "accept": False, "close": False}

        async def receiving() -> Any:
            message = await receive()
            seen["connect"] = seen["connect"] or message["type"] == "websocket.connect"
            return message

        async def sending(message: dict[str, Any]) -> None:
            kind = message["type"].removeprefix("websocket.")
            if kind in seen:
                seen[kind] = True
            await send(message)

        try:
            return await self.inner(scope, receiving, sending)
        except DATABASE_DOWN as error:
            logger.warning("websocket closed: the database did not answer (%s)", error)
            if seen["close"]:
                return None
            # A client already gone makes the server refuse these: nothing to tell then.
            with contextlib.suppress(Exception):
                if not seen["accept"]:
                    if not seen["connect"]:
                        await receive()  # the handshake, before it may be answered
                    await send({"type": "websocket.accept"})
                await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN_LATER})
            return None
