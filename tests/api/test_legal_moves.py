"""The game view's `deal.legal`: what the player to move may do now, move by move, built
from the engine's one function (games/engine/legal.py) and sendable as it stands."""

from __future__ import annotations

import random

import pytest

from games.engine import LayDown, parse_action, parse_cards
from games.engine.legal import legal_moves
from games.play import shuffle
from tests.gamekit import (
    SchemaChecker,
    current_engine_deal,
    deck_with_starter_hand,
    scripted_deal_source,
    table_create,
)

pytestmark = pytest.mark.django_db
GAME = "/api/v1/games/{game_id}"

# A serbian starter's 15 cards: AS..6S (21) and 7H..KH (64) open with 85; then 7S goes
# on the spade run and 5D is left to discard.
OPENER = "AS 2S 3S 4S 5S 6S 7H 8H 9H 10H JH QH KH 7S 5D"


@pytest.fixture
def opener_deals(monkeypatch):
    hand = parse_cards(OPENER)
    monkeypatch.setattr(
        shuffle,
        "deal_source",
        scripted_deal_source(
            lambda ruleset, players, dealer: deck_with_starter_hand(ruleset, players, dealer, hand)
        ),
    )


def test_only_the_seat_to_move_sees_its_moves(players, spectator, deals_seeded):
    table = table_create(players(2), preset="serbian", spectator=spectator)
    deal = current_engine_deal(table.game)
    mover, waiting = deal.to_move, 1 - deal.to_move

    seen = table.view(mover)["deal"]["legal"]

    assert seen == legal_moves(deal).to_dict()
    # The serbian starter was dealt a 15th card: no draw, any card may be discarded.
    assert seen["draw"] is False and seen["take"] is None and seen["undo"] is False
    assert sorted(seen["discards"]) == sorted({str(card) for card in deal.hand(mover)})
    assert seen["opening"] == {"minimum": 51, "all_but_one_exempt": False, "this_turn": True}
    assert table.view(waiting)["deal"]["legal"] is None
    assert spectator.get(table.url()).json()["deal"]["legal"] is None
    SchemaChecker(table.clients[mover]).check("GET", GAME, 200, table.view(mover))


def test_the_opening_then_a_lay_off_as_listed(players, opener_deals):
    table = table_create(players(2), preset="serbian")
    game = table.game
    mover = current_engine_deal(game).to_move
    before = table.view(mover)["deal"]["legal"]
    assert before["lay"] is True and before["lay_offs"] == []

    laid = table.act(
        mover,
        LayDown(parse_cards(m) for m in ("AS 2S 3S 4S 5S 6S", "7H 8H 9H 10H JH QH KH")),
        game.ply,
    )
    assert laid.status_code == 200, laid.json()
    after = laid.json()["game"]["deal"]["legal"]

    assert after["opening"] is None  # opened
    assert after["lay_offs"] == [{"type": "off", "card": "7S", "meld": 0, "end": "high"}]
    assert after == table.view(mover)["deal"]["legal"]
    sent = table.clients[mover].post(
        table.url("/actions"), {"action": after["lay_offs"][0], "ply": table.game.ply}
    )
    assert sent.status_code == 200, sent.json()
    assert sent.json()["game"]["deal"]["legal"]["discards"] == ["5D"]


def test_an_unopened_serbian_player_sees_what_taking_the_discard_obliges(players, deals_seeded):
    table = table_create(players(2), preset="serbian")
    deal = current_engine_deal(table.game)
    starter = deal.to_move
    thrown = deal.hand(starter)[0]
    assert table.act(starter, parse_action(f"discard {thrown}"), table.game.ply).status_code == 200

    take = table.view(1 - starter)["deal"]["legal"]["take"]

    assert take == {"card": str(thrown), "obligation": "open_or_return", "undo": True}


def test_macedonian_offers_the_discard_to_opened_players_only(players, deals_seeded):
    table = table_create(players(2), preset="macedonian")
    deal = current_engine_deal(table.game)
    starter = deal.to_move
    thrown = deal.hand(starter)[0]
    assert table.act(starter, parse_action(f"discard {thrown}"), table.game.ply).status_code == 200

    legal = table.view(1 - starter)["deal"]["legal"]

    assert legal["take"] is None and legal["draw"] is True
    assert legal["opening"]["this_turn"] is False  # nobody opens in the first round


def test_every_listed_move_is_accepted_over_http(players, deals_seeded):
    table = table_create(players(3), preset="polish51")
    rng = random.Random(5)

    for _ in range(60):
        game = table.game
        deal = current_engine_deal(game)
        legal = table.view(deal.to_move)["deal"]["legal"]
        assert legal == legal_moves(deal).to_dict()
        listed = [{"type": "draw"}] if legal["draw"] else []
        listed += [{"type": "take"}] if legal["take"] else []
        listed += [{"type": "undo"}] if legal["undo"] else []
        listed += legal["lay_offs"] + legal["swaps"]
        listed += [{"type": "discard", "card": card} for card in legal["discards"]]
        action = rng.choice(listed)
        answer = table.clients[deal.to_move].post(
            table.url("/actions"), {"action": action, "ply": game.ply}
        )
        assert answer.status_code == 200, (action, answer.json())
