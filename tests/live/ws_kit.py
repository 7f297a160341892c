"""Clients of the websocket endpoint /ws/v1/ for the tests: a communicator through the
whole ASGI stack, one connected and past its hello, and every message until a quiet
spell."""

from __future__ import annotations

from typing import Any

from channels.testing import WebsocketCommunicator

from remi_site.asgi import application


def websocket(token: str | None = None, origin: str = "http://localhost") -> WebsocketCommunicator:
    """A client of /ws/v1/ through the whole ASGI stack (Origin check, token auth)."""
    headers = [(b"origin", origin.encode()), (b"host", b"localhost")]
    if token is not None:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    return WebsocketCommunicator(application, "/ws/v1/", headers=headers)


async def connect(token: str | None) -> WebsocketCommunicator:
    client = websocket(token)
    connected, _ = await client.connect()
    assert connected
    hello = await client.receive_json_from()
    assert hello["type"] == "hello"
    return client


async def drain(client: WebsocketCommunicator, quiet: float = 0.3) -> list[dict[str, Any]]:
    """Every message until none arrives for ``quiet`` seconds."""
    out = []
    # (A timed-out receive would cancel the application: ask first.)
    while not await client.receive_nothing(timeout=quiet):
        out.append(await client.receive_json_from())
    return out
