"""The meld solver, and check_meld against an independent definition.

The solver must be exact: on hands of up to 10 cards its results are checked
against a brute force that knows nothing of the solver's candidate generation;
it enumerates every sub-multiset of the hand and asks ``check_meld`` and
``meld_value`` (the definitions) about every possible laid-out order.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    JOKER,
    PRESETS,
    Card,
    IllegalMeld,
    Meld,
    Ruleset,
    Suit,
    best_opening,
    best_partition,
    candidate_melds,
    check_meld,
    full_pack,
    hand_penalty,
    meld_value,
    opening_for_turn,
    parse_cards,
    remaining_cards,
)

MACEDONIAN = PRESETS["macedonian"]
SERBIAN = PRESETS["serbian"]
POLISH = PRESETS["polish51"]
ALL_PRESETS = pytest.mark.parametrize("ruleset", list(PRESETS.values()), ids=list(PRESETS))
STANDARD = [card for card in full_pack(0)[:52]]


# ---------------------------------------------------------------- an independent meld definition


def _card_at(suit: Suit, position: int) -> Card:
    return Card(1 if position == 14 else position, suit)


def _as_run(cards: Sequence[Card], ruleset: Ruleset, laid_down: bool) -> tuple[int, Suit] | None:
    """(low, suit) if the cards, read in this order, are the positions low.. of a run."""
    count = len(cards)
    jokers = sum(card is JOKER for card in cards)
    if any(a is JOKER and b is JOKER for a, b in itertools.pairwise(cards)):
        return None
    limit = ruleset.max_jokers_in_run_laid
    if laid_down and limit is not None and jokers > limit:
        return None
    for suit in Suit:
        for low in range(1, 14 - count + 2):
            pattern = [_card_at(suit, low + offset) for offset in range(count)]
            if jokers == 0:
                # Without jokers the order does not matter.
                if sorted(pattern) == sorted(cards):
                    return low, suit
            elif all(
                card is JOKER or card is want for card, want in zip(cards, pattern, strict=True)
            ):
                return low, suit
    return None


def definition(
    cards: Sequence[Card], ruleset: Ruleset, laid_down: bool
) -> tuple[str, int, Suit | None] | None:
    """docs/rules.md §3 written out: what meld the cards form, or None."""
    reals = [card for card in cards if card is not JOKER]
    if len(cards) < 3 or not reals:
        return None
    jokers = len(cards) - len(reals)
    if (
        len(cards) <= 4
        and len({card.rank for card in reals}) == 1
        and len({card.suit for card in reals}) == len(reals)
        and jokers <= ruleset.max_jokers_in_set
    ):
        return "set", reals[0].rank, None
    # A run is given low to high; high to low reads the same reversed.
    run = _as_run(cards, ruleset, laid_down) or _as_run(cards[::-1], ruleset, laid_down)
    return None if run is None else ("run", *run)


def checked(
    cards: Sequence[Card], ruleset: Ruleset, laid_down: bool
) -> tuple[str, int, Suit | None] | None:
    try:
        meld = check_meld(cards, ruleset, laid_down=laid_down)
    except IllegalMeld:
        return None
    assert sorted(meld.cards) == sorted(cards)
    return meld.kind.value, meld.low, meld.suit


@st.composite
def meld_like(draw: st.DrawFn) -> list[Card]:
    """Card sequences near the edge of validity: runs, sets, noise, then a mutation."""
    shape = draw(st.sampled_from(["run", "set", "noise"]))
    if shape == "run":
        suit = draw(st.sampled_from(list(Suit)))
        count = draw(st.integers(3, 14))
        low = draw(st.integers(1, 16 - count))  # may run one past the ace: K A 2 wraps
        positions = [low + i if low + i <= 14 else low + i - 13 for i in range(count)]
        cards = [
            JOKER if draw(st.integers(0, 4)) == 0 else _card_at(suit, position)
            for position in positions
        ]
    elif shape == "set":
        rank = draw(st.integers(1, 13))
        suits = draw(st.lists(st.sampled_from(list(Suit)), min_size=1, max_size=5))
        cards = [Card(rank, suit) for suit in suits] + [JOKER] * draw(st.integers(0, 2))
        cards = draw(st.permutations(cards))
    else:
        cards = draw(st.lists(st.sampled_from([*STANDARD, JOKER]), min_size=0, max_size=6))
    mutation = draw(st.sampled_from(["none", "swap", "reverse", "replace"]))
    if mutation == "swap" and len(cards) > 1:
        i, j = draw(st.lists(st.integers(0, len(cards) - 1), min_size=2, max_size=2, unique=True))
        cards[i], cards[j] = cards[j], cards[i]
    elif mutation == "reverse":
        cards.reverse()
    elif mutation == "replace" and cards:
        cards[draw(st.integers(0, len(cards) - 1))] = draw(st.sampled_from([*STANDARD, JOKER]))
    return list(cards)


@settings(max_examples=1500, deadline=None)
@given(meld_like())
def test_check_meld_accepts_exactly_the_definition(cards: list[Card]) -> None:
    for ruleset in PRESETS.values():
        for laid_down in (True, False):
            assert checked(cards, ruleset, laid_down) == definition(cards, ruleset, laid_down)


# ---------------------------------------------------------------- a brute-force solver


def _orders(cards: Sequence[Card]) -> Iterator[tuple[Card, ...]]:
    """Every laid-out order worth trying: all of them up to 4 cards; beyond
    that only a run is possible, so its real cards in rank order (an ace at
    either end) with the jokers in every combination of places."""
    if len(cards) <= 4:
        yield from set(itertools.permutations(cards))
        return
    reals = [card for card in cards if card is not JOKER]
    aces = [card for card in reals if card.rank == 1]
    others = sorted((card for card in reals if card.rank != 1), key=lambda card: card.rank)
    bases = {0: [others], 1: [aces + others, others + aces], 2: [aces[:1] + others + aces[1:]]}
    for base in bases.get(len(aces), []):
        for places in itertools.combinations(range(len(cards)), len(cards) - len(reals)):
            rest = iter(base)
            yield tuple(JOKER if i in places else next(rest) for i in range(len(cards)))


def _best_value(cards: Sequence[Card], ruleset: Ruleset) -> int | None:
    reals = [card for card in cards if card is not JOKER]
    if len({card.suit for card in reals}) > 1 and len({card.rank for card in reals}) > 1:
        return None  # neither one suit nor one rank
    values = []
    for order in _orders(cards):
        with contextlib.suppress(IllegalMeld):
            values.append(meld_value(check_meld(order, ruleset), ruleset))
    return max(values, default=None)


def brute_force(hand: Sequence[Card], ruleset: Ruleset) -> tuple[int, int]:
    """(best opening value, least leftover penalty) over every packing of melds."""
    melds: list[tuple[int, int, int]] = []  # (mask over hand positions, value, penalty)
    for size in range(3, len(hand) + 1):
        for chosen in itertools.combinations(range(len(hand)), size):
            cards = [hand[i] for i in chosen]
            worth = _best_value(cards, ruleset)
            if worth is not None:
                mask = sum(1 << i for i in chosen)
                melds.append((mask, worth, hand_penalty(cards, ruleset)))

    def best(which: int) -> int:
        memo: dict[int, int] = {}

        def solve(mask: int) -> int:
            if not mask:
                return 0
            if mask not in memo:
                low = mask & -mask
                options = [solve(mask ^ low)]
                for taken, *scores in melds:
                    if taken & low and taken & mask == taken:
                        options.append(scores[which] + solve(mask ^ taken))
                memo[mask] = max(options)
            return memo[mask]

        return solve((1 << len(hand)) - 1)

    return best(0), hand_penalty(hand, ruleset) - best(1)


@st.composite
def hands(draw: st.DrawFn, ruleset: Ruleset, max_size: int = 10) -> list[Card]:
    """Hands from the ruleset's pack, often dense (few suits, a window of ranks)."""
    pack = full_pack(ruleset.jokers)
    pool = list(range(len(pack)))
    if draw(st.integers(0, 3)):
        suits = draw(st.sets(st.sampled_from(list(Suit)), min_size=1, max_size=4))
        low = draw(st.integers(1, 13))
        ranks = {(low - 1 + i) % 13 + 1 for i in range(draw(st.integers(3, 7)))}
        pool = [
            i for i in pool if pack[i] is JOKER or (pack[i].suit in suits and pack[i].rank in ranks)
        ]
    size = draw(st.integers(min(3, max_size), min(max_size, len(pool))))
    picks = draw(st.lists(st.sampled_from(pool), unique=True, min_size=size, max_size=size))
    return [pack[i] for i in picks]


def assert_valid_melds_from(melds: list[Meld], hand: list[Card], ruleset: Ruleset) -> None:
    for meld in melds:
        assert check_meld(meld.cards, ruleset) == meld  # laid-out order, lay-down limits
    remaining_cards(hand, melds)  # raises if the melds take a card the hand lacks


@ALL_PRESETS
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_solver_is_optimal_against_brute_force(ruleset: Ruleset, data: st.DataObject) -> None:
    hand = data.draw(hands(ruleset))
    opening = best_opening(hand, ruleset)
    partition = best_partition(hand, ruleset)
    assert_valid_melds_from(opening, hand, ruleset)
    assert_valid_melds_from(partition, hand, ruleset)
    most_value, least_penalty = brute_force(hand, ruleset)
    assert sum(meld_value(meld, ruleset) for meld in opening) == most_value
    assert hand_penalty(remaining_cards(hand, partition), ruleset) == least_penalty


@ALL_PRESETS
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_keeping_a_card_back_is_the_best_over_hands_one_card_short(
    ruleset: Ruleset, data: st.DataObject
) -> None:
    hand = data.draw(hands(ruleset, max_size=9))
    kept = best_opening(hand, ruleset, keep=1)
    assert_valid_melds_from(kept, hand, ruleset)
    assert len(remaining_cards(hand, kept)) >= 1 or not hand
    shorter = [best_opening(hand[:i] + hand[i + 1 :], ruleset) for i in range(len(hand))]
    best = max((sum(meld_value(m, ruleset) for m in melds) for melds in shorter), default=0)
    assert sum(meld_value(meld, ruleset) for meld in kept) == best


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_results_do_not_depend_on_the_order_of_the_hand(data: st.DataObject) -> None:
    hand = data.draw(hands(MACEDONIAN, max_size=20))
    shuffled = data.draw(st.permutations(hand))
    assert best_opening(hand, MACEDONIAN) == best_opening(shuffled, MACEDONIAN)
    assert best_partition(hand, MACEDONIAN) == best_partition(shuffled, MACEDONIAN)


@ALL_PRESETS
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_twenty_card_hands_give_valid_melds(ruleset: Ruleset, data: st.DataObject) -> None:
    hand = data.draw(hands(ruleset, max_size=20))
    for solve in (best_opening, best_partition):
        assert_valid_melds_from(solve(hand, ruleset), hand, ruleset)


# ---------------------------------------------------------------- fixed cases


def opening(text: str, ruleset: Ruleset, **options: int) -> tuple[list[str], int]:
    melds = best_opening(parse_cards(text), ruleset, **options)
    return [str(meld) for meld in melds], sum(meld_value(meld, ruleset) for meld in melds)


def partition(text: str, ruleset: Ruleset) -> tuple[list[str], int]:
    hand = parse_cards(text)
    melds = best_partition(hand, ruleset)
    return [str(meld) for meld in melds], hand_penalty(remaining_cards(hand, melds), ruleset)


@ALL_PRESETS
def test_no_meld_no_opening(ruleset: Ruleset) -> None:
    assert best_opening([], ruleset) == []
    assert best_opening(parse_cards("AS 5H 9D KC JK"), ruleset) == []
    assert best_partition(parse_cards("AS 5H 9D KC JK"), ruleset) == []


def test_joker_ending_ten_to_king_is_the_serbian_royal_ace() -> None:
    assert opening("10H JH QH KH JK", SERBIAN) == (["10H JH QH KH JK"], 51)
    assert opening("JK 10H JH QH KH", SERBIAN) == (["10H JH QH KH JK"], 51)


def test_joker_before_two_three_takes_the_better_end_per_preset() -> None:
    # Macedonian: the low ace counts 10, more than the 4 at the high end.
    assert opening("JK 2H 3H", MACEDONIAN) == (["JK 2H 3H"], 15)
    # Serbian and polish51: the low ace counts 1, so the joker goes high.
    assert opening("JK 2H 3H", SERBIAN) == (["2H 3H JK"], 9)
    assert opening("JK 2H 3H", POLISH) == (["2H 3H JK"], 9)


def test_polish_joker_after_queen_king_is_the_eleven_point_ace() -> None:
    assert opening("JK QH KH", POLISH) == (["QH KH JK"], 31)


def test_joker_in_a_set_takes_any_missing_suit() -> None:
    assert opening("9S 9H JK 4C", SERBIAN) == (["9S 9H JK"], 27)


def test_long_run_is_split_when_a_set_needs_one_of_its_cards() -> None:
    assert opening("3H 4H 5H 6H 7H 8H 5S 5D", SERBIAN) == (["5S 5H 5D", "6H 7H 8H"], 36)
    assert partition("3H 4H 5H 6H 7H 8H 5S 5D", SERBIAN) == (["5S 5H 5D", "6H 7H 8H"], 7)


def test_twins_make_two_runs() -> None:
    assert opening("5H 6H 7H 5H 6H 7H", SERBIAN) == (["5H 6H 7H", "5H 6H 7H"], 36)


def test_twins_make_two_sets_with_a_joker() -> None:
    assert opening("7H 7H 7S 7D 7C JK", MACEDONIAN)[1] == 42


def test_two_aces_close_the_longest_run() -> None:
    hand = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
    assert opening(hand, MACEDONIAN) == ([hand], 104)


def test_serbian_lays_one_joker_per_run() -> None:
    assert opening("5C JK 7C JK 9C", SERBIAN) == (["7C JK 9C"], 24)
    assert opening("5C JK 7C JK 9C", MACEDONIAN) == (["5C JK 7C JK 9C"], 35)


def test_two_jokers_never_stand_side_by_side() -> None:
    assert opening("5C JK JK 8C", MACEDONIAN) == (["JK 8C JK"], 24)


def test_joker_stands_in_for_a_card_held_but_needed_elsewhere() -> None:
    # The 6C is wanted by the run and by the set: the joker is the run's 6.
    assert opening("4C 5C 6C 6S 6D JK", SERBIAN) == (["6S 6D 6C", "4C 5C JK"], 33)


def test_forum_bug_hand_cannot_open() -> None:
    hand = parse_cards("KH QH JK 10H 3S")
    assert opening("KH QH JK 10H 3S", SERBIAN) == (["10H JK QH KH"], 40)
    assert opening_for_turn(hand, SERBIAN) == []


def test_opening_for_turn_keeps_a_card_to_discard() -> None:
    # All eight cards meld for 69, but one must stay for the discard: then
    # 10-J-Q-K-A alone (51) loses to 10-J-Q-K or J-Q-K-A with 5-6-7 (58).
    hand = parse_cards("10H JH QH KH AH 5C 6C 7C")
    assert [str(meld) for meld in opening_for_turn(hand, SERBIAN)] == ["10H JH QH KH", "5C 6C 7C"]
    assert opening("10H JH QH KH AH 5C 6C 7C", SERBIAN, keep=1)[1] == 58
    assert opening("10H JH QH KH AH 5C 6C 7C", SERBIAN)[1] == 69


def test_opening_for_turn_needs_the_minimum() -> None:
    assert opening_for_turn(parse_cards("10H JH QH KH AH 2C"), SERBIAN) != []
    assert opening_for_turn(parse_cards("10H JH QH KH AH 2C"), MACEDONIAN) == []  # 50


def test_opening_ties_go_to_the_melds_laying_away_more_penalty() -> None:
    # Both are worth 6 in serbian; the run takes the 10-point ace out of the hand.
    assert opening("AD 2D 3D 2S 2H", SERBIAN) == (["AD 2D 3D"], 6)


def test_opening_ties_go_to_fewer_melds() -> None:
    assert opening("5C 6C 7C 8C 9C 10C", SERBIAN) == (["5C 6C 7C 8C 9C 10C"], 45)


def test_partition_prefers_laying_away_penalty_then_value() -> None:
    # Either 5-6-7 or 6-7-8 of clubs: same cards count; the 8 costs more than the 5.
    assert partition("5C 6C 7C 8C JK", SERBIAN) == (["5C 6C 7C 8C JK"], 0)
    assert partition("5C 6C 7C 5S 5D", SERBIAN) == (["5C 6C 7C"], 10)


def test_partition_sends_the_joker_where_it_saves_most() -> None:
    # On the run it would save only itself; with the nines it saves them too.
    assert partition("2S 3S 4S JK 9D 9H", SERBIAN) == (["2S 3S 4S", "9H 9D JK"], 0)


def test_candidate_melds_lists_every_distinct_meld() -> None:
    melds = {str(meld) for meld in candidate_melds(parse_cards("5C 6C 7C JK"), SERBIAN)}
    assert melds == {
        "5C 6C 7C",
        "5C 6C 7C JK",
        "5C 6C JK",
        "5C JK 7C",
        "6C 7C JK",
    }


def test_remaining_cards_is_a_multiset_difference() -> None:
    hand = parse_cards("7H 7H 8H 9H 2S")
    melds = [check_meld(parse_cards("7H 8H 9H"), SERBIAN)]
    assert remaining_cards(hand, melds) == parse_cards("7H 2S")
    with pytest.raises(ValueError, match="the melds take 9H more often than the cards hold it"):
        remaining_cards(parse_cards("7H 8H"), melds)


def test_solver_refuses_three_copies_of_a_card() -> None:
    with pytest.raises(ValueError, match="at most 2 of each card"):
        best_opening(parse_cards("7H 7H 7H"), SERBIAN)


HARD_HANDS = [
    "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 2H 4H 6H",
    "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 5S 5D 5C",
    "5S 6S 7S 8S 5H 6H 7H 8H 5D 6D 7D 8D 5C 6C 7C 8C",
]


@pytest.mark.parametrize("text", HARD_HANDS)
@ALL_PRESETS
def test_hard_hands_with_every_joker_meld_completely(text: str, ruleset: Ruleset) -> None:
    hand = parse_cards(text) + [JOKER] * ruleset.jokers
    melds = best_partition(hand, ruleset)
    assert_valid_melds_from(melds, hand, ruleset)
    if ruleset.max_jokers_in_run_laid is None:
        assert remaining_cards(hand, melds) == []
