"""Table chat on the websocket: a line reaches the players and spectators of the
game as a ``chat`` event at the game's current ply, and a hidden line is withdrawn."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.models import Game
from games.play import chat
from tests.live.ws_kit import connect, drain

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_chat_line_reaches_everyone_watching_and_a_hidden_one_is_withdrawn(
    started_game: Callable[..., Game],
    user_factory: Callable[..., Any],
    token_factory: Callable[..., Any],
) -> None:
    game = await database_sync_to_async(started_game)(2)
    seats = await database_sync_to_async(lambda: list(game.seats.select_related("user")))()
    watcher = await database_sync_to_async(user_factory)(username="watcher")
    clients = []
    for person in (seats[0].user, seats[1].user, watcher):
        _, raw = await database_sync_to_async(token_factory)(person)
        client = await connect(raw)
        await client.send_json_to({"type": "subscribe", "game": game.public_id, "ply": game.ply})
        assert (await client.receive_json_from())["type"] == "subscribed"
        clients.append(client)

    message = await database_sync_to_async(chat.post_message)(
        game=game, user=seats[1].user, text="nice meld"
    )

    for client in clients:
        events = await drain(client, expect=1)
        assert [e["type"] for e in events] == ["chat"]
        assert events[0]["ply"] == game.ply  # chat does not move the game on
        assert events[0]["message"]["text"] == "nice meld"
        assert events[0]["message"]["user"]["username"] == seats[1].user.username

    await database_sync_to_async(chat.hide_message)(message=message, moderator=watcher)

    for client in clients:
        events = await drain(client, expect=1)
        assert events == [
            {"type": "chat_hidden", "id": message.pk, "game": game.public_id, "ply": game.ply}
        ]
        await client.disconnect()


async def test_a_line_shown_again_comes_back_to_everyone_watching_as_a_chat_event(
    started_game: Callable[..., Game],
    user_factory: Callable[..., Any],
    token_factory: Callable[..., Any],
) -> None:
    game = await database_sync_to_async(started_game)(2)
    seats = await database_sync_to_async(lambda: list(game.seats.select_related("user")))()
    moderator = await database_sync_to_async(user_factory)(username="moderator")
    message = await database_sync_to_async(chat.post_message)(
        game=game, user=seats[1].user, text="you fool"
    )
    await database_sync_to_async(chat.hide_message)(message=message, moderator=moderator)
    clients = []
    for person in (seats[0].user, moderator):
        _, raw = await database_sync_to_async(token_factory)(person)
        client = await connect(raw)
        await client.send_json_to({"type": "subscribe", "game": game.public_id, "ply": game.ply})
        assert (await client.receive_json_from())["type"] == "subscribed"
        clients.append(client)

    assert await database_sync_to_async(chat.show_message)(message=message)

    for client in clients:
        events = await drain(client, expect=1)
        assert [e["type"] for e in events] == ["chat"]
        assert events[0]["message"]["id"] == message.pk
        assert events[0]["message"]["text"] == "you fool"
        await client.disconnect()
