"""Deleting an account closes its open websockets at once (4404), on every connection
of it, and the table of its running game hears the resignation."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.live.consumers import CLOSE_DELETED, CLOSE_UNAUTHENTICATED
from tests.live.ws_kit import connect, drain, websocket
from tests.user_kit import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)

DELETE_API = "/api/v1/me/delete"


async def closed_with(client: WebsocketCommunicator, deadline_s: float = 5.0) -> int:
    """The close code the server sends, skipping any frame before it."""
    loop = asyncio.get_running_loop()
    until = loop.time() + deadline_s
    while loop.time() < until:
        output = await client.receive_output(timeout=until - loop.time())
        if output["type"] == "websocket.close":
            return int(output["code"])
    raise AssertionError("the connection was not closed")


async def test_deleting_an_account_closes_its_websockets_at_once(
    started: Callable[..., Any], client_for: Callable[[Any], Any]
) -> None:
    game, users = await database_sync_to_async(started)(3)
    leaver = await database_sync_to_async(client_for)(users[0])
    rival = await database_sync_to_async(client_for)(users[1])
    phone, laptop = await connect(leaver.token), await connect(leaver.token)
    table = await connect(rival.token)
    await table.send_json_to({"type": "subscribe", "game": game.public_id, "ply": game.ply})
    assert (await table.receive_json_from())["type"] == "subscribed"

    deleted = await database_sync_to_async(leaver.post)(DELETE_API, {"password": PASSWORD})

    assert deleted.status_code in (200, 204), deleted.content
    assert await closed_with(phone) == CLOSE_DELETED
    assert await closed_with(laptop) == CLOSE_DELETED
    moves = [e["move"] for e in await drain(table, expect=1) if e["type"] == "move"]
    assert any(move["type"] == "resign" for move in moves)
    for client in (phone, laptop, table):
        await client.disconnect()

    # The token went with the account: a new handshake is nobody's.
    again = websocket(leaver.token)
    connected, _ = await again.connect()
    assert connected and await closed_with(again) == CLOSE_UNAUTHENTICATED
    await again.disconnect()
