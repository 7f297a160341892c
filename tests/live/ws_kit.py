"""Clients of the websocket endpoint /ws/v1/ for the tests: a communicator through the
whole ASGI stack, one connected and past its hello, and every message until a quiet
spell."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
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


async def drain(
    client: WebsocketCommunicator, quiet: float = 0.3, expect: int = 0, deadline: float = 10.0
) -> list[dict[str, Any]]:
    """Every message until none arrives for ``quiet`` seconds, after the first
    ``expect`` (waited for up to ``deadline`` seconds: a loaded machine may send what a
    test knows is coming later than any quiet spell; without ``expect``, the quiet spell
    is how a test sees that nothing more came)."""
    return await receive_until(client, lambda out: len(out) >= expect, deadline, quiet)


async def receive_until(
    client: WebsocketCommunicator,
    done: Callable[[list[dict[str, Any]]], bool],
    deadline: float = 10.0,
    quiet: float = 0.3,
) -> list[dict[str, Any]]:
    """Every message until ``done(messages)`` holds (an AssertionError after ``deadline``
    seconds), and any that follow until a quiet spell: for frames the test knows are
    coming, which a loaded machine may send later than ``drain``'s quiet spell."""
    out: list[dict[str, Any]] = []
    loop = asyncio.get_running_loop()
    end = loop.time() + deadline
    while not done(out):
        assert loop.time() < end, f"not done after {deadline} s: {out}"
        # Polled, not awaited with a timeout: a timed-out receive cancels the application.
        if not await client.receive_nothing(timeout=0.05):
            out.append(await client.receive_json_from())
    while not await client.receive_nothing(timeout=quiet):
        out.append(await client.receive_json_from())
    return out
