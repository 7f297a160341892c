"""Checking melds before laying them down (the table page's staging row): the engine's
verdict per meld, the total toward the opening under the game's own ruleset, who may
ask, and the answers against the OpenAPI schema."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import parse_cards
from games.play import shuffle
from games.play.lobby import game_start
from tests.gamekit import (
    SchemaChecker,
    card_pairs,
    current_engine_deal,
    deck_with_starter_hand,
    error_of,
    scripted_deal_source,
)

pytestmark = pytest.mark.django_db

CHECK = "/api/v1/games/{game_id}/melds/check"
# serbian: the starter holds 15 cards and plays without drawing.
HAND = "7H 8H 9H QS QD QC 2C 3C 4C JK 5D KS 10H AS JK"


@pytest.fixture
def table(lobby, client_for, monkeypatch):
    """``table(**create)``: a started serbian game whose starter holds ``HAND``; returns
    ``(game, starter's client, other player's client)``."""

    def decks(ruleset: Any, players: int, dealer: int) -> list[Any]:
        return deck_with_starter_hand(ruleset, players, dealer, parse_cards(HAND), seed=7)

    monkeypatch.setattr(shuffle, "deal_source", scripted_deal_source(decks, 3))

    def make(**create: Any) -> tuple[Any, Any, Any]:
        game, users = lobby(players=2, **create)
        game = game_start(game=game, user=users[0])
        starter = current_engine_deal(game).to_move
        return game, client_for(users[starter]), client_for(users[1 - starter])

    return make


def check_url(game) -> str:
    return CHECK.format(game_id=game.public_id)


def hand_ids(client, game) -> dict[str, list[int]]:
    """The ids of each card in the client's hand, as the game view gives them."""
    ids: dict[str, list[int]] = {}
    for pair in client.get(f"/api/v1/games/{game.public_id}").json()["deal"]["hand"]:
        ids.setdefault(pair["card"], []).append(pair["id"])
    return ids


def melds_of(client, game, *melds: str) -> list[list[int]]:
    ids = hand_ids(client, game)
    return [[ids[card].pop(0) for card in meld.split()] for meld in melds]


def check(client, game, *melds: str):
    return client.post(check_url(game), {"melds": melds_of(client, game, *melds)}, format="json")


def laid(answer: dict[str, Any]) -> str:
    return " ".join(pair["card"] for pair in answer["cards"])


def test_melds_worth_51_open(table):
    game, starter, _other = table()

    response = check(starter, game, "9H 7H 8H", "QS QD QC", "4C JK 2C")

    assert response.status_code == 200, response.json()
    body = response.json()
    SchemaChecker(starter).check("POST", CHECK, 200, body)
    assert [(m["valid"], m["kind"], m["value"]) for m in body["melds"]] == [
        (True, "run", 24),
        (True, "set", 30),
        (True, "run", 9),
    ]
    # Laid out as they would go down: a run low to high, the joker in its gap.
    assert [laid(m) for m in body["melds"]] == ["7H 8H 9H", "QS QD QC", "2C JK 4C"]
    assert body["total"] == 63
    assert body["opening_minimum"] == 51
    assert body["opening"] == {"valid": True, "code": None, "message": None}


def test_too_little_is_no_opening_and_the_answer_says_how_much_it_is(table):
    game, starter, _other = table()

    body = check(starter, game, "7H 8H 9H", "2C 3C 4C").json()

    assert body["total"] == 33
    assert body["opening"] == {
        "valid": False,
        "code": "opening_too_low",
        "message": "these melds are worth 33; opening needs 51",
    }


def test_a_meld_that_is_none_carries_the_engines_code(table):
    game, starter, _other = table()

    response = check(starter, game, "QS QD QC", "2C 5D KS", "7H 8H 9H")

    body = response.json()
    SchemaChecker(starter).check("POST", CHECK, 200, body)
    bad = body["melds"][1]
    assert bad["valid"] is False
    assert (bad["kind"], bad["value"], bad["code"]) == (None, None, "mixed_suits")
    assert bad["message"].startswith("a run must be of one suit and a set of one rank")
    assert laid(bad) == "2C 5D KS"  # as named
    assert body["total"] == 54  # the melds that are melds
    assert body["opening"]["valid"] is False
    assert body["opening"]["code"] == "mixed_suits"


def test_the_games_house_rules_are_the_rules(table):
    game, starter, _other = table(overrides={"opening_minimum": 60})

    body = check(starter, game, "7H 8H 9H", "QS QD QC").json()

    assert body["total"] == 54
    assert body["opening_minimum"] == 60
    assert body["opening"]["code"] == "opening_too_low"
    assert body["opening"]["message"] == "these melds are worth 54; opening needs 60"


def test_the_other_player_may_ask_too_and_sees_only_their_own_cards(table):
    game, starter, other = table()
    ids = [pair[0] for pair in hand_ids(other, game).values()]

    response = other.post(check_url(game), {"melds": [ids[:3]]}, format="json")

    assert response.status_code == 200, response.json()
    theirs = {
        (pair["id"], pair["card"])
        for pair in other.get(f"/api/v1/games/{game.public_id}").json()["deal"]["hand"]
    }
    assert set(card_pairs(response.json())) <= theirs


def test_cards_not_in_the_callers_hand_are_refused_by_id_only(table):
    game, starter, _other = table()
    deal = current_engine_deal(game)
    theirs = deal.hand_ids(1 - deal.to_move)[0]
    mine = melds_of(starter, game, "7H 8H")[0]

    response = starter.post(check_url(game), {"melds": [[*mine, theirs], [9999]]}, format="json")

    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "cards_not_in_hand"
    assert error["details"] == {"ids": sorted([theirs, 9999])}
    assert str(deal.card(theirs)) not in error["message"]
    SchemaChecker(starter).check("POST", CHECK, 400, response.json())


def test_a_card_named_twice_is_refused(table):
    game, starter, _other = table()
    [meld] = melds_of(starter, game, "QS QD QC")

    response = starter.post(check_url(game), {"melds": [meld, meld[:1]]}, format="json")

    assert response.status_code == 400
    assert error_of(response)["code"] == "cards_named_twice"
    assert error_of(response)["details"] == {"ids": [meld[0]]}


def test_a_request_without_melds_is_refused(table):
    game, starter, _other = table()

    for body in ({}, {"melds": []}, {"melds": [[]]}, {"melds": "7H 8H 9H"}):
        response = starter.post(check_url(game), body, format="json")
        assert response.status_code == 400, body
        assert error_of(response)["code"] == "invalid"


def test_a_spectator_may_not_ask(table, spectator):
    game, _starter, _other = table()

    response = spectator.post(check_url(game), {"melds": [[1, 2, 3]]}, format="json")

    assert response.status_code == 403
    assert error_of(response)["code"] == "not_a_player"
    SchemaChecker(spectator).check("POST", CHECK, 403, response.json())


def test_a_private_game_is_not_found_for_strangers(table, spectator):
    game, _starter, _other = table(visibility="private")

    response = spectator.post(check_url(game), {"melds": [[1, 2, 3]]}, format="json")

    assert response.status_code == 404
    SchemaChecker(spectator).check("POST", CHECK, 404, response.json())


def test_a_game_not_being_played_is_a_conflict(lobby, client_for):
    game, users = lobby(players=2)

    client = client_for(users[0])
    response = client.post(check_url(game), {"melds": [[1, 2, 3]]}, format="json")

    assert response.status_code == 409
    assert error_of(response)["code"] == "game_not_active"
    SchemaChecker(client).check("POST", CHECK, 409, response.json())


def test_anonymous_callers_are_refused(table, api_client):
    game, _starter, _other = table()

    response = api_client.post(check_url(game), {"melds": [[1, 2, 3]]}, format="json")

    assert response.status_code == 401
    SchemaChecker(api_client).check("POST", CHECK, 401, response.json())
