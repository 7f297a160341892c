"""The websocket endpoint when its channel layer (Redis) is lost: a handshake is
closed with 1013 (try again later), an open connection with 1012 (reconnect), never
an error inside the server; and a program may connect without an Origin header."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from games.live.consumers import CLOSE_SERVICE_RESTART, CLOSE_TRY_AGAIN_LATER
from remi_site.asgi import application
from tests.live.ws_kit import websocket
from tests.sites import RedisServer

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 10


@pytest.fixture
def raw_token(token_factory: Callable[..., Any], user: Any) -> str:
    return token_factory(user)[1]


@pytest.fixture
def own_redis(settings) -> Iterator[RedisServer]:
    """The channel layer on a Redis server of this test's own, which it may stop."""
    server = RedisServer()
    server.start()
    layers = {**settings.CHANNEL_LAYERS["default"]}
    layers["CONFIG"] = {
        **layers["CONFIG"],
        "hosts": [{**layers["CONFIG"]["hosts"][0], "address": server.url}],
    }
    settings.CHANNEL_LAYERS = {"default": layers}
    try:
        yield server
    finally:
        server.close()


async def closed_with(client: WebsocketCommunicator) -> int:
    message = await client.receive_output(timeout=TIMEOUT)
    assert message["type"] == "websocket.close", message
    return int(message["code"])


async def test_a_handshake_while_redis_is_down_is_closed_with_try_again_later(
    own_redis: RedisServer, raw_token: str
) -> None:
    own_redis.stop()
    client = websocket(raw_token)

    connected, _ = await client.connect(timeout=TIMEOUT)

    assert connected  # accepted, so that the client sees the code
    assert await closed_with(client) == CLOSE_TRY_AGAIN_LATER


async def test_an_open_connection_is_closed_for_a_reconnect_when_redis_goes_away(
    own_redis: RedisServer, raw_token: str
) -> None:
    client = websocket(raw_token)
    connected, _ = await client.connect(timeout=TIMEOUT)
    assert connected
    assert (await client.receive_json_from(timeout=TIMEOUT))["type"] == "hello"

    own_redis.stop()

    assert await closed_with(client) == CLOSE_SERVICE_RESTART


async def test_a_program_without_an_origin_header_connects_with_its_token(
    raw_token: str,
) -> None:
    headers = [(b"host", b"localhost"), (b"authorization", f"Bearer {raw_token}".encode())]
    client = WebsocketCommunicator(application, "/ws/v1/", headers=headers)

    connected, _ = await client.connect(timeout=TIMEOUT)

    assert connected
    assert (await client.receive_json_from(timeout=TIMEOUT))["type"] == "hello"
    await client.disconnect()


async def test_a_foreign_origin_is_still_refused(raw_token: str) -> None:
    client = websocket(raw_token, origin="https://evil.example")

    connected, _ = await client.connect(timeout=TIMEOUT)

    assert not connected
