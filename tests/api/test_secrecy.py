"""A player never receives another player's cards or anything of the stock, from any
endpoint; a spectator never receives any hand (ARCHITECTURE.md, hidden information)."""

from __future__ import annotations

import random

import pytest

from games.engine import TakeDiscard, UndoTake
from games.models import Game
from tests.gamekit import (
    SERVER_ONLY_KEYS,
    assert_view_hides_secrets,
    card_pairs,
    current_engine_deal,
    greedy_action,
    keys_in,
    table_create,
)

pytestmark = pytest.mark.django_db


def curious_action(deal, rng):
    """The greedy player, who also takes the discard and undoes takes now and then (the
    moves whose public forms show cards that then sit in a hand)."""
    legal = deal.legal_actions()
    if TakeDiscard() in legal and rng.random() < 0.4:
        return TakeDiscard()
    if UndoTake() in legal and rng.random() < 0.5:
        return UndoTake()
    return greedy_action(deal)


@pytest.mark.parametrize("preset", ["serbian", "polish51"])
def test_no_endpoint_shows_a_hidden_card(players, spectator, deals_seeded, preset):
    table = table_create(players(3), preset=preset, spectator=spectator)
    rng = random.Random(7)
    everything = []

    for _ in range(150):
        game = table.game
        if game.status != Game.Status.ACTIVE:
            break
        deal = current_engine_deal(game)
        seat = deal.to_move
        response = table.act(seat, curious_action(deal, rng), game.ply)
        assert response.status_code == 200, response.json()
        assert_view_hides_secrets(response.json()["game"], seat, table.game, table.shown)
        everything.append(response.json())
        table.check_everyone(recent=3)

    # Also the lists and the account: no server-only field anywhere.
    for client in [*table.clients, spectator]:
        for url in ("/api/v1/games", "/api/v1/games?mine=true", "/api/v1/me", table.url()):
            body = client.get(url).json()
            everything.append(body)
            assert not SERVER_ONLY_KEYS & keys_in(body)
    assert any(pair for body in everything for pair in card_pairs(body))


def test_the_stock_order_is_never_sent(players, deals_seeded):
    table = table_create(players(2), preset="macedonian")
    game = table.game
    stock = current_engine_deal(game).to_dict()["stock"]

    bodies = [table.clients[s].get(table.url()).json() for s in (0, 1)]
    bodies += [table.clients[s].get(table.url("/moves")).json() for s in (0, 1)]

    seen = {card_id for body in bodies for card_id, _ in card_pairs(body)}
    assert not seen & set(stock)
    for body in bodies[:2]:
        assert body["deal"]["stock_count"] == len(stock)
        assert_view_hides_secrets(body, body["you"], game)
