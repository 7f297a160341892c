"""POST /api/v1/games/{id}/hint: the solver's best play for your own hand, in casual games
and games against bots; never in rated games; rate-limited."""

from __future__ import annotations

import pytest
from rest_framework.throttling import ScopedRateThrottle

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
    table_create,
)

pytestmark = pytest.mark.django_db
HINT = "/api/v1/games/{game_id}/hint"

# AS..7S (28) and 7H..KH (64): the best opening is worth 92 and keeps 5D to discard.
OPENER = "AS 2S 3S 4S 5S 6S 7S 7H 8H 9H 10H JH QH KH 5D"
# No joker, no three of a rank: the one meld is 2S 3S 4S, worth 9.
WEAK = "2S 3S 4S 9H 10D 2C 5D 7C 8D JS KH QC 6H 9C 3H"


@pytest.fixture
def starter_holds(monkeypatch):
    """``starter_holds(text)``: every deal from now on gives the starter these cards."""

    def deal(text: str) -> None:
        hand = parse_cards(text)
        monkeypatch.setattr(
            shuffle,
            "deal_source",
            scripted_deal_source(
                lambda ruleset, players, dealer: deck_with_starter_hand(
                    ruleset, players, dealer, hand
                )
            ),
        )

    return deal


def test_a_hint_gives_the_best_opening_and_it_plays(players, starter_holds):
    starter_holds(OPENER)
    table = table_create(players(2), preset="serbian")
    starter = current_engine_deal(table.game).to_move
    client = table.clients[starter]

    response = client.post(table.url("/hint"))

    assert response.status_code == 200, response.json()
    hint = response.json()
    assert hint["seat"] == starter and hint["opened"] is False and hint["opens"] is True
    assert hint["refusal"] is None
    assert hint["value"] == 92 and hint["opening_minimum"] == 51
    assert sorted(meld["value"] for meld in hint["melds"]) == [28, 64]
    assert [pair["card"] for pair in hint["left"]] == ["5D"] and hint["penalty_left"] == 5
    hand_ids = {pair["id"] for pair in table.view(starter)["deal"]["hand"]}
    assert {card_id for card_id, _ in card_pairs(hint)} <= hand_ids  # only your own cards
    SchemaChecker(client).check("POST", HINT, 200, hint)
    for action in [*hint["actions"], {"type": "discard", "card": "5D"}]:
        played = client.post(table.url("/actions"), {"action": action, "ply": table.game.ply})
        assert played.status_code == 200, played.json()
    assert table.view(starter)["deals"][0]["finish"] == "dry_hand"


def test_a_hint_below_the_minimum_says_nothing_can_be_laid_yet(players, starter_holds):
    starter_holds(WEAK)
    table = table_create(players(2), preset="serbian")
    starter = current_engine_deal(table.game).to_move

    hint = table.clients[starter].post(table.url("/hint")).json()

    assert hint["opens"] is False and hint["value"] == 9
    assert hint["refusal"] == "opening_too_low"
    assert [[pair["card"] for pair in meld["cards"]] for meld in hint["melds"]] == [
        ["2S", "3S", "4S"]
    ]
    assert hint["actions"] == [] and hint["lay_offs"] == []
    assert sorted(pair["card"] for pair in hint["left"]) == sorted(WEAK.split())


def test_games_against_bots_get_hints(auth_client, bots, deals_seeded):
    game = auth_client.post(
        "/api/v1/games/play-now", {"preset": "polish51", "bots": 1, "level": 1}
    ).json()

    response = auth_client.post(f"/api/v1/games/{game['id']}/hint")

    assert response.status_code == 200, response.json()
    assert response.json()["seat"] == game["you"]


def test_rated_games_get_no_hints(lobby, client_for, deals_seeded):
    game, users = lobby(2, "serbian", rated=True)
    game_start(game=game, user=users[0])
    client = client_for(users[0])

    response = client.post(f"/api/v1/games/{game.public_id}/hint")

    assert response.status_code == 403
    error = error_of(response)
    assert error["code"] == "hints_not_allowed"
    assert "rated" in error["message"]
    SchemaChecker(client).check("POST", HINT, 403, response.json())


def test_spectators_get_no_hints(players, spectator, deals_seeded):
    table = table_create(players(2), preset="serbian", spectator=spectator)

    response = spectator.post(table.url("/hint"))

    assert response.status_code == 403 and error_of(response)["code"] == "not_a_player"


def test_a_game_not_being_played_gets_no_hints(lobby, client_for):
    game, users = lobby(2, "serbian")

    response = client_for(users[0]).post(f"/api/v1/games/{game.public_id}/hint")

    assert response.status_code == 409 and error_of(response)["code"] == "game_not_active"


def test_others_private_games_are_404_and_strangers_401(
    started, client_for, user_factory, api_client
):
    game, _ = started(players=2, visibility="private")

    outsider = client_for(user_factory()).post(f"/api/v1/games/{game.public_id}/hint")
    anonymous = api_client.post(f"/api/v1/games/{game.public_id}/hint")

    assert outsider.status_code == 404 and error_of(outsider)["code"] == "not_found"
    assert anonymous.status_code == 401


def test_hints_are_rate_limited(players, deals_seeded, clear_cache, monkeypatch):
    rates = {**ScopedRateThrottle.THROTTLE_RATES, "hint": "2/min"}
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", rates)
    table = table_create(players(2), preset="serbian")
    client = table.clients[0]

    statuses = [client.post(table.url("/hint")).status_code for _ in range(3)]

    assert statuses == [200, 200, 429]
    limited = client.post(table.url("/hint"))
    assert error_of(limited)["code"] == "throttled" and limited.has_header("Retry-After")
    assert client.get(table.url()).status_code == 200  # the game itself is not limited
