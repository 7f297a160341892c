"""An idle websocket stays up: the channel layer's blocking read (channels_redis waits
up to 5 s per read) must not be cut by the Redis client's own read timeout, which
redis-py 8 sets to 5 s by default (django/channels_redis#422)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.models import Game
from games.play import chat
from tests.live.ws_kit import connect

pytestmark = pytest.mark.django_db(transaction=True)

LONGER_THAN_A_BLOCKING_READ_S = 12


async def test_a_connection_idle_for_longer_than_a_blocking_read_still_gets_events(
    started_game: Callable[..., Game], token_factory: Callable[..., Any]
) -> None:
    game = await database_sync_to_async(started_game)(2)
    seats = await database_sync_to_async(lambda: list(game.seats.select_related("user")))()
    _, raw = await database_sync_to_async(token_factory)(seats[0].user)
    client = await connect(raw)
    await client.send_json_to({"type": "subscribe", "game": game.public_id, "ply": game.ply})
    assert (await client.receive_json_from())["type"] == "subscribed"

    await asyncio.sleep(LONGER_THAN_A_BLOCKING_READ_S)
    assert await client.receive_nothing(timeout=0.1)  # no error, no close meanwhile
    await database_sync_to_async(chat.post_message)(
        game=game, user=seats[1].user, text="still there?"
    )

    event = await client.receive_json_from(timeout=5)
    assert event["type"] == "chat" and event["message"]["text"] == "still there?"
    await client.disconnect()
