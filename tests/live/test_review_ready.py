"""A deal's review announces itself: the run that stores it sends ``review_ready`` (the
deal's number, nothing of the review) through the outbox to the game's group, at the
game's current ply, and nothing else (no turn, no hand, no task: nothing changed at the
table); a second run sends nothing. Everyone watching the game gets the frame, and the
API stays the only gate: a spectator of a running game still reads no review."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.test import APIClient

from games import tasks
from games.live.publisher import game_group, user_group
from games.models import DealReview, Game
from games.play.act import game_act
from games.review.compute import deal_review_compute
from remi_site.asgi import application
from tests.gamekit import current_engine_deal, quick_actions
from tests.group_events_kit import heard_by
from tests.live.ws_kit import connect, drain, websocket

# Transactional: the frame leaves after the review's commit, as in a worker.
pytestmark = pytest.mark.django_db(transaction=True)

TWO_DEALS = {"match_deals": [2, 2, 2, 2, 2]}


@pytest.fixture
def first_deal_over(
    started: Callable[..., tuple[Game, list[Any]]],
    quick_deals: None,
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[Game, list[Any]]:
    """A correspondence game of two whose first deal is over (the starter went out) and
    whose review task was lost: no review yet, the second deal under way."""
    monkeypatch.setattr(tasks.deal_review, "delay", lambda *args, **kwargs: None)
    game, users = started(players=2, overrides=TWO_DEALS)
    starter = current_engine_deal(game).to_move
    for action in quick_actions():
        game_act(game=game, user=users[starter], action=action, expected_ply=game.ply)
        game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.deal_number == 2
    assert not DealReview.objects.exists()
    return game, users


def test_a_stored_review_sends_review_ready_to_the_game_s_group_and_nothing_else(
    first_deal_over: tuple[Game, list[Any]],
) -> None:
    game, users = first_deal_over
    groups = [game_group(game.public_id), *(user_group(user.pk) for user in users)]

    messages = heard_by(groups, lambda: deal_review_compute(game_id=game.public_id, number=1))

    assert DealReview.objects.filter(deal__game=game, deal__number=1).exists()
    # At the game's current ply (the second deal's), not a new one; no turn, no hand.
    assert messages == [
        (
            game_group(game.public_id),
            {
                "type": "game.event",
                "game": game.public_id,
                "ply": game.ply,
                "event": {"type": "review_ready", "deal": 1},
            },
        )
    ]


def test_a_second_run_finds_the_review_made_and_sends_nothing(
    first_deal_over: tuple[Game, list[Any]],
) -> None:
    game, _users = first_deal_over
    made = deal_review_compute(game_id=game.public_id, number=1)

    messages = heard_by(
        [game_group(game.public_id)],
        lambda: deal_review_compute(game_id=game.public_id, number=1),
    )

    assert made is not None and messages == []


def test_a_deal_still_played_has_no_review_and_sends_nothing(
    first_deal_over: tuple[Game, list[Any]],
) -> None:
    game, _users = first_deal_over

    messages = heard_by(
        [game_group(game.public_id)],
        lambda: deal_review_compute(game_id=game.public_id, number=2),
    )

    assert messages == []


async def test_everyone_watching_gets_the_frame_and_the_api_still_decides_what_they_read(
    first_deal_over: tuple[Game, list[Any]],
    user_factory: Callable[..., Any],
    token_factory: Callable[..., Any],
    client_for: Callable[[Any], APIClient],
) -> None:
    game, users = first_deal_over
    watcher = await database_sync_to_async(user_factory)(username="watcher")
    clients = {}
    for name, person in (("seat 0", users[0]), ("seat 1", users[1]), ("watcher", watcher)):
        _, raw = await database_sync_to_async(token_factory)(person)
        clients[name] = await connect(raw)
    clients["visitor"] = WebsocketCommunicator(
        application,
        "/ws/v1/?watch=1",
        headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")],
    )
    assert (await clients["visitor"].connect())[0]
    assert (await clients["visitor"].receive_json_from())["type"] == "hello"
    for client in clients.values():
        await client.send_json_to({"type": "subscribe", "game": game.public_id, "ply": game.ply})
        assert (await client.receive_json_from())["type"] == "subscribed"
    stranger = await database_sync_to_async(user_factory)(username="stranger")
    outsider = websocket((await database_sync_to_async(token_factory)(stranger))[1])
    assert (await outsider.connect())[0]
    assert (await outsider.receive_json_from())["type"] == "hello"

    await database_sync_to_async(deal_review_compute)(game_id=game.public_id, number=1)

    frame = {"type": "review_ready", "deal": 1, "game": game.public_id, "ply": game.ply}
    for name, client in clients.items():
        assert await drain(client, expect=1) == [frame], name  # the deal's number, nothing more
    assert await drain(outsider) == []  # not subscribed to the game
    path = f"/api/v1/games/{game.public_id}/deals/1/review"
    review = await database_sync_to_async(lambda: client_for(users[0]).get(path))()
    assert review.status_code == 200 and {turn["seat"] for turn in review.json()["turns"]} <= {0}
    refused = await database_sync_to_async(lambda: client_for(watcher).get(path))()
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "review_players_only"
    for client in (*clients.values(), outsider):
        await client.disconnect()
