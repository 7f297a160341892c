"""A ban closes the account's open websockets at once, refuses its next handshake (by
token or session) and tells the table of its running game over the websocket."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.moderation import services
from games.live.consumers import CLOSE_BANNED, CLOSE_UNAUTHENTICATED
from games.play.moderation import ban_enforce
from remi_site.asgi import application
from tests.live.ws_kit import connect, drain, websocket

pytestmark = pytest.mark.django_db(transaction=True)


async def closed_with(client: WebsocketCommunicator, deadline_s: float = 5.0) -> int:
    """The close code the server sends, skipping any frame before it."""
    loop = asyncio.get_running_loop()
    until = loop.time() + deadline_s
    while loop.time() < until:
        output = await client.receive_output(timeout=until - loop.time())
        if output["type"] == "websocket.close":
            return int(output["code"])
    raise AssertionError("the connection was not closed")


def session_websocket(user: Any) -> WebsocketCommunicator:
    browser = Client()
    browser.force_login(user)
    cookie = f"sessionid={browser.cookies['sessionid'].value}"
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    headers.append((b"cookie", cookie.encode()))
    return WebsocketCommunicator(application, "/ws/v1/", headers=headers)


async def test_a_ban_closes_the_players_sockets_and_tells_their_table(
    rated_game: Callable[..., Any], token_factory: Callable[..., Any], moderator: Any
) -> None:
    game, (cheat, rival) = await database_sync_to_async(rated_game)(2)
    _, cheat_token = await database_sync_to_async(token_factory)(cheat)
    _, rival_token = await database_sync_to_async(token_factory)(rival)
    phone, laptop = await connect(cheat_token), await connect(cheat_token)
    table = await connect(rival_token)
    await table.send_json_to({"type": "subscribe", "game": game.public_id, "ply": game.ply})
    assert (await table.receive_json_from())["type"] == "subscribed"

    def ban() -> None:
        services.ban_create(user=cheat, moderator=moderator, reason="abuse", permanent=True)
        ban_enforce(user=cheat)

    await database_sync_to_async(ban)()

    assert await closed_with(phone) == CLOSE_BANNED
    assert await closed_with(laptop) == CLOSE_BANNED
    events = await drain(table, expect=2)
    moves = [e["move"] for e in events if e["type"] == "move"]
    assert {"type": "resign", "seat": 0, "reason": "banned"} in moves
    over = next(e for e in events if e["type"] == "game_over")
    assert over["reason"] == "banned" and over["winners"] == [1]
    assert over["rating_changes"][1]["change"] > 0
    await table.disconnect()
    for client in (phone, laptop):
        await client.disconnect()

    # A new handshake is nobody's, by token or by session.
    for again in (websocket(cheat_token), await database_sync_to_async(session_websocket)(cheat)):
        connected, _ = await again.connect()
        assert connected
        assert await closed_with(again) == CLOSE_UNAUTHENTICATED
        await again.disconnect()
