"""Going out and the "hand" (docs/rules.md §7): which finish a close is."""

from __future__ import annotations

import pytest

from tests.engine.helpers import (
    ALL_RULESETS,
    MACEDONIAN,
    OLD_REMI,
    POLISH51,
    SERBIAN,
    cards,
    play,
    position,
    refused,
    texts,
)

OPENING = "lay 10H JH QH KH | 10S 10D 10C"
OPENING_CARDS = "10H JH QH KH 10S 10D 10C"


def going_out(ruleset, hand, *, opened=False, table=(), **options):
    """Seat 0 to move (drawn); seat 1 owns the given table melds."""
    return position(
        ruleset,
        hand,
        "KS 3D",
        "AS JK 2C",
        table=[(1, meld) for meld in table],
        opened=[0] if opened else [],
        drawn=True,
        **options,
    )


def finish(deal):
    assert deal.is_over
    return deal.result().finish


@pytest.mark.parametrize("ruleset", ALL_RULESETS, ids=lambda r: r.name)
def test_discarding_the_last_card_goes_out_and_ends_the_deal(ruleset):
    deal = play(going_out(ruleset, "5C", opened=True), "discard 5C")
    assert deal.is_over
    assert deal.result().winner == 0
    assert deal.hands[0] == ()
    assert deal.last_event.public["result"]["winner"] == 0


@pytest.mark.parametrize("ruleset", ALL_RULESETS, ids=lambda r: r.name)
def test_closing_after_opening_in_an_earlier_turn_is_a_normal_close(ruleset):
    deal = play(going_out(ruleset, "7H 8H 9H 5C", opened=True), "lay 7H 8H 9H", "discard 5C")
    assert finish(deal) == "normal"


@pytest.mark.parametrize("ruleset", ALL_RULESETS, ids=lambda r: r.name)
def test_hand_is_going_out_in_the_turn_of_the_first_lay_down(ruleset):
    deal = play(going_out(ruleset, OPENING_CARDS + " 4D"), OPENING, "discard 4D")
    assert finish(deal) == "dry_hand"


def test_hand_does_not_depend_on_the_pile_the_card_came_from():
    deal = position(SERBIAN, "10H JH QH 10S 10D 10C 4D", "KS 3D", stock="5D", discard="KH")
    deal = play(deal, "take", OPENING, "discard 4D")
    assert finish(deal) == "dry_hand"


def test_serbian_hand_laying_off_onto_anothers_meld_is_a_mixed_hand():
    deal = going_out(SERBIAN, OPENING_CARDS + " 5S 4D", table=["6S 7S 8S"])
    deal = play(deal, OPENING, "off 5S 0", "discard 4D")
    assert finish(deal) == "mixed_hand"


def test_serbian_hand_swapping_a_joker_from_anothers_meld_is_a_mixed_hand():
    deal = going_out(SERBIAN, OPENING_CARDS + " 6C 4D", table=["5C JK 7C"])
    deal = play(deal, OPENING, "swap 6C 0", "off JK 0", "discard 4D")
    assert finish(deal) == "mixed_hand"


def test_serbian_hand_laying_off_onto_its_own_new_meld_stays_dry():
    deal = going_out(SERBIAN, "10H JH QH 10S 10D 10C KH 4D")
    deal = play(deal, "lay 10H JH QH | 10S 10D 10C", "off KH 0", "discard 4D")
    assert finish(deal) == "dry_hand"


@pytest.mark.parametrize("ruleset", [MACEDONIAN, POLISH51])
def test_macedonian_and_polish_hand_laying_off_onto_anothers_meld_just_closes(ruleset):
    deal = going_out(ruleset, OPENING_CARDS + " 5S 4D", table=["6S 7S 8S"])
    deal = play(deal, OPENING, "off 5S 0", "discard 4D")
    assert finish(deal) == "normal"


def test_serbian_starter_may_go_out_with_a_hand_in_the_first_turn():
    deal = going_out(SERBIAN, OPENING_CARDS + " 2H 3H 4H 5H 6H 7H 4D", first_round=True)
    deal = play(deal, OPENING + " | 2H 3H 4H 5H 6H 7H", "discard 4D")
    assert finish(deal) == "dry_hand"


@pytest.mark.parametrize(
    "ruleset", [r for r in ALL_RULESETS if r.hand_needs_51], ids=lambda r: r.name
)
def test_a_hand_still_needs_51(ruleset):
    deal = going_out(ruleset, "2C 3C 4C 5S 5D 5C 4D")
    assert refused(deal, "lay 2C 3C 4C | 5S 5D 5C").code == "opening_too_low"


def test_old_remi_house_rule_a_hand_needs_no_51():
    ruleset = SERBIAN.replace(hand_needs_51=False)
    deal = going_out(ruleset, "2C 3C 4C 5S 5D 5C 4D")
    [offered] = [action for action in deal.legal_actions() if action.kind == "lay"]
    assert set(offered.melds) == {tuple(cards("2C 3C 4C")), tuple(cards("5S 5D 5C"))}
    deal = play(deal, "lay 2C 3C 4C | 5S 5D 5C")
    assert texts(deal.legal_actions()) == ["discard 4D"]
    assert finish(play(deal, "discard 4D")) == "dry_hand"


def test_old_remi_house_rule_below_51_must_leave_exactly_one_card():
    ruleset = SERBIAN.replace(hand_needs_51=False)
    error = refused(going_out(ruleset, "2C 3C 4C 5S 5D 5C 4D 9H"), "lay 2C 3C 4C | 5S 5D 5C")
    assert error.code == "opening_too_low"
    assert "or lay down all but one card at once" in str(error)


def test_macedonian_closing_with_a_joker_is_a_joker_close():
    assert finish(play(going_out(MACEDONIAN, "JK", opened=True), "discard JK")) == "joker"


@pytest.mark.parametrize("ruleset", [SERBIAN, POLISH51])
def test_closing_with_a_joker_is_a_normal_close_outside_macedonia(ruleset):
    assert finish(play(going_out(ruleset, "JK", opened=True), "discard JK")) == "normal"


def test_macedonian_hand_closed_with_a_joker_is_scored_once_as_a_hand():
    deal = play(going_out(MACEDONIAN, OPENING_CARDS + " JK"), OPENING, "discard JK")
    assert finish(deal) == "dry_hand"
    assert deal.result().scores == (-40, 26, 64)  # x2, not x4


def test_macedonian_hand_with_lay_off_on_others_closed_with_a_joker_is_a_joker_close():
    deal = going_out(MACEDONIAN, OPENING_CARDS + " 5S JK", table=["6S 7S 8S"])
    assert finish(play(deal, OPENING, "off 5S 0", "discard JK")) == "joker"


def test_going_out_is_the_only_way_to_empty_a_hand():
    deal = going_out(SERBIAN, OPENING_CARDS)
    assert refused(deal, OPENING).code == "last_card"


# ---- old remi: "U starom remiju je postojalo pravilo da za hand nije potreban zbir 51."


def test_old_remi_preset_needs_no_51_for_a_hand():
    assert OLD_REMI.hand_needs_51 is False
    assert SERBIAN.hand_needs_51 is True


def test_old_remi_goes_out_with_a_dry_hand_worth_24():
    deal = going_out(OLD_REMI, "2C 3C 4C 5S 5D 5C 4D")
    deal = play(deal, "lay 2C 3C 4C | 5S 5D 5C", "discard 4D")
    result = deal.result()
    assert result.finish == "dry_hand"
    # -140 for the winner, 200 for each player who never opened
    assert result.scores == (-140, 200, 200)


def test_old_remi_below_51_is_no_opening_when_cards_stay_in_hand():
    deal = going_out(OLD_REMI, "2C 3C 4C 5S 5D 5C 4D 9H")
    error = refused(deal, "lay 2C 3C 4C | 5S 5D 5C")
    assert error.code == "opening_too_low"
    assert str(error) == (
        "these melds are worth 24; opening needs 51 (or lay down all but one card at once)"
    )
