"""Spectators of a public live game, a visitor without an account and a signed-in person
who is not seated, get its websocket frames while it is played: none carries a card
that a hand or the stock holds, nor a server-only field, nor anyone's private view."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.models import Deal, Game
from games.play.act import game_act
from remi_site.asgi import application
from tests.gamekit import SERVER_ONLY_KEYS, ShownCards, card_pairs, greedy_action, keys_in
from tests.live.ws_kit import websocket

pytestmark = pytest.mark.django_db(transaction=True)
MOVES = 12


async def subscribed(client: WebsocketCommunicator, game: Game) -> WebsocketCommunicator:
    connected, _ = await client.connect()
    assert connected
    assert (await client.receive_json_from())["type"] == "hello"
    await client.send_json_to({"type": "subscribe", "game": game.public_id, "ply": game.ply})
    answer = await client.receive_json_from()
    assert (answer["type"], answer["seat"]) == ("subscribed", None)
    return client


async def frames(client: WebsocketCommunicator) -> list[dict[str, Any]]:
    out = []
    while not await client.receive_nothing(timeout=0.3):
        out.append(await client.receive_json_from())
    return out


def play_in_the_first_deal(game: Game, moves: int) -> None:
    """``moves`` greedy moves, or fewer if the first deal ends sooner."""
    for _ in range(moves):
        game.refresh_from_db()
        deal = Deal.objects.get(game=game, number=1).restore(game.engine_ruleset())
        if deal.is_over or game.deal_number != 1:
            return
        user = game.seats.get(position=deal.to_move).user
        game_act(game=game, user=user, action=greedy_action(deal), expected_ply=game.ply)


def secret_cards(game: Game) -> tuple[set[int], set[int]]:
    """The first deal's cards in a hand or the stock now, and those shown to everyone."""
    game.refresh_from_db()
    row = Deal.objects.get(game=game, number=1)
    deal = row.restore(game.engine_ruleset())
    hidden = set(deal.to_dict()["stock"])
    for seat in range(game.players):
        hidden |= set(deal.hand_ids(seat))
    return hidden, ShownCards().of(game, row)


async def test_spectators_frames_hold_no_hidden_card(
    started_game: Callable[..., Game],
    user_factory: Callable[..., Any],
    token_factory: Callable[..., Any],
) -> None:
    game = await database_sync_to_async(started_game)(3, time_control="live")
    watcher = await database_sync_to_async(user_factory)(username="watcher")
    _, raw = await database_sync_to_async(token_factory)(watcher)
    visitor_socket = WebsocketCommunicator(
        application,
        "/ws/v1/?watch=1",
        headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")],
    )
    clients = {
        "visitor": await subscribed(visitor_socket, game),
        "watcher": await subscribed(websocket(raw), game),
    }

    await database_sync_to_async(play_in_the_first_deal)(game, MOVES)
    got = {name: await frames(client) for name, client in clients.items()}
    hidden, shown = await database_sync_to_async(secret_cards)(game)

    for name, messages in got.items():
        assert [m for m in messages if m["type"] == "move"], f"{name} saw no move"
        assert not [m for m in messages if m["type"] == "private"], name
        assert not SERVER_ONLY_KEYS & keys_in(messages), name
        seen = {card_id for card_id, _card in card_pairs(messages)}
        assert not (seen & hidden) - shown, f"{name} saw hidden cards"
    for client in clients.values():
        await client.disconnect()
