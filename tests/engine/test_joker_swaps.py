"""Joker swaps (docs/rules.md §6 table), one test per row and preset."""

from __future__ import annotations

import pytest

from games.engine import SwapJoker
from tests.engine.helpers import (
    ALL_RULESETS,
    MACEDONIAN,
    POLISH51,
    SERBIAN,
    cards,
    play,
    position,
    refused,
)


def opened(ruleset, hand, *melds, owner=1, **options):
    table = [(owner, meld) for meld in melds]
    return position(ruleset, hand, "4S 3S", table=table, opened=[0], drawn=True, **options)


# ---- joker in a run: swap with the card it stands for (every preset)


@pytest.mark.parametrize("ruleset", ALL_RULESETS, ids=lambda r: r.name)
def test_run_joker_is_swapped_for_the_card_it_stands_for(ruleset):
    deal = opened(ruleset, "6C 2D", "5C JK 7C")
    joker_id = deal.table[0].ids[1]
    given_id = deal.hand_ids(0)[0]
    deal = play(deal, "swap 6C 0")
    assert str(deal.table[0]) == "5C 6C 7C"
    assert deal.table[0].ids[1] == given_id
    assert deal.hands[0] == tuple(cards("2D JK"))
    assert deal.hand_ids(0)[-1] == joker_id


@pytest.mark.parametrize("ruleset", ALL_RULESETS, ids=lambda r: r.name)
def test_run_joker_is_not_swapped_for_another_card(ruleset):
    error = refused(opened(ruleset, "8C 6D 2D", "5C JK 7C"), "swap 8C 0")
    assert error.code == "does_not_fit"
    assert "give 6C" in str(error)
    assert refused(opened(ruleset, "6D 2D", "5C JK 7C"), "swap 6D 0").code == "does_not_fit"


def test_run_with_two_jokers_frees_the_one_the_card_stands_for():
    deal = play(opened(MACEDONIAN, "4C 2D", "JK 5C JK 7C"), "swap 4C 0")
    assert str(deal.table[0]) == "4C 5C JK 7C"


def test_joker_at_a_run_end_stands_for_the_card_its_position_implies():
    deal = play(opened(SERBIAN, "AH 2D", "QH KH JK"), "swap AH 0")
    assert str(deal.table[0]) == "QH KH AH"


# ---- joker in a set of three (2 cards + joker)


def test_macedonian_set_of_three_joker_is_swapped_for_either_missing_suit():
    for suit in "SC":
        deal = play(opened(MACEDONIAN, f"10{suit} 2D", "10D 10H JK"), f"swap 10{suit} 0")
        assert str(deal.table[0]) == f"10D 10H 10{suit}"
        assert deal.hands[0] == tuple(cards("2D JK"))


def test_macedonian_set_of_three_may_also_be_joined_keeping_the_joker():
    deal = play(opened(MACEDONIAN, "10S 2D", "10D 10H JK"), "off 10S 0")
    assert str(deal.table[0]) == "10D 10H JK 10S"


def test_serbian_set_of_three_joker_is_not_swapped_a_card_only_joins():
    deal = opened(SERBIAN, "QS 2D", "QD QH JK")
    error = refused(deal, "swap QS 0")
    assert error.code == "joker_swap_not_allowed"
    assert "only joins" in str(error)
    assert not [action for action in deal.legal_actions() if isinstance(action, SwapJoker)]
    assert str(play(deal, "off QS 0").table[0]) == "QD QH JK QS"


def test_polish_set_of_three_joker_freed_only_by_both_missing_suits():
    deal = opened(POLISH51, "7S 7C 2D", "7H 7D JK")
    error = refused(deal, "swap 7S 0")
    assert error.code == "does_not_fit"
    assert "both missing suits at once" in str(error)
    assert SwapJoker(cards("7S 7C"), 0) in deal.legal_actions()
    deal = play(deal, "swap 7S 7C 0")
    assert str(deal.table[0]) == "7H 7D 7S 7C"
    assert deal.hands[0] == tuple(cards("2D JK"))


def test_polish_adding_one_card_closes_the_set_and_the_joker_is_never_freed():
    deal = play(opened(POLISH51, "7S 7C 2D", "7H 7D JK"), "off 7S 0")
    assert str(deal.table[0]) == "7H 7D JK 7S"
    error = refused(deal, "swap 7C 0")
    assert error.code == "joker_swap_not_allowed"
    assert "closed" in str(error)


# ---- joker in a set of four (3 cards + joker)


@pytest.mark.parametrize("ruleset", [MACEDONIAN, SERBIAN])
def test_set_of_four_joker_is_swapped_for_the_missing_suit(ruleset):
    deal = play(opened(ruleset, "KC 2D", "KS KH JK KD"), "swap KC 0")
    assert str(deal.table[0]) == "KS KH KC KD"
    assert deal.hands[0] == tuple(cards("2D JK"))


@pytest.mark.parametrize("ruleset", [MACEDONIAN, SERBIAN])
def test_set_of_four_joker_is_not_swapped_for_a_suit_it_has(ruleset):
    assert refused(opened(ruleset, "KS 2D", "KS KH JK KD"), "swap KS 0").code == "does_not_fit"


def test_polish_set_of_four_with_a_joker_is_closed():
    error = refused(opened(POLISH51, "KC 2D", "KS KH JK KD"), "swap KC 0")
    assert error.code == "joker_swap_not_allowed"


# ---- who and when


def test_swap_from_a_meld_without_a_joker():
    assert refused(opened(SERBIAN, "6C 2D", "5C 6C 7C"), "swap 6C 0").code == "no_joker"


def test_swap_needs_the_card_in_hand():
    assert refused(opened(SERBIAN, "2D 3D", "5C JK 7C"), "swap 6C 0").code == "card_not_in_hand"


def test_swap_from_own_meld_is_allowed():
    deal = play(opened(SERBIAN, "6C 2D", "5C JK 7C", owner=0), "swap 6C 0")
    assert deal.hands[0][-1].is_joker


def test_swap_with_a_single_card_left_takes_the_joker_into_hand():
    # The hand never empties: the joker replaces the card given.
    deal = play(opened(SERBIAN, "6C", "5C JK 7C"), "swap 6C 0")
    assert deal.hands[0] == tuple(cards("JK"))


def test_swap_event_shows_the_cards_given_and_the_joker_taken():
    deal = play(opened(SERBIAN, "6C 2D", "5C JK 7C"), "swap 6C 0")
    public = deal.last_event.public
    assert [pair["card"] for pair in public["cards"]] == ["6C"]
    assert public["joker"]["card"] == "JK"
    assert public["meld"] == 0
