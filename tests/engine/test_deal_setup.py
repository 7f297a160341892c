"""Dealing (docs/rules.md §1, §2): pack sizes, hand sizes, the starter, the upcard, ids."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engine import Deal, full_pack
from tests.engine.helpers import MACEDONIAN, POLISH51, SERBIAN, cards, play, position, texts


def new_deal(ruleset, players=4, dealer=3, seed=1) -> Deal:
    return Deal.new(ruleset, players, dealer=dealer, rng=random.Random(seed))


@pytest.mark.parametrize(("ruleset", "size"), [(MACEDONIAN, 108), (SERBIAN, 108), (POLISH51, 106)])
def test_two_decks_plus_jokers(ruleset, size):
    deal = new_deal(ruleset)
    assert len(deal.deck) == size
    assert Counter(deal.deck) == Counter(full_pack(ruleset.jokers))


@pytest.mark.parametrize("ruleset", [MACEDONIAN, SERBIAN])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_balkan_deal_is_14_each_and_15_to_the_starter(ruleset, players):
    deal = new_deal(ruleset, players=players, dealer=0)
    starter = 1
    assert deal.to_move == starter
    sizes = [15 if seat == starter else 14 for seat in range(players)]
    assert [len(hand) for hand in deal.hands] == sizes
    assert deal.discard_pile == ()
    assert deal.stock_count == 108 - 14 * players - 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_polish_deal_is_13_each_with_the_stock_top_turned_up(players):
    deal = new_deal(POLISH51, players=players, dealer=0)
    assert [len(hand) for hand in deal.hands] == [13] * players
    assert len(deal.discard_pile) == 1
    assert deal.discard_top is deal.deck[13 * players]
    assert deal.stock_count == 106 - 13 * players - 1


def test_macedonian_starter_does_not_draw_and_only_discards_in_first_turn():
    deal = new_deal(MACEDONIAN)
    assert deal.drawn
    assert {action.kind for action in deal.legal_actions()} == {"discard"}


def test_serbian_starter_does_not_draw_and_may_meld_in_first_turn():
    deal = new_deal(SERBIAN)
    assert deal.drawn
    assert deal.first_round
    opening = position(
        SERBIAN, "10H JH QH KH 10S 10D 10C 4D", "2C 3C 4C", drawn=True, first_round=True
    )
    [lay] = [action for action in opening.legal_actions() if action.kind == "lay"]
    assert set(lay.melds) == {tuple(cards("10H JH QH KH")), tuple(cards("10S 10D 10C"))}
    assert play(opening, "lay 10H JH QH KH | 10S 10D 10C").opened == {0}


def test_polish_starter_draws_as_usual():
    deal = new_deal(POLISH51)
    assert not deal.drawn
    assert texts(deal.legal_actions()) == ["draw", "take"]


def test_cards_are_dealt_one_at_a_time_from_the_starter():
    deal = new_deal(SERBIAN, players=3, dealer=2)
    assert deal.to_move == 0
    assert deal.hands[0][:2] == (deal.deck[0], deal.deck[3])
    assert deal.hands[1][0] is deal.deck[1]
    assert deal.hands[0][-1] is deal.deck[42]  # the starter's extra card comes last


def test_the_starter_is_the_seat_after_the_dealer():
    for dealer in range(4):
        assert new_deal(SERBIAN, dealer=dealer).to_move == (dealer + 1) % 4


def test_every_physical_card_is_dealt_once_with_a_unique_id():
    deal = new_deal(SERBIAN)
    ids = [i for seat in range(4) for i in deal.hand_ids(seat)]
    assert len(set(ids)) == 57
    assert sorted(deal.card_ids) == list(range(108))
    for position_, card_id in enumerate(deal.card_ids):
        assert deal.card(card_id) is deal.deck[position_]


def test_card_ids_do_not_follow_deck_order():
    # Ids are a random permutation drawn after the shuffle.
    deal = new_deal(SERBIAN)
    assert deal.card_ids != tuple(range(108))
    assert deal.hand_ids(deal.to_move) != tuple(sorted(deal.hand_ids(deal.to_move)))


def test_same_seed_same_deal_and_from_deck_reproduces_it():
    first, second = new_deal(SERBIAN, seed=7), new_deal(SERBIAN, seed=7)
    assert first.to_dict() == second.to_dict()
    rebuilt = Deal.from_deck(
        SERBIAN,
        4,
        dealer=first.dealer,
        deck=first.deck,
        card_ids=first.card_ids,
        reshuffle_seeds=first.reshuffle_seeds,
    )
    assert rebuilt.to_dict() == first.to_dict()


def test_new_draws_one_reshuffle_seed_per_allowed_reshuffle():
    assert len(new_deal(SERBIAN).reshuffle_seeds) == SERBIAN.max_reshuffles


def test_from_deck_rejects_a_deck_that_is_not_the_pack():
    deck = full_pack(4)
    with pytest.raises(ValueError, match="full serbian pack"):
        Deal.from_deck(SERBIAN, 4, dealer=0, deck=deck[:-1], reshuffle_seeds=(1, 2))


def test_from_deck_rejects_bad_ids_and_missing_seeds():
    deck = full_pack(4)
    with pytest.raises(ValueError, match="card_ids"):
        Deal.from_deck(SERBIAN, 4, dealer=0, deck=deck, card_ids=[0] * 108, reshuffle_seeds=(1, 2))
    with pytest.raises(ValueError, match="reshuffle seeds"):
        Deal.from_deck(SERBIAN, 4, dealer=0, deck=deck)


@pytest.mark.parametrize("players", [1, 5])
def test_two_to_four_players(players):
    with pytest.raises(ValueError, match="2 to 4 players"):
        new_deal(SERBIAN, players=players, dealer=0)


def test_from_position_numbers_cards_in_the_order_given():
    deal = position(
        SERBIAN, "AS 2S", "3S", stock="4S 5S", discard="6S 7S", table=[(1, "8H 9H 10H")]
    )
    assert deal.hand_ids(0) == (0, 1)
    assert deal.hand_ids(1) == (2,)
    assert deal.discard_ids == (5, 6)
    assert deal.table[0].ids == (7, 8, 9)
    assert deal.discard_top == cards("7S")[0]
    assert deal.stock_count == 2


def test_from_position_table_meld_ids_follow_laid_out_order():
    deal = position(SERBIAN, "AS 2S", "3S", table=[(0, "10H 8H 9H")])
    assert deal.table[0].cards == tuple(cards("8H 9H 10H"))
    assert [deal.card(i) for i in deal.table[0].ids] == cards("8H 9H 10H")


def test_from_position_owners_of_table_melds_count_as_opened():
    deal = position(SERBIAN, "AS 2S", "3S", table=[(1, "8H 9H 10H")], opened=[0])
    assert deal.opened == {0, 1}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"table": [(0, "8H 9H JH")]}, "table meld 0 is not a meld"),
        ({"table": [(5, "8H 9H 10H")]}, "owner must be a seat"),
        ({"stock": "7H 7H 7H"}, "7H appears 3 times; the pack has 2"),
        ({"stock": "JK JK JK"}, None),
        ({"stock": ""}, "stock is empty"),
        ({"to_move": 2}, "to_move must be a seat"),
        ({"opened": [3]}, "opened seats"),
    ],
)
def test_from_position_rejects_bad_input(kwargs, message):
    if message is None:  # three jokers is fine with four in the pack, not with two
        position(SERBIAN, "AS", "2S", **kwargs)
        with pytest.raises(ValueError, match="JK appears 3 times; the pack has 2"):
            position(POLISH51, "AS", "2S", **kwargs)
        return
    with pytest.raises(ValueError, match=message):
        position(SERBIAN, "AS", "2S", **kwargs)


def test_from_position_rejects_an_empty_hand():
    with pytest.raises(ValueError, match="seat 1 has no cards"):
        position(SERBIAN, "AS", "")


def test_from_position_table_melds_use_lay_off_joker_limits():
    # Serbian runs are laid with one joker but may hold more once grown on the table.
    deal = position(SERBIAN, "AS", "2S", table=[(1, "JK 8H JK 10H")])
    assert deal.table[0].meld.jokers == 2
