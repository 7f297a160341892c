"""Card penalties left in hand (docs/rules.md §8) and meld values (§4), per preset."""

from __future__ import annotations

import pytest

from games.engine import PRESETS, Ruleset, card_penalty, check_meld, hand_penalty, meld_value
from games.engine.cards import Card, parse_cards
from games.engine.values import position_value

MACEDONIAN = PRESETS["macedonian"]
SERBIAN = PRESETS["serbian"]
POLISH = PRESETS["polish51"]
ALL_PRESETS = pytest.mark.parametrize("ruleset", list(PRESETS.values()), ids=list(PRESETS))


def penalty(text: str, ruleset: Ruleset) -> int:
    return hand_penalty(parse_cards(text), ruleset)


def value(text: str, ruleset: Ruleset) -> int:
    return meld_value(check_meld(parse_cards(text), ruleset), ruleset)


# ---------------------------------------------------------------- §8 penalty table, row by row


@ALL_PRESETS
@pytest.mark.parametrize("rank", range(2, 10))
def test_two_to_nine_left_in_hand_cost_face_value(ruleset: Ruleset, rank: int) -> None:
    for suit in "SHDC":
        assert card_penalty(Card.parse(f"{rank}{suit}"), ruleset) == rank


@ALL_PRESETS
def test_ten_left_in_hand_costs_10(ruleset: Ruleset) -> None:
    assert penalty("10S", ruleset) == 10


@ALL_PRESETS
def test_court_cards_left_in_hand_cost_10(ruleset: Ruleset) -> None:
    assert penalty("JS QH KD", ruleset) == 30


@pytest.mark.parametrize(("ruleset", "cost"), [(MACEDONIAN, 10), (SERBIAN, 10), (POLISH, 11)])
def test_ace_left_in_hand_costs_per_preset(ruleset: Ruleset, cost: int) -> None:
    assert penalty("AS", ruleset) == cost


@pytest.mark.parametrize(("ruleset", "cost"), [(MACEDONIAN, 20), (SERBIAN, 20), (POLISH, 25)])
def test_joker_left_in_hand_costs_per_preset(ruleset: Ruleset, cost: int) -> None:
    assert penalty("JK", ruleset) == cost


def test_macedonian_seed_hand_sum() -> None:
    # "Асот (A), Кралот (K), Дамата (Q), Жандарот (J) и Десетката (10) вредат по
    # 10 поени, а другите карти ... номинална вредност. Џокерот ... вреди 20 поени"
    assert penalty("AS KS QS JS 10S 2H 3H JK", MACEDONIAN) == 50 + 5 + 20


def test_serbian_seed_hand_sum() -> None:
    # "Slike vrede 10 poena, A vredi 10 a JOKER 20 poena."
    assert penalty("KS AH JK", SERBIAN) == 40


def test_polish_seed_hand_sum() -> None:
    # "as zawsze jest wart 11 punktów, jokery mają wartość 25 punktów, a figury 10"
    assert penalty("AS JK KD", POLISH) == 46


@ALL_PRESETS
def test_empty_hand_costs_nothing(ruleset: Ruleset) -> None:
    assert hand_penalty([], ruleset) == 0


@ALL_PRESETS
def test_twins_each_cost(ruleset: Ruleset) -> None:
    assert penalty("7H 7H", ruleset) == 14


# ---------------------------------------------------------------- §4 meld values


@pytest.mark.parametrize(
    ("ruleset", "low", "high", "royal"),
    [(MACEDONIAN, 10, 10, 10), (SERBIAN, 1, 10, 11), (POLISH, 1, 11, 11)],
    ids=["mk", "rs", "pl"],
)
def test_position_values_per_preset(ruleset: Ruleset, low: int, high: int, royal: int) -> None:
    assert [position_value(rank, ruleset) for rank in range(1, 15)] == [
        low, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, high
    ]  # fmt: skip
    assert value("10H JH QH KH AH", ruleset) == 40 + royal


@pytest.mark.parametrize(("ruleset", "total"), [(MACEDONIAN, 104), (SERBIAN, 96), (POLISH, 96)])
def test_longest_run_value_per_preset(ruleset: Ruleset, total: int) -> None:
    # A 2 … K A: low ace + 2..9 + 10 J Q K + high ace (serbian: the royal 11).
    assert value("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", ruleset) == total


@ALL_PRESETS
def test_set_of_four_counts_four_times_its_rank(ruleset: Ruleset) -> None:
    assert value("9S 9H 9D 9C", ruleset) == 36
    assert value("KS KH KD JK", ruleset) == 40


@ALL_PRESETS
def test_set_of_aces_counts_the_high_ace(ruleset: Ruleset) -> None:
    assert value("AS AH AD AC", ruleset) == 4 * ruleset.ace_high_value


def test_house_rule_changes_ace_values() -> None:
    house = MACEDONIAN.replace(name="house", ace_low_value=1, ace_high_value=11)
    assert value("AH 2H 3H", house) == 6
    assert value("QH KH AH", house) == 31


def test_royal_rule_is_a_ruleset_field() -> None:
    assert value("10H JH QH KH AH", MACEDONIAN.replace(royal_run_ace_value=11)) == 51
    assert value("10H JH QH KH AH", SERBIAN.replace(royal_run_ace_value=None)) == 50
