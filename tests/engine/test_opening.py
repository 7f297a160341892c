"""Opening (docs/rules.md §4): 51 in one lay-down, meld values per preset, the first-round ban,
and the joker limits of §3 at lay-down."""

from __future__ import annotations

import pytest

from tests.engine.helpers import (
    ALL_RULESETS,
    MACEDONIAN,
    POLISH51,
    SERBIAN,
    play,
    position,
    refused,
)


def to_open(ruleset, hand, **options):
    """Seat 0 has drawn and may open; seat 1 owns a run on the table."""
    options.setdefault("table", [(1, "4D 5D 6D")])
    return position(ruleset, hand, "KS KD", drawn=True, **options)


def worth(ruleset, meld: str) -> int:
    """A meld's value toward the opening, read from the refusal of it alone.

    Two cards stay in hand: laying all but one would be a hand, which old remi
    lets go out below 51."""
    error = refused(to_open(ruleset, meld + " 2C 9S"), f"lay {meld}")
    assert error.code == "opening_too_low"
    return int(str(error).split("worth ")[1].split(";")[0])


@pytest.mark.parametrize("ruleset", ALL_RULESETS, ids=lambda r: r.name)
def test_opening_needs_melds_worth_51_in_one_lay_down(ruleset):
    deal = to_open(ruleset, "10H JH QH 7S 7D 7C 2C")
    opened = play(deal, "lay 10H JH QH | 7S 7D 7C")
    assert opened.opened == {0, 1}
    assert [str(meld) for meld in opened.table[1:]] == ["10H JH QH", "7S 7D 7C"]


@pytest.mark.parametrize("ruleset", ALL_RULESETS, ids=lambda r: r.name)
def test_opening_worth_50_is_refused_and_the_message_names_the_total(ruleset):
    error = refused(to_open(ruleset, "JK 10H JH 7S 7D 7C 2C 9S"), "lay JK 10H JH | 7S 7D 7C")
    assert error.code == "opening_too_low"
    assert str(error).startswith("these melds are worth 50; opening needs 51")


def test_forum_bug_opening_with_KH_QH_JK_10H_worth_40_is_refused():
    # The serbian forum: "Može se otvoriti sa 40... 14,13,joker i 10, dozvoljava da se otvoriš."
    error = refused(to_open(SERBIAN, "KH QH JK 10H 2C 3D"), "lay KH QH JK 10H")
    assert error.code == "opening_too_low"
    assert str(error) == "these melds are worth 40; opening needs 51"


def test_opening_is_one_lay_down_not_a_sum_over_the_turn():
    # The UI's staging row gathers an opening; the engine receives it whole.
    deal = to_open(SERBIAN, "10H JH QH 7S 7D 7C 2C")
    assert refused(deal, "lay 10H JH QH").code == "opening_too_low"


def test_after_opening_any_new_meld_may_be_laid_in_the_same_turn():
    deal = play(
        to_open(SERBIAN, "10H JH QH KH 7S 7D 7C 2C 3C 4C 9D"), "lay 10H JH QH KH | 7S 7D 7C"
    )
    deal = play(deal, "lay 2C 3C 4C")
    assert str(deal.table[-1]) == "2C 3C 4C"


def test_opened_player_lays_any_meld_in_a_later_turn():
    deal = to_open(SERBIAN, "2C 3C 4C 9D", opened=[0])
    assert str(play(deal, "lay 2C 3C 4C").table[-1]) == "2C 3C 4C"


@pytest.mark.parametrize("move", ["off 3D 0", "swap 7D 0"])
def test_until_opened_no_lay_off_and_no_joker_swap(move):
    deal = to_open(SERBIAN, "3D 7D 9S", table=[(1, "4D 5D 6D"), (1, "JK 8D 9D")])
    error = refused(deal, move)
    assert error.code == "not_opened"
    assert "you must open (melds worth 51)" in str(error)


def test_lay_offs_do_not_count_toward_the_opening_but_follow_it_in_the_same_turn():
    deal = to_open(SERBIAN, "10H JH QH 7S 7D 7C 3D 2C")
    assert refused(deal, "off 3D 0").code == "not_opened"
    deal = play(deal, "lay 10H JH QH | 7S 7D 7C", "off 3D 0")
    assert str(deal.table[0]) == "3D 4D 5D 6D"


def test_macedonian_may_not_open_in_first_round():
    hand = "10H JH QH KH 7S 7D 7C 2C"
    deal = to_open(MACEDONIAN, hand, first_round=True)
    error = refused(deal, "lay 10H JH QH KH | 7S 7D 7C")
    assert error.code == "no_opening_in_first_round"
    assert not [action for action in deal.legal_actions() if action.kind == "lay"]
    assert play(to_open(MACEDONIAN, hand), "lay 10H JH QH KH | 7S 7D 7C").opened == {0, 1}


def test_macedonian_first_round_ban_covers_every_seat_first_turn():
    from random import Random

    from games.engine import Deal

    deal = Deal.new(MACEDONIAN, 3, dealer=2, rng=Random(5))
    for _ in range(3):
        assert deal.first_round
        assert {action.kind for action in deal.legal_actions()} <= {"discard", "draw"}
        if not deal.drawn:
            deal = play(deal, "draw")
        deal = deal.apply(deal.legal_actions()[0])
    assert not deal.first_round


@pytest.mark.parametrize("ruleset", [SERBIAN, POLISH51])
def test_serbian_and_polish_may_open_in_first_round(ruleset):
    deal = to_open(ruleset, "10H JH QH KH 7S 7D 7C 2C", first_round=True)
    assert play(deal, "lay 10H JH QH KH | 7S 7D 7C").opened == {0, 1}


# ---- meld values (docs/rules.md §4 table), read from the opening's refusal message


@pytest.mark.parametrize("ruleset", ALL_RULESETS, ids=lambda r: r.name)
def test_cards_2_to_9_count_face_value(ruleset):
    assert worth(ruleset, "7H 8H 9H") == 24
    assert worth(ruleset, "2S 2D 2C") == 6


@pytest.mark.parametrize("ruleset", ALL_RULESETS, ids=lambda r: r.name)
def test_10_j_q_k_count_10(ruleset):
    assert worth(ruleset, "10S JS QS KS") == 40


@pytest.mark.parametrize(("ruleset", "value"), [(MACEDONIAN, 15), (SERBIAN, 6), (POLISH51, 6)])
def test_low_ace_counts_10_macedonian_1_serbian_and_polish(ruleset, value):
    assert worth(ruleset, "AH 2H 3H") == value


@pytest.mark.parametrize(("ruleset", "value"), [(MACEDONIAN, 30), (SERBIAN, 30), (POLISH51, 31)])
def test_high_ace_counts_10_macedonian_and_serbian_11_polish(ruleset, value):
    assert worth(ruleset, "QH KH AH") == value


@pytest.mark.parametrize(("ruleset", "value"), [(MACEDONIAN, 30), (SERBIAN, 30), (POLISH51, 33)])
def test_ace_in_a_set_counts_as_a_high_ace(ruleset, value):
    assert worth(ruleset, "AH AS AD") == value


@pytest.mark.parametrize("ruleset", ALL_RULESETS, ids=lambda r: r.name)
def test_joker_counts_as_the_card_it_stands_for(ruleset):
    assert worth(ruleset, "7H JK 9H") == 24
    assert worth(ruleset, "JK 5C 6C") == 15  # the leftmost joker is the 4
    assert worth(ruleset, "5C 6C JK") == 18  # the rightmost joker is the 7
    assert worth(ruleset, "QS QD JK") == 30  # in a set: the set's rank


@pytest.mark.parametrize(("ruleset", "value"), [(MACEDONIAN, 30), (SERBIAN, 30), (POLISH51, 33)])
def test_joker_in_a_set_of_aces_counts_as_an_ace(ruleset, value):
    assert worth(ruleset, "AS AD JK") == value


def test_serbian_royal_run_10_to_ace_counts_51_and_opens_alone():
    deal = play(to_open(SERBIAN, "10H JH QH KH AH 2C"), "lay 10H JH QH KH AH")
    assert deal.opened == {0, 1}
    # A joker standing for one of 10, J, Q, K still makes it royal.
    assert play(to_open(SERBIAN, "10H JK QH KH AH 2C"), "lay 10H JK QH KH AH").opened == {0, 1}


def test_macedonian_royal_run_is_worth_50_and_does_not_open_alone():
    assert worth(MACEDONIAN, "10H JH QH KH AH") == 50


# ---- jokers per meld at lay-down (docs/rules.md §3 table)


@pytest.mark.parametrize("ruleset", [MACEDONIAN, POLISH51])
def test_macedonian_and_polish_runs_take_any_number_of_jokers(ruleset):
    deal = to_open(ruleset, "JK 8H JK 10H JH 3S 3D 3C 5C")
    assert play(deal, "lay JK 8H JK 10H JH | 3S 3D 3C").table[-2].meld.jokers == 2


@pytest.mark.parametrize("ruleset", ALL_RULESETS, ids=lambda r: r.name)
def test_jokers_never_side_by_side_in_a_run(ruleset):
    error = refused(to_open(ruleset, "7H JK JK 10H JH 2C"), "lay 7H JK JK 10H JH")
    assert error.code == "adjacent_jokers"


def test_serbian_run_is_laid_down_with_at_most_one_joker():
    error = refused(
        to_open(SERBIAN, "JK 8H JK 10H JH 2S 2D 2C 5C"), "lay JK 8H JK 10H JH | 2S 2D 2C"
    )
    assert error.code == "too_many_jokers"


@pytest.mark.parametrize("ruleset", ALL_RULESETS, ids=lambda r: r.name)
def test_a_set_holds_at_most_one_joker(ruleset):
    error = refused(to_open(ruleset, "10D JK 10C JK 2C"), "lay 10D JK 10C JK")
    assert error.code == "too_many_jokers"


@pytest.mark.parametrize("ruleset", ALL_RULESETS, ids=lambda r: r.name)
def test_runs_do_not_wrap_around(ruleset):
    error = refused(to_open(ruleset, "QH KH AH 2H 5C"), "lay QH KH AH 2H")
    assert error.code == "wrap_around"


def test_meld_errors_pass_through_with_their_code_and_message():
    error = refused(to_open(SERBIAN, "7H 8H 10H 2C"), "lay 7H 8H 10H")
    assert error.code == "not_consecutive"
    assert "consecutive" in str(error)


def test_lay_down_needs_cards_in_hand():
    assert refused(to_open(SERBIAN, "7H 8H 2C"), "lay 7H 8H 9H").code == "card_not_in_hand"


# ---- asking ahead: Deal.check_opening (the table page's staging row)


def melds_of(deal, *texts: str):
    from games.engine import arrange_meld, parse_cards

    return [arrange_meld(parse_cards(text), deal.ruleset) for text in texts]


def opening_error(deal, seat: int, *texts: str):
    from games.engine import IllegalAction

    with pytest.raises(IllegalAction) as caught:
        deal.check_opening(seat, melds_of(deal, *texts))
    return caught.value


@pytest.mark.parametrize("ruleset", ALL_RULESETS, ids=lambda r: r.name)
def test_check_opening_answers_what_the_lay_down_would(ruleset):
    deal = to_open(ruleset, "10H JH QH 7S 7D 7C JK 2C")
    assert deal.check_opening(0, melds_of(deal, "10H JH QH", "7S 7D 7C")) == 51
    error = opening_error(deal, 0, "JK 10H JH", "7S 7D 7C")
    assert error.code == "opening_too_low"
    assert str(error) == str(refused(deal, "lay JK 10H JH | 7S 7D 7C"))


def test_check_opening_follows_the_rulesets_minimum():
    ruleset = SERBIAN.replace(opening_minimum=60)
    deal = to_open(ruleset, "10H JH QH 7S 7D 7C 2C")
    error = opening_error(deal, 0, "10H JH QH", "7S 7D 7C")
    assert str(error) == "these melds are worth 51; opening needs 60"


def test_check_opening_counts_the_card_a_seat_will_draw():
    # Seat 1 is not to move: after its draw, all its cards laid down would leave one.
    deal = position(SERBIAN, "2C 3C", "10H JH QH 7S 7D 7C", drawn=True)
    assert deal.check_opening(1, melds_of(deal, "10H JH QH", "7S 7D 7C")) == 51
    # Seat 0 has drawn: laying everything down leaves nothing to discard.
    deal = to_open(SERBIAN, "10H JH QH 7S 7D 7C")
    assert opening_error(deal, 0, "10H JH QH", "7S 7D 7C").code == "last_card"


def test_check_opening_knows_the_hand_without_51_and_the_first_round_ban():
    low = "2H 3H 4H 3S 3H 3C"
    deal = to_open(SERBIAN.replace(hand_needs_51=False), low + " 9C")
    assert deal.check_opening(0, melds_of(deal, "2H 3H 4H", "3S 3H 3C")) == 18
    deal = to_open(SERBIAN, low + " 9C")
    assert opening_error(deal, 0, "2H 3H 4H", "3S 3H 3C").code == "opening_too_low"
    deal = to_open(MACEDONIAN, "10H JH QH KH 7S 7D 7C 2C", first_round=True)
    assert opening_error(deal, 0, "10H JH QH KH", "7S 7D 7C").code == "no_opening_in_first_round"


def test_check_opening_of_a_seat_that_has_opened():
    deal = to_open(SERBIAN, "10H JH QH 2C", opened=[0])
    assert opening_error(deal, 0, "10H JH QH").code == "already_opened"
