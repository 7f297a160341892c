"""Scoring a deal (docs/rules.md §8): every penalty row and every outcome of every preset.

Seat 0 goes out. Seat 1 opened (it owns a meld) and holds KS 3D; seat 2
never opened and holds AS JK 2C.
"""

from __future__ import annotations

import pytest

from games.engine import DealResult, FinishScoring
from tests.engine.helpers import MACEDONIAN, OLD_REMI, POLISH51, SERBIAN, play, position

OPENING = "lay 10H JH QH KH | 10S 10D 10C"
OPENING_CARDS = "10H JH QH KH 10S 10D 10C"


def scored(ruleset, hand, *moves, opened=True):
    deal = position(
        ruleset,
        hand,
        "KS 3D",
        "AS JK 2C",
        table=[(1, "6S 7S 8S")],
        opened=[0] if opened else [],
        drawn=True,
    )
    deal = play(deal, *moves)
    assert deal.is_over
    return deal.result()


def normal(ruleset):
    return scored(ruleset, "5C", "discard 5C")


def joker_close(ruleset):
    return scored(ruleset, "JK", "discard JK")


def mixed_hand(ruleset):
    return scored(
        ruleset, OPENING_CARDS + " 5S 4D", OPENING, "off 5S 0", "discard 4D", opened=False
    )


def dry_hand(ruleset):
    return scored(ruleset, OPENING_CARDS + " 4D", OPENING, "discard 4D", opened=False)


# ---- penalties of cards left in hand


def penalty(ruleset, left: str) -> int:
    """What seat 1 pays for the cards ``left`` in its hand when seat 0 goes out."""
    deal = position(ruleset, "5C", left, opened=[0, 1], drawn=True)
    return play(deal, "discard 5C").result().penalties[1]


@pytest.mark.parametrize("ruleset", [MACEDONIAN, SERBIAN, POLISH51], ids=lambda r: r.name)
def test_penalty_2_to_9_face_value(ruleset):
    assert penalty(ruleset, "2C 5D 9S") == 16


@pytest.mark.parametrize("ruleset", [MACEDONIAN, SERBIAN, POLISH51], ids=lambda r: r.name)
def test_penalty_10_j_q_k_count_10(ruleset):
    assert penalty(ruleset, "10H JS QD KC") == 40


@pytest.mark.parametrize(("ruleset", "value"), [(MACEDONIAN, 10), (SERBIAN, 10), (POLISH51, 11)])
def test_penalty_ace_10_or_polish_11(ruleset, value):
    assert penalty(ruleset, "AS") == value


@pytest.mark.parametrize(("ruleset", "value"), [(MACEDONIAN, 20), (SERBIAN, 20), (POLISH51, 25)])
def test_penalty_joker_20_or_polish_25(ruleset, value):
    assert penalty(ruleset, "JK") == value


# ---- macedonian


def test_macedonian_normal_close_winner_minus_20_others_hand_sum():
    assert normal(MACEDONIAN) == DealResult(0, "normal", (-20, 13, 32), (0, 13, 32))


def test_macedonian_joker_close_winner_minus_40_others_double():
    assert joker_close(MACEDONIAN) == DealResult(0, "joker", (-40, 26, 64), (0, 13, 32))


def test_macedonian_hand_winner_minus_40_others_double():
    assert dry_hand(MACEDONIAN) == DealResult(0, "dry_hand", (-40, 26, 64), (0, 13, 32))


def test_macedonian_hand_with_lay_off_on_others_scores_as_a_normal_close():
    assert mixed_hand(MACEDONIAN) == DealResult(0, "normal", (-20, 13, 32), (0, 13, 32))


# ---- serbian (current)


def test_serbian_normal_close_winner_minus_40_others_hand_sum_or_100_unopened():
    assert normal(SERBIAN) == DealResult(0, "normal", (-40, 13, 100), (0, 13, 32))


def test_serbian_joker_close_scores_as_a_normal_close():
    assert joker_close(SERBIAN) == DealResult(0, "normal", (-40, 13, 100), (0, 13, 32))


def test_serbian_mixed_hand_winner_minus_140_others_double_or_200_unopened():
    assert mixed_hand(SERBIAN) == DealResult(0, "mixed_hand", (-140, 26, 200), (0, 13, 32))


def test_serbian_dry_hand_winner_minus_280_others_times_4_or_400_unopened():
    assert dry_hand(SERBIAN) == DealResult(0, "dry_hand", (-280, 52, 400), (0, 13, 32))


def test_serbian_dry_hand_closed_with_a_joker_is_still_a_dry_hand():
    result = scored(SERBIAN, OPENING_CARDS + " JK", OPENING, "discard JK", opened=False)
    assert result.finish == "dry_hand"
    assert result.scores == (-280, 52, 400)


# ---- the joker that doubles the close: a house rule, off on the serbian site
# "Varijanta da džoker u završnici duplira saldo je izbačena jer u starom remiju
# toga nije bilo."


@pytest.mark.parametrize("ruleset", [SERBIAN, OLD_REMI], ids=lambda r: r.name)
def test_the_joker_doubling_the_close_is_off_on_the_serbian_site(ruleset):
    assert ruleset.joker_close_doubles is False
    assert joker_close(ruleset).finish == "normal"


def test_serbian_house_rule_joker_close_doubles_every_score_of_the_normal_close():
    house = SERBIAN.replace(joker_close_doubles=True)
    assert joker_close(house) == DealResult(0, "joker", (-80, 26, 200), (0, 13, 32))
    assert normal(house) == normal(SERBIAN)  # a close with any other card is as before
    assert dry_hand(house) == dry_hand(SERBIAN)  # rows never stack: a hand stays a hand


def test_macedonian_joker_close_is_the_same_doubling():
    # "Победникот, доколку затвори со џокер ... добива -40 поени (на другите играчи им
    # се запишува двоен збир на нивните карти), односно ... -20 поени."
    assert MACEDONIAN.joker_close_doubles is True
    assert joker_close(MACEDONIAN).scores == tuple(2 * score for score in normal(MACEDONIAN).scores)


def test_scores_agreed_at_the_table_replace_the_programs():
    # The Macedonian text leaves scoring to the players' agreement.
    agreed = MACEDONIAN.replace(normal_close=FinishScoring(winner=-25, bonus=5), penalty_joker=50)
    assert normal(agreed) == DealResult(0, "normal", (-25, 18, 67), (0, 13, 62))
    assert joker_close(agreed).scores == (-50, 36, 134)


# ---- serbian "old remi" (the forum's proposal)


def test_old_remi_normal_close_winner_minus_40_others_hand_sum_or_100_unopened():
    assert normal(OLD_REMI) == DealResult(0, "normal", (-40, 13, 100), (0, 13, 32))


def test_old_remi_joker_close_scores_as_a_normal_close():
    assert joker_close(OLD_REMI).scores == (-40, 13, 100)


def test_old_remi_mixed_hand_winner_minus_80_others_single_or_100_unopened():
    assert mixed_hand(OLD_REMI) == DealResult(0, "mixed_hand", (-80, 13, 100), (0, 13, 32))


def test_old_remi_dry_hand_winner_minus_140_others_double_or_200_unopened():
    assert dry_hand(OLD_REMI) == DealResult(0, "dry_hand", (-140, 26, 200), (0, 13, 32))


# ---- polish51 (ace 11, joker 25; no unopened row)


def test_polish_normal_close_winner_0_others_hand_sum():
    assert normal(POLISH51) == DealResult(0, "normal", (0, 13, 38), (0, 13, 38))


def test_polish_joker_close_scores_as_a_normal_close():
    assert joker_close(POLISH51) == DealResult(0, "normal", (0, 13, 38), (0, 13, 38))


def test_polish_remik_winner_0_others_hand_sum_plus_25():
    assert dry_hand(POLISH51) == DealResult(0, "dry_hand", (0, 38, 63), (0, 13, 38))


def test_polish_remik_with_lay_off_on_others_scores_as_a_normal_close():
    assert mixed_hand(POLISH51) == DealResult(0, "normal", (0, 13, 38), (0, 13, 38))


# ---- unopened and void


def test_serbian_unopened_row_is_per_seat_never_opened_in_the_deal():
    # Seat 1 opened, so it pays its hand; seat 2 never did, so it pays the flat row.
    result = normal(SERBIAN)
    assert result.scores[1] == 13
    assert result.scores[2] == 100


def test_void_deal_has_no_winner_and_everyone_scores_0():
    # The stock is empty and the discard pile holds one card: nothing to reshuffle.
    deal = position(SERBIAN, "2C 3C", "KS 3D", stock="", drawn=True)
    result = play(deal, "discard 2C").result()
    assert result == DealResult(None, "void", (0, 0), (3, 13))


def test_deal_result_round_trips_through_a_dict():
    result = dry_hand(SERBIAN)
    assert DealResult.from_dict(result.to_dict()) == result
