"""The websocket endpoint: authentication, subscriptions, who receives what."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.engine import Deal as EngineDeal
from games.engine import DrawStock
from games.live import presence
from games.models import Deal, Game
from games.play.act import game_act
from tests.live.ws_kit import connect, drain, websocket
from tests.turn_kit import until_a_draw

pytestmark = pytest.mark.django_db(transaction=True)


def to_move(game: Game) -> int:
    return engine_deal(game).to_move


def engine_deal(game: Game) -> EngineDeal:
    game.refresh_from_db()
    row = Deal.objects.get(game=game, number=game.deal_number)
    return row.restore(game.engine_ruleset())


async def test_an_unauthenticated_connection_is_closed_with_4401() -> None:
    """Accepted, then closed with the documented code: a browser sees the code, where a
    refused handshake would only be a 403 it cannot read."""
    client = websocket(None)
    connected, _ = await client.connect()
    assert connected
    assert await client.receive_output(timeout=2) == {"type": "websocket.close", "code": 4401}


@pytest.mark.parametrize("origin", ["http://localhost", "https://evil.example"])
async def test_a_refused_connection_leaves_nothing_running(origin: str) -> None:
    """A refused client may never say goodbye: the application must not wait for it
    (on the channel layer) or every refused handshake would leak a task and a Redis
    connection until the server stops. Refused here for no login (closed with 4401),
    or a foreign Origin (the handshake refused)."""
    client = websocket(None, origin=origin)
    await client.connect()

    await asyncio.wait_for(client.future, timeout=2)  # the application returned by itself


async def test_it_refuses_a_foreign_origin(token_factory: Callable[..., Any], user: Any) -> None:
    _, raw = await database_sync_to_async(token_factory)(user)
    client = websocket(raw, origin="https://evil.example")
    connected, _ = await client.connect()
    assert not connected


async def test_private_hand_goes_only_to_its_owner_and_spectators_get_public_events(
    started_game: Callable[..., Game],
    user_factory: Callable[..., Any],
    token_factory: Callable[..., Any],
) -> None:
    game = await database_sync_to_async(started_game)(2)
    ply = await database_sync_to_async(until_a_draw)(game)
    seats = await database_sync_to_async(lambda: list(game.seats.select_related("user")))()
    mover_position = await database_sync_to_async(to_move)(game)
    mover = seats[mover_position].user
    other = seats[1 - mover_position].user
    watcher = await database_sync_to_async(user_factory)(username="watcher")
    clients = {}
    for name, person in (("mover", mover), ("other", other), ("watcher", watcher)):
        _, raw = await database_sync_to_async(token_factory)(person)
        clients[name] = await connect(raw)
        await clients[name].send_json_to({"type": "subscribe", "game": game.public_id, "ply": ply})
        subscribed = await clients[name].receive_json_from()
        assert subscribed["type"] == "subscribed"
        assert subscribed["ply"] == ply

    result = await database_sync_to_async(game_act)(
        game=game, user=mover, action=DrawStock(), expected_ply=ply
    )
    drawn = result.move.private["card"]
    got = {name: await drain(client, expect=2) for name, client in clients.items()}

    # Everyone sees the move in its public form, with the new ply, and whose turn it is.
    for messages in got.values():
        moves = [m for m in messages if m["type"] == "move"]
        assert [m["ply"] for m in moves] == [ply + 1]
        assert moves[0]["game"] == game.public_id
        assert "card" not in moves[0]["move"]
        assert any(m["type"] == "turn" and m["seat"] == mover_position for m in messages)
    # The mover's own connection gets their new hand, with the card drawn.
    private = [m for m in got["mover"] if m["type"] == "private"]
    assert len(private) == 1 and private[0]["ply"] == ply + 1
    assert drawn in private[0]["view"]["hand"]
    assert private[0]["view"]["seat"] == mover_position
    # Nobody else ever receives the mover's hand or the card drawn.
    for name in ("other", "watcher"):
        assert str(drawn) not in str(got[name])
        assert all(m["view"]["seat"] != mover_position for m in got[name] if m["type"] == "private")
    assert not [m for m in got["watcher"] if m["type"] == "private"]
    for client in clients.values():
        await client.disconnect()


async def test_a_client_with_a_stale_ply_is_told_to_resync(
    started_game: Callable[..., Game], token_factory: Callable[..., Any]
) -> None:
    game = await database_sync_to_async(started_game)(2)
    ply = await database_sync_to_async(until_a_draw)(game)
    seats = await database_sync_to_async(lambda: list(game.seats.select_related("user")))()
    mover = seats[await database_sync_to_async(to_move)(game)].user
    await database_sync_to_async(game_act)(
        game=game, user=mover, action=DrawStock(), expected_ply=ply
    )
    _, raw = await database_sync_to_async(token_factory)(seats[0].user)
    client = await connect(raw)

    await client.send_json_to({"type": "subscribe", "game": game.public_id, "ply": ply})
    assert (await client.receive_json_from())["type"] == "subscribed"
    assert await client.receive_json_from() == {
        "type": "resync",
        "game": game.public_id,
        "ply": ply + 1,
    }
    # Up to date: no resync.
    await client.send_json_to({"type": "subscribe", "game": game.public_id, "ply": ply + 1})
    assert (await client.receive_json_from())["type"] == "subscribed"
    assert await drain(client, quiet=0.2) == []
    await client.disconnect()


async def test_a_private_game_is_not_found_for_a_stranger(
    started_game: Callable[..., Game],
    user_factory: Callable[..., Any],
    token_factory: Callable[..., Any],
) -> None:
    game = await database_sync_to_async(started_game)(2, visibility="private")
    stranger = await database_sync_to_async(user_factory)(username="stranger")
    _, raw = await database_sync_to_async(token_factory)(stranger)
    client = await connect(raw)

    await client.send_json_to({"type": "subscribe", "game": game.public_id, "ply": None})
    reply = await client.receive_json_from()
    assert reply["type"] == "error" and reply["code"] == "not_found"
    await client.disconnect()


async def test_presence_knows_who_is_connected_to_a_game(
    started_game: Callable[..., Game], token_factory: Callable[..., Any]
) -> None:
    game = await database_sync_to_async(started_game)(2)
    seats = await database_sync_to_async(lambda: list(game.seats.select_related("user")))()
    _, raw = await database_sync_to_async(token_factory)(seats[0].user)
    client = await connect(raw)
    await client.send_json_to({"type": "subscribe", "game": game.public_id, "ply": None})
    await client.receive_json_from()

    present = await database_sync_to_async(presence.connected_users)(game.public_id)
    assert present == {seats[0].user_id}
    await client.disconnect()
    present = await database_sync_to_async(presence.connected_users)(game.public_id)
    assert present == set()
