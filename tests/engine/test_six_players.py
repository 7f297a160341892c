"""Five and six players (docs/rules.md §2): a house rule where the family seats them,
the same two-deck pack, hand sizes and a stock left after dealing, longer matches."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Deal, Match, full_pack
from games.engine.playout import play_out_match, random_action
from tests.engine.helpers import MACEDONIAN, OLD_REMI, POLISH51, SERBIAN

SIX_SEAT_FAMILIES = pytest.mark.parametrize("ruleset", [MACEDONIAN, POLISH51], ids=lambda r: r.name)


def six(ruleset):
    return ruleset.replace(max_players=6)


def test_every_preset_seats_2_to_4_and_the_texts_decide_the_house_rule_limit():
    # "w niektórych oryginalnych odmianach Remika 51 może uczestniczyć nawet 6 graczy";
    # Macedonian: "Најчесто се игра во двајца или во четворица" (most often, not only);
    # Serbian: "Mogu igrati 2, 3 ili 4 igrača."
    for ruleset in (MACEDONIAN, SERBIAN, OLD_REMI, POLISH51):
        assert (ruleset.min_players, ruleset.max_players) == (2, 4)
    assert [r.seat_limit for r in (MACEDONIAN, SERBIAN, OLD_REMI, POLISH51)] == [6, 4, 4, 6]


@SIX_SEAT_FAMILIES
def test_a_house_rule_seats_up_to_six_where_the_family_allows(ruleset):
    assert six(ruleset).max_players == 6
    with pytest.raises(ValueError, match="bad value for ruleset field 'max_players'"):
        ruleset.replace(max_players=7)


@pytest.mark.parametrize("ruleset", [SERBIAN, OLD_REMI], ids=lambda r: r.name)
def test_serbian_rules_seat_at_most_four(ruleset):
    with pytest.raises(ValueError, match="'max_players': 5 .*seats at most 4 players"):
        ruleset.replace(max_players=5)


def test_a_preset_without_the_house_rule_refuses_a_fifth_player():
    with pytest.raises(ValueError, match="played by 2 to 4 players"):
        Deal.new(MACEDONIAN, 5, dealer=0, rng=random.Random(0))


@pytest.mark.parametrize(
    ("ruleset", "players", "hand", "stock"),
    [
        (MACEDONIAN, 5, 14, 108 - 71),
        (MACEDONIAN, 6, 14, 108 - 85),
        (POLISH51, 5, 13, 106 - 66),
        (POLISH51, 6, 13, 106 - 79),
    ],
    ids=str,
)
def test_five_and_six_seats_deal_the_same_hands_from_the_same_pack(ruleset, players, hand, stock):
    deal = Deal.new(six(ruleset), players, dealer=0, rng=random.Random(players))
    assert Counter(deal.deck) == Counter(full_pack(ruleset.jokers))
    starter = 1
    sizes = [len(cards) for cards in deal.hands]
    extra = 1 if ruleset.starter_extra_card else 0
    assert sizes == [hand + (extra if seat == starter else 0) for seat in range(players)]
    assert deal.stock_count == stock == six(ruleset).stock_after_dealing(players)
    assert len(deal.discard_pile) == (1 if ruleset.upcard else 0)


def test_a_hand_size_that_would_empty_the_stock_while_dealing_is_refused():
    with pytest.raises(ValueError, match="'hand_size': 17 .*6 hands leave 5 of the 108"):
        MACEDONIAN.replace(max_players=6, hand_size=17)
    assert MACEDONIAN.replace(hand_size=17).stock_after_dealing(4) == 108 - 69


@pytest.mark.parametrize(
    ("ruleset", "deals"), [(MACEDONIAN, (8, 9, 8, 10, 12)), (POLISH51, (1, 1, 1, 1, 1))]
)
def test_a_match_is_10_deals_with_five_and_12_with_six(ruleset, deals):
    rules = six(ruleset)
    assert tuple(rules.deals_in_match(players) for players in range(2, 7)) == deals


def test_a_six_seat_match_plays_out_end_to_end():
    ruleset = six(MACEDONIAN).replace(match_end_score=None, match_deals=(8, 9, 8, 10, 3))
    match = play_out_match(Match.new(ruleset, 6, rng=random.Random(1)), random.Random(2))
    assert match.is_over
    assert len(match.results) == 3
    assert all(result.winner is None or 0 <= result.winner < 6 for result in match.results)
    assert all(len(result.scores) == 6 for result in match.results)
    assert match.deal.dealer == 1  # seats 5, 0 and 1 dealt: the deal moves one seat on


six_seat_deals = st.tuples(
    st.sampled_from([six(MACEDONIAN), six(POLISH51), six(MACEDONIAN).replace(hand_needs_51=False)]),
    st.integers(5, 6),
    st.integers(0, 2**32 - 1),
)


@settings(max_examples=30, deadline=None)
@given(six_seat_deals)
def test_random_legal_five_and_six_seat_deals_never_lose_or_duplicate_a_card(start):
    ruleset, players, seed = start
    rng = random.Random(seed)
    deal = Deal.new(ruleset, players, dealer=rng.randrange(players), rng=rng)
    pack = Counter(full_pack(ruleset.jokers))
    while True:
        ids = [i for seat in range(players) for i in deal.hand_ids(seat)]
        ids += [*deal.to_dict()["stock"], *deal.discard_ids]
        ids += [i for meld in deal.table for i in meld.ids]
        assert sorted(ids) == list(range(len(deal.deck)))  # each physical card once
        assert Counter(deal.card(i) for i in ids) == pack
        if deal.is_over:
            break
        deal = deal.apply(random_action(deal, rng))
    result = deal.result()
    assert result is not None
    assert len(result.scores) == players
    assert Deal.from_dict(deal.to_dict()).to_dict() == deal.to_dict()
