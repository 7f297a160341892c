"""The prize pool of Remik 51, in whole chips: the winner gets at least 75 %, the
others below 50 penalty points share 25 % by how far below 50 they finished."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.pot import OTHERS_PERCENT, SHARE_BELOW, split_pot

# The Polish seed, verbatim.
SEED_POT = (
    "Po zakończeniu gry pula nagród jest dzielona między graczy w zależności od ilości "
    "zgromadzonych przez nich punktów karnych. Zwycięzca otrzymuje co najmniej 75% nagrody. "
    "Pozostałe 25% jest dzielone między pozostałych graczy, pod warunkiem, że mają mniej niż "
    "50 punktów karnych."
)


def test_the_seed_rule_75_for_the_winner_25_by_penalty_points_below_50() -> None:
    assert "co najmniej 75% nagrody" in SEED_POT and "mniej niż 50 punktów karnych" in SEED_POT
    assert (OTHERS_PERCENT, SHARE_BELOW) == (25, 50)
    # Four players staked 100 each. Seat 0 won; 10 and 40 points are below 50, 60 is not.
    split = split_pot(400, [0, 10, 40, 60], [0])
    # The quarter (100) by 50 − points: 40 : 10.
    assert split.payouts == (300, 80, 20, 0)
    assert (split.winners_part, split.others_part) == (300, 100)


def test_with_nobody_below_50_the_winner_takes_the_whole_pot() -> None:
    assert split_pot(300, [0, 50, 77], [0]).payouts == (300, 0, 0)


def test_rounding_goes_to_the_winner() -> None:
    # The quarter of 7 is 1 (rounded down); 1 × 40/70 and 1 × 30/70 round down to 0.
    assert split_pot(7, [0, 10, 20], [0]).payouts == (7, 0, 0)
    # The quarter of 101 is 25: 25 × 45/60 = 18.75 → 18, 25 × 15/60 = 6.25 → 6; 77 left.
    assert split_pot(101, [5, 0, 35], [1]).payouts == (18, 77, 6)


def test_tied_winners_split_their_part_and_the_odd_chips_go_from_the_lowest_seat() -> None:
    assert split_pot(9, [0, 0, 70], [1, 0]).payouts == (5, 4, 0)


def test_a_player_who_left_the_game_shares_nothing() -> None:
    assert split_pot(200, [0, 10, 10], [0], in_game=[True, False, True]).payouts == (150, 0, 50)


def test_an_empty_pot_pays_nothing() -> None:
    assert split_pot(0, [0, 10], [0]).payouts == (0, 0)


@pytest.mark.parametrize(
    ("pot", "penalties", "winners", "in_game"),
    [
        (-1, [0, 10], [0], None),
        (100, [0, 10], [], None),
        (100, [0, 10], [2], None),
        (100, [0, 10], [0], [True]),
    ],
)
def test_bad_arguments_are_refused(
    pot: int, penalties: list[int], winners: list[int], in_game: list[bool] | None
) -> None:
    with pytest.raises(ValueError):
        split_pot(pot, penalties, winners, in_game=in_game)


@st.composite
def endings(draw: st.DrawFn) -> tuple[int, list[int], list[int], list[bool]]:
    seats = draw(st.integers(2, 6))
    penalties = draw(st.lists(st.integers(-300, 400), min_size=seats, max_size=seats))
    winners = draw(st.sets(st.integers(0, seats - 1), min_size=1, max_size=seats))
    in_game = draw(st.lists(st.booleans(), min_size=seats, max_size=seats))
    pot = draw(st.integers(0, 10**9))
    return pot, penalties, sorted(winners), in_game


@given(endings())
def test_every_chip_of_the_pot_is_paid_and_the_winners_get_at_least_75_percent(
    ending: tuple[int, list[int], list[int], list[bool]],
) -> None:
    pot, penalties, winners, in_game = ending
    split = split_pot(pot, penalties, winners, in_game=in_game)
    assert sum(split.payouts) == pot
    assert all(chips >= 0 for chips in split.payouts)
    assert sum(split.payouts[seat] for seat in winners) == split.winners_part
    assert split.winners_part * 100 >= pot * (100 - OTHERS_PERCENT)
    # Tied winners are at most one chip apart.
    winners_got = [split.payouts[seat] for seat in winners]
    assert max(winners_got) - min(winners_got) <= 1


@given(endings())
def test_the_quarter_goes_by_how_far_below_50_each_other_player_finished(
    ending: tuple[int, list[int], list[int], list[bool]],
) -> None:
    pot, penalties, winners, in_game = ending
    split = split_pot(pot, penalties, winners, in_game=in_game)
    quarter = pot * OTHERS_PERCENT // 100
    weights = {
        seat: SHARE_BELOW - penalty
        for seat, penalty in enumerate(penalties)
        if seat not in winners and in_game[seat] and penalty < SHARE_BELOW
    }
    total = sum(weights.values())
    for seat in range(len(penalties)):
        if seat in winners:
            continue
        if seat not in weights:
            assert split.payouts[seat] == 0
            continue
        exact = quarter * weights[seat] / total
        assert exact - 1 < split.payouts[seat] <= exact  # rounded down, never up
    # Fewer penalty points never earn fewer chips.
    sharers = sorted(weights, key=lambda seat: penalties[seat])
    got = [split.payouts[seat] for seat in sharers]
    assert got == sorted(got, reverse=True)
