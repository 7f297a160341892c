"""The stock running out (docs/rules.md §2): reshuffle the discard pile but its top, at most
``max_reshuffles`` times per deal; then the deal is void."""

from __future__ import annotations

import random

from games.engine import DealResult, hand_penalty
from tests.engine.helpers import SERBIAN, play, position


def short_stock(ruleset=SERBIAN, **options):
    return position(
        ruleset,
        "2C 3C 4C 5C",
        "2S 3S 4S 5S",
        stock="5D",
        discard="9H 8H",
        reshuffle_seeds=(11, 22),
        **options,
    )


def test_empty_stock_is_refilled_after_the_discard_that_ends_the_turn():
    deal = play(short_stock(), "draw")
    assert deal.stock_count == 0  # drawing the last card changes nothing yet
    assert not deal.is_over
    pile = deal.discard_ids
    deal = play(deal, "discard 2C")
    expected = list(pile)
    random.Random(11).shuffle(expected)
    assert deal.to_dict()["stock"] == expected
    assert [str(card) for card in deal.discard_pile] == ["2C"]
    assert deal.reshuffles == 1


def test_reshuffle_is_a_public_fact_of_the_move():
    deal = play(short_stock(), "draw", "discard 2C")
    event = deal.last_event
    assert event.public["reshuffled"] is True
    assert event.public["stock_count"] == 2
    assert str(event) == "seat 0 discarded 2C; the discard pile was shuffled into a new stock"


def test_each_reshuffle_uses_its_own_seed():
    deal = play(short_stock(), "draw", "discard 2C", "draw", "discard 2S", "draw")
    pile = deal.discard_ids
    deal = play(deal, "discard 3C")
    expected = list(pile)
    random.Random(22).shuffle(expected)
    assert deal.to_dict()["stock"] == expected
    assert deal.reshuffles == 2


def test_stock_running_out_after_the_last_reshuffle_makes_the_deal_void():
    deal = play(short_stock(), "draw", "discard 2C", "draw", "discard 2S", "draw", "discard 3C")
    deal = play(deal, "draw", "discard 3S", "draw", "discard 4C")
    assert deal.is_over
    penalties = tuple(hand_penalty(hand, SERBIAN) for hand in deal.hands)
    assert deal.result() == DealResult(None, "void", (0, 0), penalties)
    assert deal.reshuffles == 2
    assert deal.last_event.public["result"]["finish"] == "void"
    assert str(deal.last_event).endswith("the deal is over")


def test_no_reshuffles_allowed_means_void_at_the_first_empty_stock():
    deal = play(short_stock(SERBIAN.replace(max_reshuffles=0)), "draw", "discard 2C")
    assert deal.result().finish == "void"


def test_a_discard_pile_of_one_card_cannot_refill_the_stock():
    deal = position(SERBIAN, "2C 3C", "KS 3D", stock="", drawn=True)
    assert play(deal, "discard 2C").result().finish == "void"


def test_going_out_with_the_stock_empty_is_a_win_not_a_void():
    deal = position(SERBIAN, "2C", "KS 3D", stock="", drawn=True, opened=[0])
    assert play(deal, "discard 2C").result().winner == 0
