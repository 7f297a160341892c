"""Reading the others' hands from what they threw and what they let go by."""

from __future__ import annotations

import random

from games.bots import BotMemory
from games.bots.reading import discards_read, hands_read
from games.bots.world import deal_hidden
from tests.bots.helpers import observe
from tests.engine.helpers import POLISH51, cards, play, position


def after_seat_1_throws_the_9s():
    """Seat 0 to move; seat 1 let the 5H go by, drew the 9S and threw it."""
    deal = position(
        POLISH51,
        "2C 3C 4C 5H 7D",
        "7H 8H KD QS JC",
        discard="AH",
        stock="5D 9S 6D 7C 8C 10C JD QD KH KC 2D 3D 4D",
    )
    memory = BotMemory.start(deal.view(0))
    for move in ("draw", "discard 5H", "draw", "discard 9S", "draw"):
        deal = play(deal, move)
        memory.observe(deal.last_event.for_seat(0))
    return deal, memory


def test_a_hand_close_to_what_its_owner_threw_is_less_likely():
    deal, memory = after_seat_1_throws_the_9s()
    likelihood = discards_read(observe(deal, memory=memory))
    unrelated = likelihood(1, cards("2D 6C KH"))
    set_partner = likelihood(1, cards("9H 6C KH"))
    run_neighbour = likelihood(1, cards("10S 6C KH"))
    two_away = likelihood(1, cards("JS 6C KH"))
    assert unrelated == 1.0
    assert set_partner < two_away < unrelated
    assert run_neighbour == set_partner


def test_a_player_who_threw_nothing_is_read_as_holding_anything():
    deal, memory = after_seat_1_throws_the_9s()
    likelihood = discards_read(observe(deal, memory=BotMemory.start(deal.view(0))))
    assert likelihood(1, cards("9H 10S JS")) == 1.0


def test_worlds_dealt_with_the_reading_hold_fewer_partners_of_the_thrown_card():
    deal, memory = after_seat_1_throws_the_9s()
    obs = observe(deal, memory=memory)
    partners = set(cards("9H 9D 9C 8S 10S"))

    def held(plausible) -> int:
        count = 0
        for seed in range(200):
            hands, _ = deal_hidden(obs, random.Random(seed), plausible=plausible)
            count += sum(card in partners for card in hands[1])
        return count

    assert held(hands_read(obs, leak=0.0)) < 0.8 * held(None)


def test_the_reading_is_the_same_for_the_same_observation():
    deal, memory = after_seat_1_throws_the_9s()
    obs = observe(deal, memory=memory)
    first = [deal_hidden(obs, random.Random(seed), plausible=hands_read(obs)) for seed in range(5)]
    again = [deal_hidden(obs, random.Random(seed), plausible=hands_read(obs)) for seed in range(5)]
    assert first == again
