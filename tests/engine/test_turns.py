"""A turn (docs/rules.md §2): draw, then meld / lay off / swap, then discard exactly one card."""

from __future__ import annotations

import pytest

from games.engine import Discard, DrawStock, IllegalAction, LayDown
from tests.engine.helpers import SERBIAN, cards, play, position, refused, texts


def two_players(**options):
    return position(SERBIAN, "7H 8H 9H 2C 2S", "KS KD 3C", stock="5D 6D", **options)


def test_draw_takes_the_top_of_the_stock():
    deal = play(two_players(), "draw")
    assert deal.hands[0][-1] is cards("5D")[0]
    assert deal.stock_count == 1
    assert deal.drawn


def test_discard_ends_the_turn_and_passes_it_on():
    deal = play(two_players(), "draw", "discard 2C")
    assert deal.to_move == 1
    assert not deal.drawn
    assert deal.discard_top is cards("2C")[0]
    assert len(deal.hands[0]) == 5


def test_turn_order_wraps_round_the_table():
    deal = play(two_players(), "draw", "discard 2C", "draw", "discard 3C")
    assert deal.to_move == 0


@pytest.mark.parametrize("move", ["discard 2C", "lay 7H 8H 9H", "off 2C 0", "swap 2C 0"])
def test_must_draw_before_anything_else(move):
    assert refused(two_players(), move).code == "must_draw_first"


@pytest.mark.parametrize("move", ["draw", "take"])
def test_draws_once_per_turn(move):
    deal = position(SERBIAN, "7H 8H", "KS KD", stock="5D 6D", discard="4C")
    assert refused(play(deal, "draw"), move).code == "already_drew"


def test_before_drawing_the_legal_actions_are_draw_and_take():
    deal = position(SERBIAN, "7H 8H", "KS KD", stock="5D", discard="4C")
    assert texts(deal.legal_actions()) == ["draw", "take"]
    assert deal.is_legal(DrawStock())
    assert not deal.is_legal(Discard(cards("7H")[0]))


def test_after_drawing_every_distinct_card_may_be_discarded():
    deal = position(SERBIAN, "7H 7H 8H", "KS KD", stock="5D", drawn=True)
    assert texts(deal.legal_actions()) == ["discard 7H", "discard 8H"]


def test_cannot_discard_a_card_not_in_hand():
    error = refused(two_players(drawn=True), "discard AS")
    assert error.code == "card_not_in_hand"
    assert str(error) == "you have no AS in your hand"


def test_cannot_name_a_card_more_often_than_held():
    deal = position(SERBIAN, "7H 8H 9H 9H KS", "KD", drawn=True, opened=[0])
    error = refused(deal, "lay 9H 9H 9H")
    assert error.code == "duplicate_suit"  # the meld check comes first
    error = refused(play(deal), "lay 7H 8H 9H | 8H 9H 10H")
    assert error.code == "card_not_in_hand"
    assert "named it 2 times" in str(error)


def test_a_twin_discarded_by_value_is_the_first_matching_physical_card():
    deal = position(SERBIAN, "7H 8H 7H", "KS KD", stock="5D", drawn=True)
    first_twin = deal.hand_ids(0)[0]
    deal = play(deal, "discard 7H")
    assert deal.discard_ids == (first_twin,)


def test_apply_returns_a_new_deal_and_leaves_the_original_unchanged():
    deal = two_players()
    before = deal.to_dict()
    after = play(deal, "draw")
    assert after is not deal
    assert deal.to_dict() == before
    assert not deal.drawn and after.drawn


def test_an_illegal_action_leaves_the_deal_unchanged():
    deal = two_players()
    before = deal.to_dict()
    with pytest.raises(IllegalAction):
        deal.apply(LayDown([cards("7H 8H 9H")]))
    assert deal.to_dict() == before


def test_illegal_action_is_a_value_error_with_a_code():
    error = refused(two_players(), "discard 2C")
    assert isinstance(error, ValueError)
    assert error.code == "must_draw_first"
    assert "draw a card first" in str(error)


def test_last_card_rule_no_meld_of_the_last_card():
    deal = position(SERBIAN, "7H 8H 9H", "KS KD", opened=[0], drawn=True)
    error = refused(deal, "lay 7H 8H 9H")
    assert error.code == "last_card"
    assert str(error) == "a turn ends with a discard: you cannot meld or lay off your last card"


def test_last_card_rule_no_lay_off_of_the_last_card():
    deal = position(SERBIAN, "9H", "KS KD", table=[(0, "10H JH QH")], drawn=True)
    assert refused(deal, "off 9H 0").code == "last_card"
    assert texts(deal.legal_actions()) == ["discard 9H"]


def test_nothing_may_be_done_once_the_deal_is_over():
    deal = position(SERBIAN, "2C", "KS KD", drawn=True, opened=[0])
    deal = play(deal, "discard 2C")
    assert deal.is_over
    assert deal.legal_actions() == []
    assert refused(deal, "draw").code == "deal_over"


def test_deal_reports_turn_state():
    deal = two_players()
    assert deal.to_move == 0
    assert deal.num_players == 2
    assert deal.dealer == 1
    assert deal.opened == frozenset()
    assert not deal.is_over
    assert deal.result() is None
    assert deal.last_event is None
    assert "serbian 2p" in repr(deal)
