"""A match (docs/rules.md §9): deal count, the 501 early end, rotation, running totals."""

from __future__ import annotations

import random

import pytest

from games.engine import Deal, Match, parse_action
from games.engine.playout import play_out, play_out_match, random_action
from tests.engine.helpers import MACEDONIAN, POLISH51, SERBIAN, play, position

DRY_HAND = ("lay 10H JH QH KH | 10S 10D 10C", "discard 4D")


def finished(match: Match, seed: int = 0) -> Match:
    """The match with its current deal played out at random."""
    rng = random.Random(seed)
    while not match.deal.is_over:
        match = match.apply(random_action(match.deal, rng))
    return match


def dry_hand_deal(dealer: int) -> Deal:
    """Seat 0 can go out with a serbian dry hand: unopened seat 1 then scores 400."""
    return position(SERBIAN, "10H JH QH KH 10S 10D 10C 4D", "KS 3D", drawn=True, dealer=dealer)


@pytest.mark.parametrize("ruleset", [MACEDONIAN, SERBIAN])
def test_first_dealer_is_the_last_seat_so_seat_0_starts(ruleset):
    match = Match.new(ruleset, 3, rng=random.Random(1))
    assert match.deal.dealer == 2
    assert match.deal.to_move == 0
    assert match.deal_number == 1


def test_polish_first_starter_is_a_random_seat():
    starters = {Match.new(POLISH51, 4, rng=random.Random(seed)).deal.to_move for seed in range(20)}
    assert len(starters) > 1


@pytest.mark.parametrize(
    ("ruleset", "deals"),
    [(MACEDONIAN, (8, 9, 8)), (SERBIAN, (8, 9, 8)), (POLISH51, (1, 1, 1))],
    ids=lambda value: getattr(value, "name", str(value)),
)
def test_each_player_deals_4_3_2_times_or_polish_plays_one_deal(ruleset, deals):
    counts = tuple(Match.new(ruleset, n, rng=random.Random(0)).deals_in_match for n in (2, 3, 4))
    assert counts == deals


def test_dealer_and_starter_move_one_seat_on_each_deal():
    match = finished(Match.new(SERBIAN, 3, rng=random.Random(2)))
    rng = random.Random(3)
    for expected_dealer in (0, 1, 2, 0):
        match = match.next_deal(rng)
        assert match.deal.dealer == expected_dealer
        assert match.deal.to_move == (expected_dealer + 1) % 3
        match = finished(match)


def test_totals_are_the_sum_of_every_deal_and_never_reset():
    match = finished(Match.new(SERBIAN, 2, rng=random.Random(4)))
    first = match.totals
    assert first == match.deal.result().scores
    match = finished(match.next_deal(random.Random(5)), seed=1)
    assert match.totals == tuple(
        a + b for a, b in zip(first, match.deal.result().scores, strict=True)
    )
    assert len(match.results) == 2


def test_match_ends_after_its_number_of_deals():
    ruleset = SERBIAN.replace(match_end_score=None)
    match = play_out_match(Match.new(ruleset, 4, rng=random.Random(6)), random.Random(7))
    assert match.is_over
    assert len(match.results) == 8
    with pytest.raises(ValueError, match="the match is over"):
        match.next_deal(random.Random(0))


def test_match_ends_early_when_a_total_reaches_501():
    match = Match.start(play(dry_hand_deal(dealer=1), *DRY_HAND))
    assert match.totals == (-280, 400)
    assert not match.is_over
    match = match.with_next_deal(dry_hand_deal(dealer=match.next_dealer))
    for move in DRY_HAND:
        match = match.apply(parse_action(move))
    assert match.totals == (-560, 800)
    assert match.is_over
    assert match.deal_number == 2 < match.deals_in_match
    assert match.winners == (0,)


def test_polish_match_has_no_early_end():
    assert POLISH51.match_end_score is None
    match = play_out_match(Match.new(POLISH51, 2, rng=random.Random(8)), random.Random(9))
    assert match.is_over
    assert len(match.results) == 1


def test_winners_are_the_lowest_totals_and_ties_share():
    first = position(SERBIAN, "5C", "KS", "KD", opened=[0, 1, 2], drawn=True)
    match = Match.start(play(first, "discard 5C"))
    assert match.totals == (-40, 10, 10)
    assert match.winners == (0,)
    second = position(SERBIAN, "KH", "5C", "KD", opened=[0, 1, 2], drawn=True, to_move=1)
    match = match.with_next_deal(second)
    match = match.apply(parse_action("discard 5C"))
    assert match.totals == (-30, -30, 20)
    assert match.winners == (0, 1)


def test_next_deal_only_once_the_current_deal_is_over():
    match = Match.new(SERBIAN, 2, rng=random.Random(10))
    with pytest.raises(ValueError, match="not over"):
        match.next_deal(random.Random(0))


def test_with_next_deal_checks_the_dealer_and_the_ruleset():
    match = finished(Match.new(SERBIAN, 2, rng=random.Random(11)))
    with pytest.raises(ValueError, match="dealer is seat 0"):
        match.with_next_deal(Deal.new(SERBIAN, 2, dealer=1, rng=random.Random(0)))
    with pytest.raises(ValueError, match="ruleset"):
        match.with_next_deal(Deal.new(MACEDONIAN, 2, dealer=0, rng=random.Random(0)))


def test_replay_rebuilds_each_deal_from_its_deck():
    rng = random.Random(12)
    match = finished(Match.new(SERBIAN, 2, rng=rng))
    match = match.next_deal(rng)
    deal = match.deal
    rebuilt = Deal.from_deck(
        SERBIAN,
        2,
        dealer=deal.dealer,
        deck=deal.deck,
        card_ids=deal.card_ids,
        reshuffle_seeds=deal.reshuffle_seeds,
    )
    assert rebuilt.to_dict() == deal.to_dict()


def test_apply_returns_a_new_match_and_leaves_the_original_unchanged():
    match = Match.new(SERBIAN, 2, rng=random.Random(13))
    before = match.to_dict()
    after = match.apply(match.deal.legal_actions()[0])
    assert after is not match
    assert match.to_dict() == before


def test_match_round_trips_through_a_dict():
    match = finished(Match.new(SERBIAN, 2, rng=random.Random(14)))
    match = match.next_deal(random.Random(15))
    restored = Match.from_dict(match.to_dict())
    assert restored.to_dict() == match.to_dict()
    assert restored.totals == match.totals


def test_a_full_random_match_plays_out():
    match = play_out_match(Match.new(MACEDONIAN, 2, rng=random.Random(16)), random.Random(17))
    assert match.is_over
    assert play_out(match.deal, random.Random(0)) is match.deal
