"""Laying off (docs/rules.md §6): cards join table melds, theirs or another player's."""

from __future__ import annotations

import pytest

from games.engine import LayOff
from tests.engine.helpers import (
    ALL_RULESETS,
    MACEDONIAN,
    SERBIAN,
    cards,
    play,
    position,
    refused,
    texts,
)


def opened(ruleset, hand, *table, **options):
    """Seat 0 has opened and drawn; ``table`` melds belong to seat 1 unless given as pairs."""
    melds = [meld if isinstance(meld, tuple) else (1, meld) for meld in table]
    return position(ruleset, hand, "KS KD", table=melds, opened=[0], drawn=True, **options)


@pytest.mark.parametrize("ruleset", ALL_RULESETS, ids=lambda r: r.name)
def test_lay_off_at_either_end_of_a_run(ruleset):
    deal = play(opened(ruleset, "3H 7H 2C", "4H 5H 6H"), "off 3H 0", "off 7H 0")
    assert str(deal.table[0]) == "3H 4H 5H 6H 7H"
    assert deal.hands[0] == tuple(cards("2C"))


@pytest.mark.parametrize("ruleset", ALL_RULESETS, ids=lambda r: r.name)
def test_lay_off_a_missing_suit_to_a_set(ruleset):
    deal = play(opened(ruleset, "9C 2C", "9S 9H 9D"), "off 9C 0")
    assert str(deal.table[0]) == "9S 9H 9D 9C"


def test_lay_off_onto_another_players_meld_keeps_its_owner():
    deal = play(opened(SERBIAN, "7H 2C", "4H 5H 6H"), "off 7H 0")
    assert deal.table[0].owner == 1


def test_laid_off_card_keeps_its_id_at_the_end_it_went_to():
    deal = opened(SERBIAN, "3H 7H 2C", "4H 5H 6H")
    low_id, high_id = deal.hand_ids(0)[:2]
    deal = play(deal, "off 3H 0", "off 7H 0")
    assert deal.table[0].ids[0] == low_id
    assert deal.table[0].ids[-1] == high_id
    assert [deal.card(i) for i in deal.table[0].ids] == list(deal.table[0].cards)


@pytest.mark.parametrize(
    ("hand", "meld", "move"),
    [
        ("8H 2C", "4H 5H 6H", "off 8H 0"),  # not next to an end
        ("7S 2C", "4H 5H 6H", "off 7S 0"),  # another suit
        ("9S 2C", "9S 9H 9D", "off 9S 0"),  # a suit the set has
        ("9C 2C", "9S 9H 9D 9C", "off 9C 0"),  # a set of four is full
        ("2H 2C", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "off 2H 0"),  # A..K..A is full
        ("KH 2C", "QH KH AH", "off KH 0"),  # nothing goes after a high ace
        ("JK 2C", "9S 9H JK", "off JK 0"),  # a set holds one joker
    ],
)
def test_a_card_that_does_not_fit_is_refused(hand, meld, move):
    error = refused(opened(SERBIAN, hand, meld), move)
    assert error.code == "does_not_fit"
    assert str(error).startswith(f"{move.split()[1]} does not fit the ")


def test_lay_off_to_a_meld_that_does_not_exist():
    assert refused(opened(SERBIAN, "7H 2C", "4H 5H 6H"), "off 7H 1").code == "no_such_meld"


def test_ace_fits_a_run_from_2_to_k_at_both_ends_high_by_default():
    run = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
    deal = opened(SERBIAN, "AH 2C", run)
    assert "off AH 0 low" in texts(deal.legal_actions())
    assert "off AH 0 high" in texts(deal.legal_actions())
    assert play(deal, "off AH 0").table[0].meld.high == 14
    assert play(deal, "off AH 0 low").table[0].meld.low == 1


def test_ace_low_and_ace_high_runs():
    assert str(play(opened(SERBIAN, "AH 2C", "2H 3H 4H"), "off AH 0").table[0]) == "AH 2H 3H 4H"
    assert str(play(opened(SERBIAN, "AH 2C", "JH QH KH"), "off AH 0").table[0]) == "JH QH KH AH"


def test_joker_laid_off_on_a_run_goes_high_unless_told_low():
    deal = opened(SERBIAN, "JK 2C", "5C 6C 7C")
    assert str(play(deal, "off JK 0").table[0]) == "5C 6C 7C JK"
    low = play(deal, "off JK 0 low").table[0].meld
    assert str(low) == "JK 5C 6C 7C"
    assert low.low == 4


def test_a_card_fitting_one_end_refuses_the_other():
    error = refused(opened(SERBIAN, "7H 2C", "4H 5H 6H"), "off 7H 0 low")
    assert error.code == "does_not_fit"
    assert "fits only the high end" in str(error)


def test_lay_off_end_is_ignored_for_sets():
    assert str(play(opened(SERBIAN, "9C 2C", "9S 9H 9D"), "off 9C 0 low").table[0]) == "9S 9H 9D 9C"


@pytest.mark.parametrize("ruleset", [SERBIAN, MACEDONIAN])
def test_more_jokers_may_join_a_run_by_lay_off_never_side_by_side(ruleset):
    # docs/rules.md §3: serbian runs take one joker when laid down, more later by lay-off.
    deal = play(opened(ruleset, "JK JK 2C", "5C JK 7C"), "off JK 0")
    assert str(deal.table[0]) == "5C JK 7C JK"
    error = refused(deal, "off JK 0 high")
    assert error.code == "does_not_fit"
    assert str(play(deal, "off JK 0 low").table[0]) == "JK 5C JK 7C JK"


def test_lay_off_needs_the_card_in_hand():
    assert refused(opened(SERBIAN, "2C 3C", "4H 5H 6H"), "off 7H 0").code == "card_not_in_hand"


def test_legal_actions_list_each_lay_off_once_naming_the_end_only_when_it_matters():
    deal = opened(SERBIAN, "3H 7H 7H JK 2C", "4H 5H 6H", "9S 9H 9D")
    offs = [action for action in deal.legal_actions() if isinstance(action, LayOff)]
    assert texts(offs) == [
        "off 3H 0",
        "off JK 0 low",
        "off JK 0 high",
        "off 7H 0",
        "off JK 1",
    ]
    for action in offs:
        assert deal.is_legal(action)


def test_lay_off_event_is_public_and_names_the_end():
    deal = play(opened(SERBIAN, "JK 2C", "5C 6C 7C"), "off JK 0 low")
    event = deal.last_event.public
    assert (event["type"], event["meld"], event["end"], event["card"]["card"]) == (
        "off",
        0,
        "low",
        "JK",
    )
