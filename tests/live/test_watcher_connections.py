"""Visitors without an account (``/ws/v1/?watch=1``) hold at most
``WS_MAX_WATCHERS_PER_ADDRESS`` connections per client address; one more is closed with
4429, as a user's connection past ``WS_MAX_CONNECTIONS_PER_USER`` is."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
import redis
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings

from games.live import consumers, limits
from games.live.consumers import CLOSE_TOO_MANY_CONNECTIONS
from remi_site.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 5  # seconds a test waits for a frame the server must send
PROXY = "10.0.0.1"


@pytest.fixture(autouse=True)
def behind_a_proxy(settings: Any, clear_cache: None) -> None:
    settings.PROXY_COUNT = 1


def visitor(address: str) -> WebsocketCommunicator:
    """A visitor's connection from ``address``, as the one proxy in front reports it."""
    headers = [
        (b"origin", b"http://localhost"),
        (b"host", b"localhost"),
        (b"x-forwarded-for", address.encode()),
    ]
    client = WebsocketCommunicator(application, "/ws/v1/?watch=1", headers=headers)
    client.scope["client"] = (PROXY, 40000)
    return client


async def outcome(client: WebsocketCommunicator) -> str | int:
    """``"hello"`` for a connection that was let in, else its close code."""
    connected, _ = await client.connect(timeout=TIMEOUT)
    assert connected
    message = await client.receive_output(timeout=TIMEOUT)
    if message["type"] == "websocket.close":
        return int(message["code"])
    assert '"hello"' in message["text"]
    return "hello"


async def test_one_address_gets_the_cap_and_one_more_is_closed_with_4429() -> None:
    cap = django_settings.WS_MAX_WATCHERS_PER_ADDRESS
    clients = [visitor("203.0.113.5") for _ in range(cap + 1)]

    outcomes = [await outcome(client) for client in clients]

    assert outcomes == ["hello"] * cap + [CLOSE_TOO_MANY_CONNECTIONS]
    assert CLOSE_TOO_MANY_CONNECTIONS == 4429
    # Another address has a cap of its own.
    elsewhere = visitor("203.0.113.6")
    assert await outcome(elsewhere) == "hello"
    # A closed connection gives its slot back.
    await clients[0].disconnect()
    again = visitor("203.0.113.5")
    assert await outcome(again) == "hello"
    for client in [*clients[1:cap], elsewhere, again]:
        await client.disconnect()


async def test_a_visitor_can_still_watch_within_the_cap(settings: Any) -> None:
    settings.WS_MAX_WATCHERS_PER_ADDRESS = 2
    client = visitor("203.0.113.5")
    assert await outcome(client) == "hello"

    await client.send_json_to({"type": "ping"})

    assert await client.receive_json_from(timeout=TIMEOUT) == {"type": "pong"}
    await client.disconnect()


async def test_a_rotating_forwarded_header_without_a_proxy_is_one_address(settings: Any) -> None:
    settings.PROXY_COUNT = 0
    settings.WS_MAX_WATCHERS_PER_ADDRESS = 3
    clients = [visitor(f"203.0.113.{i}") for i in range(5)]

    outcomes = [await outcome(client) for client in clients]

    assert outcomes == ["hello"] * 3 + [CLOSE_TOO_MANY_CONNECTIONS] * 2
    for client in clients[:3]:
        await client.disconnect()


async def test_visitors_are_let_in_when_redis_cannot_count_them(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cap protects the servers; a Redis outage must not lock every visitor out."""
    settings.WS_MAX_WATCHERS_PER_ADDRESS = 1
    # Made as the site makes its client (from a URL): built from host and port, redis-py
    # retries a refused connection with backoff, 4 to 5 s a call, past the test's wait.
    nowhere = redis.Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=1)
    monkeypatch.setattr(limits, "_redis", lambda url: nowhere)
    clients = [visitor("203.0.113.5") for _ in range(3)]

    outcomes = [await outcome(client) for client in clients]

    assert outcomes == ["hello"] * 3
    for client in clients:
        await client.disconnect()


async def test_a_long_lived_visitor_connection_keeps_its_slot(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The slot of a connection that lives past the slots' expiry is refreshed, so that
    waiting is no way around the cap."""
    settings.WS_MAX_WATCHERS_PER_ADDRESS = 1
    monkeypatch.setattr(limits, "SLOT_TTL_S", 1.0)
    monkeypatch.setattr(consumers, "PRESENCE_REFRESH_S", 0.2)
    first = visitor("203.0.113.5")
    taken_at = time.time()
    assert await outcome(first) == "hello"

    # Past the expiry the first slot had when it was taken.
    deadline = time.monotonic() + TIMEOUT
    while time.time() < taken_at + 1.5:
        assert time.monotonic() < deadline
        await asyncio.sleep(0.1)
    second = visitor("203.0.113.5")

    assert await outcome(second) == CLOSE_TOO_MANY_CONNECTIONS
    await first.disconnect()
