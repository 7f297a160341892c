"""What the table hears when a turn's deadline passes: the timeout, the server's moves,
whose turn it is now, and each player whose hand changed gets it (the sweep hands the
state it committed to the after-commit work instead of reading it again)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games import tasks
from games.models import Game
from games.read.selectors import current_deal
from tests.live.ws_kit import connect, drain
from tests.turn_kit import until_a_draw

pytestmark = pytest.mark.django_db(transaction=True)


def time_runs_out(game: Game) -> int:
    """The mover's deadline passes and the sweep plays their turn; the sweep's count."""
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    return tasks.sweep_deadlines()


def hand_of(game: Game, position: int) -> list[dict[str, Any]]:
    game.refresh_from_db()
    deal = current_deal(game)
    assert deal is not None
    return list(deal.view(position).to_dict()["hand"])


async def test_a_timeout_tells_the_table_and_sends_the_changed_hands(
    started_game: Callable[..., Game], token_factory: Callable[..., Any]
) -> None:
    game = await database_sync_to_async(started_game)(2, days_per_move=1)
    ply = await database_sync_to_async(until_a_draw)(game)
    late = game.to_move
    assert late is not None
    seats = await database_sync_to_async(lambda: list(game.seats.select_related("user")))()
    clients = []
    for seat in seats:
        _, raw = await database_sync_to_async(token_factory)(seat.user)
        client = await connect(raw)
        await client.send_json_to({"type": "subscribe", "game": game.public_id, "ply": ply})
        assert (await client.receive_json_from())["type"] == "subscribed"
        clients.append(client)

    assert await database_sync_to_async(time_runs_out)(game) == 1
    await database_sync_to_async(game.refresh_from_db)()
    heard = [await drain(client, expect=2) for client in clients]

    assert game.ply > ply and game.to_move == 1 - late
    for messages in heard:
        [timed_out] = [m for m in messages if m["type"] == "timed_out"]
        assert (timed_out["seat"], timed_out["strikes"], timed_out["out"]) == (late, 1, False)
        moves = [m["ply"] for m in messages if m["type"] == "move"]
        assert moves == list(range(ply + 1, game.ply + 1))
        [turn] = [m for m in messages if m["type"] == "turn"]
        assert (turn["seat"], turn["ply"]) == (1 - late, game.ply)
    for position, messages in enumerate(heard):
        # The late player's hand changed (the server drew and discarded for them); the
        # other player's turn has come: each gets their own hand as it is now.
        [private] = [m for m in messages if m["type"] == "private"]
        assert private["ply"] == game.ply and private["view"]["seat"] == position
        hand = await database_sync_to_async(hand_of)(game, position)
        assert private["view"]["hand"] == hand
    for client in clients:
        await client.disconnect()
