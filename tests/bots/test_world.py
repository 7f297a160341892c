"""The worlds a bot imagines: hidden cards dealt consistently with what it saw."""

from __future__ import annotations

import random
from collections import Counter

from games.bots.world import deal_hidden, laid_what_it_could, unseen_cards
from games.engine import Card
from tests.bots.helpers import observe, opened_macedonian_position
from tests.engine.helpers import cards


def test_it_deals_the_unseen_cards_and_no_others():
    deal = opened_macedonian_position()
    obs = observe(deal)
    hands, stock = deal_hidden(obs, random.Random(3))
    assert hands[0] == list(deal.hand(0))
    assert len(hands[1]) == len(deal.hand(1))
    assert len(stock) == deal.stock_count
    dealt = Counter([*hands[1], *stock])
    assert not dealt - Counter(unseen_cards(obs))


def test_it_deals_again_until_a_hand_is_plausible():
    obs = observe(opened_macedonian_position())
    unwanted = cards("KH")[0]

    def without_the_king(seat: int, hand: list[Card]) -> bool:
        return unwanted not in hand

    for seed in range(10):
        hands, _ = deal_hidden(obs, random.Random(seed), plausible=without_the_king)
        assert unwanted not in hands[1]


def test_an_opened_player_is_not_dealt_a_meld_it_would_have_laid():
    plausible = laid_what_it_could(observe(opened_macedonian_position()), leak=0.0)
    assert not plausible(1, cards("10H JH QH 5C 9C"))  # a run it would have laid down
    assert not plausible(1, cards("5D 9C KC"))  # the 5D lays off on 2D 3D 4D
    assert plausible(1, cards("10H QC 5C 9C KS"))
