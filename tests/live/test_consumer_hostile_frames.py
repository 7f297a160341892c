"""The websocket endpoint against hostile clients: malformed frames get an error frame
and the connection lives on; bad credentials, too many connections and floods are
closed with their documented codes (docs/websocket.md)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
import redis
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.live import limits, presence
from games.live.consumers import CLOSE_FLOODING, CLOSE_TOO_MANY_CONNECTIONS, CLOSE_UNAUTHENTICATED
from tests.live.ws_kit import websocket

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 5  # seconds a test waits for a frame the server must send


@pytest.fixture
def raw_token(token_factory: Callable[..., Any], user: Any) -> str:
    return token_factory(user)[1]


async def connect(token: str) -> WebsocketCommunicator:
    client = websocket(token)
    connected, _ = await client.connect(timeout=TIMEOUT)
    assert connected
    assert (await client.receive_json_from(timeout=TIMEOUT))["type"] == "hello"
    return client


async def send_raw(client: WebsocketCommunicator, text: str | None, data: bytes = b"") -> None:
    """One frame as the server receives it (the communicator refuses empty ones)."""
    if text is None:
        await client.send_input({"type": "websocket.receive", "bytes": data})
    else:
        await client.send_input({"type": "websocket.receive", "text": text})


async def assert_still_answers(client: WebsocketCommunicator) -> None:
    await client.send_json_to({"type": "ping"})
    assert await client.receive_json_from(timeout=TIMEOUT) == {"type": "pong"}


async def closed_with(client: WebsocketCommunicator) -> int:
    """The close code of the next message, which must be a close."""
    message = await client.receive_output(timeout=TIMEOUT)
    assert message["type"] == "websocket.close", message
    return int(message["code"])


def subscribe(game: Any, ply: Any = None) -> str:
    return json.dumps({"type": "subscribe", "game": game, "ply": ply})


BAD_FRAMES = {
    "not json": ("hello there", "bad_message"),
    "empty text": ("", "bad_message"),
    "truncated json": ('{"type": "ping"', "bad_message"),
    "json array": ("[1, 2, 3]", "bad_message"),
    "json number": ("42", "bad_message"),
    "json null": ("null", "bad_message"),
    "no type": ('{"game": "abc"}', "bad_message"),
    "type not a string": ('{"type": ["ping"]}', "bad_message"),
    "unknown type": ('{"type": "dance"}', "unknown_type"),
    "subscribe without a game": ('{"type": "subscribe"}', "bad_message"),
    "subscribe to an object": (subscribe({"id": 1}), "bad_message"),
    "subscribe with a text ply": (subscribe("abc", "7"), "bad_message"),
    "subscribe with a boolean ply": (subscribe("abc", True), "bad_message"),
    "subscribe to an invalid group name": (subscribe("no such game!"), "not_found"),
    "subscribe to a group name too long": (subscribe("a" * 200), "not_found"),
    "subscribe to another user's group": (subscribe("../user-1"), "not_found"),
    "subscribe to a unicode name": (subscribe("igra-č"), "not_found"),
    "unsubscribe from a number": ('{"type": "unsubscribe", "game": 12}', "bad_message"),
    "a huge frame": (json.dumps({"type": "ping", "pad": "x" * 100_000}), "too_large"),
    "deep nesting": ("[" * 2000 + "]" * 2000, "bad_message"),
    "a huge number": ('{"type": "subscribe", "game": "abc", "ply": 1e999}', "bad_message"),
}


@pytest.mark.parametrize(("frame", "code"), BAD_FRAMES.values(), ids=BAD_FRAMES.keys())
async def test_a_bad_frame_gets_an_error_and_the_connection_stays(
    raw_token: str, frame: str, code: str
) -> None:
    client = await connect(raw_token)

    await send_raw(client, frame)

    reply = await client.receive_json_from(timeout=TIMEOUT)
    assert reply["type"] == "error"
    assert reply["code"] == code
    assert reply["message"]
    await assert_still_answers(client)
    await client.disconnect()


async def test_a_binary_frame_gets_an_error_and_the_connection_stays(raw_token: str) -> None:
    client = await connect(raw_token)

    await send_raw(client, None, b"\x00\xff{}")

    reply = await client.receive_json_from(timeout=TIMEOUT)
    assert (reply["type"], reply["code"]) == ("error", "bad_message")
    await assert_still_answers(client)
    await client.disconnect()


@pytest.mark.parametrize("authorization", [None, "remi_not-a-real-token"])
async def test_failed_authentication_closes_with_4401(authorization: str | None) -> None:
    client = websocket(authorization)

    connected, _ = await client.connect(timeout=TIMEOUT)

    assert connected  # accepted, so that the client can read the code
    assert await closed_with(client) == CLOSE_UNAUTHENTICATED == 4401


async def test_connections_per_user_are_capped(
    raw_token: str, settings: Any, token_factory: Callable[..., Any], user_factory: Any
) -> None:
    settings.WS_MAX_CONNECTIONS_PER_USER = 2
    first = await connect(raw_token)
    second = await connect(raw_token)

    third = websocket(raw_token)
    connected, _ = await third.connect(timeout=TIMEOUT)
    assert connected
    assert await closed_with(third) == CLOSE_TOO_MANY_CONNECTIONS == 4429

    # Another user has slots of their own.
    other = await database_sync_to_async(user_factory)(username="other")
    _, other_token = await database_sync_to_async(token_factory)(other)
    elsewhere = await connect(other_token)
    # A closed connection gives its slot back.
    await first.disconnect()
    again = await connect(raw_token)
    await assert_still_answers(again)
    for client in (second, elsewhere, again):
        await client.disconnect()


async def test_connections_are_allowed_when_redis_cannot_count_them(
    raw_token: str, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cap protects the servers; a Redis outage must not lock every user out."""
    settings.WS_MAX_CONNECTIONS_PER_USER = 1
    # Made as the site makes its client (from a URL): built from host and port, redis-py
    # retries a refused connection with backoff, 4 to 5 s a call, past the test's wait.
    nowhere = redis.Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=1)
    monkeypatch.setattr(limits, "_redis", lambda url: nowhere)

    clients = [await connect(raw_token) for _ in range(2)]

    for client in clients:
        await assert_still_answers(client)
        await client.disconnect()


async def test_a_flood_is_refused_then_closed(raw_token: str, settings: Any) -> None:
    # A burst of 3 and next to no refill: the test's timing cannot matter.
    settings.WS_FRAMES_PER_SECOND = 0.001
    settings.WS_FRAME_BURST = 3
    client = await connect(raw_token)
    for _ in range(3):
        await assert_still_answers(client)

    await client.send_json_to({"type": "ping"})
    refused = await client.receive_json_from(timeout=TIMEOUT)
    assert (refused["type"], refused["code"]) == ("error", "rate_limited")
    assert refused["retry_after"] > 0

    # Still flooding: dropped without an answer, then closed.
    for _ in range(2):
        await client.send_json_to({"type": "ping"})
    assert await closed_with(client) == CLOSE_FLOODING == 1008
    await client.disconnect()


async def test_a_ping_flood_does_not_reach_redis(
    raw_token: str, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Within the rate, pings are answered from memory: presence (Redis) is refreshed
    by the connection's own timer, not once per ping."""
    settings.WS_FRAMES_PER_SECOND = 0.001
    settings.WS_FRAME_BURST = 50
    touches: list[int] = []
    real_touch = presence.presence_touch

    def counting_touch(**kwargs: Any) -> None:
        touches.append(kwargs["user_id"])
        real_touch(**kwargs)

    monkeypatch.setattr(presence, "presence_touch", counting_touch)
    client = await connect(raw_token)
    touches.clear()  # the connection's own

    for _ in range(50):
        await client.send_json_to({"type": "ping"})
    for _ in range(50):
        assert await client.receive_json_from(timeout=TIMEOUT) == {"type": "pong"}
    for _ in range(200):
        await client.send_json_to({"type": "ping"})

    assert (await client.receive_json_from(timeout=TIMEOUT))["code"] == "rate_limited"
    assert await closed_with(client) == CLOSE_FLOODING
    assert len(touches) <= 1
    await client.disconnect()
