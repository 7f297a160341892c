"""The replay of a finished game (GET …/replay): every deal as dealt, the table after each
move with every hand face up, rebuilt by the engine from the log. Only once the game is
finished; seen by the game's players, and by anyone for a public game."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Game
from games.play.act import game_act
from games.play.resign import game_resign
from tests.gamekit import (
    SchemaChecker,
    current_engine_deal,
    error_of,
    quick_actions,
    read_all,
    table_create,
)

pytestmark = pytest.mark.django_db
REPLAY = "/api/v1/games/{game_id}/replay"
TWO_DEALS = {"match_deals": [2, 2, 2]}


def replay_url(game_id: str) -> str:
    return REPLAY.format(game_id=game_id)


def finished_by_services(game: Game, users: list[Any]) -> Game:
    """Play quick deals (``quick_deals``) through the services until the game ends."""
    while game.status == Game.Status.ACTIVE:
        starter = current_engine_deal(game).to_move
        for action in quick_actions():
            game_act(game=game, user=users[starter], action=action, expected_ply=game.ply)
            game.refresh_from_db()
    return game


def test_a_finished_game_replays_every_deal_to_its_result(players: Any, deals_seeded: Any) -> None:
    table = table_create(players(2), preset="serbian", overrides=TWO_DEALS)
    table.play_turns()
    visitor = APIClient()

    response = visitor.get(replay_url(table.game_id))

    assert response.status_code == 200, response.json()
    replay = response.json()
    SchemaChecker(visitor).check("GET", REPLAY, 200, replay)
    assert [deal["number"] for deal in replay["deals"]] == [1, 2]
    log = read_all(table.clients[0], table.url("/moves?page_size=100"))
    dealt = {deal["number"]: deal for deal in log["deals"]}
    plies = [move["ply"] for deal in replay["deals"] for move in deal["moves"]]
    assert plies == [move["ply"] for move in log["results"]]
    for deal in replay["deals"]:
        cards = deal["cards"]
        assert len(deal["states"]) == len(deal["moves"]) + 1
        first, last = deal["states"][0], deal["states"][-1]
        as_dealt = [[pair["id"] for pair in hand] for hand in dealt[deal["number"]]["hands"]]
        assert first["hands"] == as_dealt
        result = deal["result"]
        assert result == dealt[deal["number"]]["result"]
        left = [[{"id": i, "card": cards[i]} for i in hand] for hand in last["hands"]]
        assert left == result["hands_left"]
        assert last["to_move"] is None and last["opened"] == result["opened"]


def test_each_state_follows_from_the_one_before_by_its_move(
    players: Any, deals_seeded: Any
) -> None:
    table = table_create(players(2), preset="serbian", overrides={"match_deals": [1, 1, 1]})
    table.play_turns()

    deal = table.clients[1].get(replay_url(table.game_id)).json()["deals"][0]

    states = deal["states"]
    for move, before, after in zip(deal["moves"], states[:-1], states[1:], strict=True):
        assert before["to_move"] == move["seat"]
        event = move["event"]
        if event["type"] == "discard":
            assert after["discard"][-1] == event["card"]["id"]
            assert event["card"]["id"] not in after["hands"][move["seat"]]
        if event["type"] == "draw":
            assert event["card"]["id"] in after["hands"][move["seat"]]
            assert after["stock_count"] == event["stock_count"]


def test_a_game_not_finished_has_no_replay(started: Any, client_for: Any, lobby: Any) -> None:
    game, users = started(2)
    waiting, hosts = lobby(2, seated=1)

    playing = client_for(users[0]).get(replay_url(game.public_id))
    in_lobby = client_for(hosts[0]).get(replay_url(waiting.public_id))

    assert playing.status_code == 409 and in_lobby.status_code == 409
    assert error_of(playing)["code"] == "game_not_finished"
    assert error_of(playing)["details"] == {"status": "active"}
    assert error_of(in_lobby)["details"] == {"status": "lobby"}
    SchemaChecker(APIClient()).check("GET", REPLAY, 409, playing.json())


def test_a_private_game_replays_for_its_players_only(
    started: Any, quick_deals: None, client_for: Any, user_factory: Any
) -> None:
    game, users = started(2, visibility="private")
    game = finished_by_services(game, users)
    url = replay_url(game.public_id)

    player = client_for(users[1]).get(url)
    stranger = client_for(user_factory()).get(url)
    visitor = APIClient().get(url)

    assert player.status_code == 200
    assert (stranger.status_code, visitor.status_code) == (404, 404)
    assert error_of(stranger)["code"] == "not_found"


def test_a_public_game_replays_for_anyone(started: Any, quick_deals: None) -> None:
    game, users = started(2)
    game = finished_by_services(game, users)

    response = APIClient().get(replay_url(game.public_id))

    assert response.status_code == 200
    assert response.json()["winners"] == game.winners
    assert [seat["total"] for seat in response.json()["seats"]] == [
        seat.total for seat in game.seats.order_by("position")
    ]


def test_an_unknown_game_has_no_replay() -> None:
    response = APIClient().get(replay_url("nosuchgame"))

    assert response.status_code == 404
    assert error_of(response)["code"] == "not_found"


def test_a_resignation_is_a_move_of_the_replay_that_changes_no_card(started: Any) -> None:
    game, users = started(2)
    game_resign(game=game, user=users[0])

    deal = APIClient().get(replay_url(game.public_id)).json()["deals"][0]

    assert [move["kind"] for move in deal["moves"]] == ["resign"]
    assert deal["states"][1]["hands"] == deal["states"][0]["hands"]
    assert deal["result"] is None
