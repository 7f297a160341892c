"""POST /games/{id}/turn: a whole turn in one request, all or none, each action logged
as its own move; the ply guard, idempotency and every refusal naming its action."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import parse_cards
from games.models import Move
from games.play import shuffle
from games.play.lobby import game_start
from tests.gamekit import (
    SchemaChecker,
    assert_view_hides_secrets,
    current_engine_deal,
    deck_with_starter_hand,
    error_of,
    scripted_deal_source,
)

pytestmark = pytest.mark.django_db

TURN = "/api/v1/games/{game_id}/turn"
# serbian: the starter holds 15 cards and plays without drawing; 7H 8H 9H and QS QD QC
# are 54 points, enough to open.
HAND = "7H 8H 9H QS QD QC 2C 3C 4C JK 5D KS 10H AS JK"


@pytest.fixture
def table(lobby, client_for, monkeypatch):
    """A started serbian game whose starter holds ``HAND``: (game, starter's client,
    the other player's client)."""

    def decks(ruleset: Any, players: int, dealer: int) -> list[Any]:
        return deck_with_starter_hand(ruleset, players, dealer, parse_cards(HAND), seed=7)

    monkeypatch.setattr(shuffle, "deal_source", scripted_deal_source(decks, 3))
    game, users = lobby(players=2, preset="serbian")
    game = game_start(game=game, user=users[0])
    starter = current_engine_deal(game).to_move
    return game, client_for(users[starter]), client_for(users[1 - starter])


def turn(client, game, actions: list[Any], ply: int = 0, **headers: str):
    url = TURN.format(game_id=game.public_id)
    return client.post(url, {"actions": actions, "ply": ply}, format="json", **headers)


def test_a_whole_turn_is_one_request_and_each_action_its_own_move(table):
    game, starter, other = table

    response = turn(
        starter,
        game,
        [
            {"type": "lay", "melds": [["7H", "8H", "9H"], ["QS", "QD", "QC"]]},
            "discard KS",
        ],
    )

    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["replayed"] is False
    assert [(m["ply"], m["kind"]) for m in body["moves"]] == [(1, "lay"), (2, "discard")]
    assert body["game"]["ply"] == 2 and body["game"]["to_move"] != body["game"]["you"]
    assert len(body["game"]["deal"]["hand"]) == 15 - 6 - 1
    assert_view_hides_secrets(body["game"], body["game"]["you"], game)
    SchemaChecker(starter).check("POST", TURN, 200, body)
    # The log is the one the same actions sent one by one make.
    assert list(Move.objects.filter(game=game).values_list("ply", "kind")) == [
        (1, "lay"),
        (2, "discard"),
    ]
    seen_by_other = other.get(f"/api/v1/games/{game.public_id}/moves").json()["results"]
    assert [move["kind"] for move in seen_by_other] == ["lay", "discard"]


def test_a_refused_action_refuses_the_whole_turn_and_names_its_index(table):
    game, starter, _other = table

    response = turn(
        starter,
        game,
        [{"type": "lay", "melds": [["7H", "8H", "9H"]]}, {"type": "discard", "card": "KS"}],
    )

    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "opening_too_low" and error["details"]["action"] == 0
    assert not Move.objects.filter(game=game).exists()
    game.refresh_from_db()
    assert game.ply == 0


def test_an_unparseable_action_names_its_index(table):
    game, starter, _other = table

    response = turn(starter, game, ["discard KS", "shuffle the deck"])

    assert response.status_code == 400
    assert error_of(response)["code"] == "bad_action"
    assert error_of(response)["details"]["action"] == 1
    assert not Move.objects.filter(game=game).exists()


def test_an_action_after_the_turn_passed_refuses_the_turn(table):
    game, starter, _other = table

    response = turn(starter, game, ["discard KS", "discard AS"])

    assert response.status_code == 403
    error = error_of(response)
    assert error["code"] == "turn_over" and error["details"]["action"] == 1
    assert not Move.objects.filter(game=game).exists()


@pytest.mark.parametrize("actions", [[], ["draw"] * 41, "discard KS", None])
def test_a_turn_is_a_list_of_one_to_forty_actions(table, actions):
    game, starter, _other = table

    response = turn(starter, game, actions)

    assert response.status_code == 400
    assert error_of(response)["code"] == "invalid"


def test_a_stale_ply_refuses_the_turn_with_the_current_ply(table):
    game, starter, _other = table

    response = turn(starter, game, ["discard KS"], ply=3)

    assert response.status_code == 409
    assert error_of(response)["code"] == "stale_ply"
    assert error_of(response)["details"]["current_ply"] == 0


def test_it_is_refused_out_of_turn(table):
    game, _starter, other = table

    response = turn(other, game, ["draw", "discard KS"])

    assert response.status_code == 403
    assert error_of(response)["code"] == "not_your_turn"


def test_a_retried_turn_answers_the_first_result_and_plays_nothing_twice(table):
    game, starter, _other = table
    actions = [{"type": "lay", "melds": [["QS", "QD", "QC"], ["7H", "8H", "9H"]]}, "discard KS"]
    first = turn(starter, game, actions, HTTP_IDEMPOTENCY_KEY="turn-1")
    assert first.status_code == 200, first.json()

    again = turn(starter, game, actions, HTTP_IDEMPOTENCY_KEY="turn-1")

    assert again.status_code == 200
    assert again.json()["replayed"] is True and again.headers["Idempotent-Replayed"] == "true"
    assert [m["ply"] for m in again.json()["moves"]] == [1, 2]
    assert Move.objects.filter(game=game).count() == 2
    other_turn = turn(starter, game, ["discard AS"], HTTP_IDEMPOTENCY_KEY="turn-1")
    assert other_turn.status_code == 422
    assert error_of(other_turn)["code"] == "idempotency_key_reused"


def test_the_idempotency_key_leaves_room_for_each_moves_number(table):
    game, starter, _other = table

    response = turn(starter, game, ["discard KS"], HTTP_IDEMPOTENCY_KEY="k" * 125)

    assert response.status_code == 400
    assert error_of(response)["code"] == "invalid"


def test_a_turn_may_stop_before_the_discard(table):
    game, starter, _other = table

    first = turn(
        starter, game, [{"type": "lay", "melds": [["7H", "8H", "9H"], ["QS", "QD", "QC"]]}]
    )
    assert first.status_code == 200, first.json()
    assert first.json()["game"]["to_move"] == first.json()["game"]["you"]

    rest = turn(starter, game, ["discard KS"], ply=first.json()["game"]["ply"])

    assert rest.status_code == 200, rest.json()
    assert [m["ply"] for m in rest.json()["moves"]] == [2]
