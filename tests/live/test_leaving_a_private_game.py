"""A player who leaves a private game's lobby (or is removed from it, as a ban removes
them) stops receiving its websocket events at once: the joins, the start, the chat and
the moves go to those who may still see it, and subscribing again is refused."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.models import Game
from games.play.create import game_create
from games.play.lobby import game_join
from tests.live.ws_kit import websocket

pytestmark = pytest.mark.django_db(transaction=True)

FRAME_TIMEOUT_S = 5  # the deadline for a frame that must come


async def connect(token: str) -> WebsocketCommunicator:
    client = websocket(token)
    connected, _ = await client.connect()
    assert connected
    assert (await client.receive_json_from(timeout=FRAME_TIMEOUT_S))["type"] == "hello"
    return client


async def frames_until(client: WebsocketCommunicator, kind: str) -> list[dict[str, Any]]:
    """The frames up to and including the first of type ``kind``, each within the deadline."""
    frames = []
    while not frames or frames[-1]["type"] != kind:
        frames.append(await client.receive_json_from(timeout=FRAME_TIMEOUT_S))
    return frames


async def subscribe(client: WebsocketCommunicator, game: Game) -> dict[str, Any]:
    await client.send_json_to({"type": "subscribe", "game": game.public_id, "ply": None})
    reply: dict[str, Any] = await client.receive_json_from(timeout=FRAME_TIMEOUT_S)
    return reply


async def test_a_player_who_leaves_a_private_lobby_gets_none_of_its_events_any_more(
    user_factory: Callable[..., Any],
    client_for: Callable[[Any], Any],
    deals_seeded: Callable[[int], None],
) -> None:
    host, leaver, newcomer = [
        await database_sync_to_async(user_factory)(username=name)
        for name in ("host", "leaver", "newcomer")
    ]
    game = await database_sync_to_async(game_create)(
        owner=host, preset="serbian", players=2, visibility="private"
    )
    await database_sync_to_async(game_join)(game=game, user=leaver, invite_code=game.invite_code)
    apis = {
        user.username: await database_sync_to_async(client_for)(user)
        for user in (host, leaver, newcomer)
    }
    watching = {name: await connect(apis[name].token) for name in ("host", "leaver")}
    for client in watching.values():
        assert (await subscribe(client, game))["type"] == "subscribed"

    left = await database_sync_to_async(apis["leaver"].post)(
        f"/api/v1/games/{game.public_id}/leave"
    )
    assert left.status_code == 204

    told = await frames_until(watching["leaver"], "unsubscribed")
    assert told[-1] == {"type": "unsubscribed", "game": game.public_id}
    # The table goes on without them: a join, the start, a line of chat.
    joined = await database_sync_to_async(apis["newcomer"].post)(
        f"/api/v1/games/{game.public_id}/join", {"invite_code": game.invite_code}, format="json"
    )
    assert joined.status_code == 200, joined.json()
    started = await database_sync_to_async(apis["host"].post)(
        f"/api/v1/games/{game.public_id}/start"
    )
    assert started.status_code == 200, started.json()
    said = await database_sync_to_async(apis["host"].post)(
        f"/api/v1/games/{game.public_id}/chat", {"text": "good luck"}, format="json"
    )
    assert said.status_code == 201, said.json()
    seen_by_host = await frames_until(watching["host"], "chat")
    assert {"player_joined", "game_started", "chat"} <= {f["type"] for f in seen_by_host}

    # Sent with the host's frames, through the same channel layer: none came.
    assert await watching["leaver"].receive_nothing(timeout=0.3)
    refused = await subscribe(watching["leaver"], game)
    assert (refused["type"], refused["code"]) == ("error", "not_found")
    for client in watching.values():
        await client.disconnect()


async def test_a_player_who_leaves_a_public_lobby_may_still_watch_it(
    user_factory: Callable[..., Any], client_for: Callable[[Any], Any]
) -> None:
    host, leaver = [
        await database_sync_to_async(user_factory)(username=name) for name in ("host", "leaver")
    ]
    game = await database_sync_to_async(game_create)(owner=host, preset="serbian", players=3)
    await database_sync_to_async(game_join)(game=game, user=leaver)
    api = await database_sync_to_async(client_for)(leaver)
    client = await connect(api.token)
    assert (await subscribe(client, game))["type"] == "subscribed"

    left = await database_sync_to_async(api.post)(f"/api/v1/games/{game.public_id}/leave")

    assert left.status_code == 204
    frames = await frames_until(client, "player_left")
    assert [f["type"] for f in frames] == ["player_left"]
    assert await client.receive_nothing(timeout=0.3)  # still following it, as anyone may
    await client.disconnect()
