"""Every list of the games waiting for my move shows the soonest deadline first: the
"Your turn" tab of "my games", the API's ``status=my_turn`` and the event stream's
first frames. The games are made in an order their deadlines do not follow (23 h 54 min,
2 days 23 h, 1 h 40 min, as a player met them)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.models import Game
from tests.accounts.account_kit import web_client
from tests.live.ws_kit import websocket

LEFT = (timedelta(hours=23, minutes=54), timedelta(days=2, hours=23), timedelta(minutes=100))


def waiting_games(started: Any, user_factory: Any) -> tuple[Any, list[str]]:
    """A player to move in three correspondence games, made in the order of ``LEFT``
    with those deadlines; the player, and the games' ids soonest deadline first."""
    me = user_factory(username="mara")
    made = []
    for left in LEFT:
        game, _users = started(2)
        seat = game.seats.get(position=game.to_move)
        seat.user = me
        seat.save(update_fields=["user"])
        Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() + left)
        made.append((left, game.public_id))
    return me, [game_id for _left, game_id in sorted(made)]


def in_page_order(page: str, game_ids: list[str]) -> list[str]:
    return sorted(game_ids, key=page.index)


@pytest.mark.django_db
def test_the_your_turn_tab_shows_the_soonest_deadline_first(
    started: Any, user_factory: Any
) -> None:
    me, soonest_first = waiting_games(started, user_factory)

    page = web_client(me).get("/games/?status=my_turn").content.decode()

    assert in_page_order(page, soonest_first) == soonest_first


@pytest.mark.django_db
def test_the_api_s_my_turn_shows_the_soonest_deadline_first(
    started: Any, user_factory: Any, client_for: Any
) -> None:
    me, soonest_first = waiting_games(started, user_factory)

    body = client_for(me).get("/api/v1/games", {"status": "my_turn"}).json()

    assert [game["id"] for game in body["results"]] == soonest_first


@pytest.mark.django_db(transaction=True)
async def test_the_event_stream_starts_with_my_turns_soonest_deadline_first(
    started: Any, user_factory: Any, token_factory: Any
) -> None:
    me, soonest_first = await database_sync_to_async(waiting_games)(started, user_factory)
    _token, raw = await database_sync_to_async(token_factory)(me)
    client = websocket(raw)
    assert (await client.connect())[0]
    assert (await client.receive_json_from())["type"] == "hello"

    await client.send_json_to({"type": "subscribe", "stream": "events"})

    assert (await client.receive_json_from())["type"] == "subscribed"
    frames = []
    while not await client.receive_nothing(timeout=0.3):
        frames.append(await client.receive_json_from())
    assert [f["game"] for f in frames if f["type"] == "your_turn"] == soonest_first
    await client.disconnect()
