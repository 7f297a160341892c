"""The careful bot: safe discards, counted cards, and the timing of a hand."""

from __future__ import annotations

import random

from games.bots import BotMemory, Budget, CarefulBot, GreedyBot
from games.bots.base import Observation
from games.bots.careful import Knowledge
from games.engine import Deal, TakeDiscard
from tests.bots.helpers import decide, feeding_position, observe, texts
from tests.engine.helpers import MACEDONIAN, SERBIAN, cards, position


def test_the_position_tempts_a_greedy_player():
    assert texts(decide(GreedyBot(), feeding_position())) == ["discard 9H"]


def test_it_does_not_feed_an_obvious_lay_off():
    actions = decide(CarefulBot(), feeding_position())
    assert actions[-1].kind == "discard"
    assert str(actions[-1].card) != "9H"


def test_it_does_not_feed_a_meld_the_next_player_collects():
    deal = position(
        MACEDONIAN,
        "2S 3S 4S KH 10C 5D",
        "2C 5S 9D QH JH",
        table=[(1, "AD 2D 3D")],
        stock="3D 4D",
        drawn=True,
    )
    memory = BotMemory.start(deal.view(0))
    # Seat 1 was seen taking QH and JH from the discard pile: it collects hearts.
    memory.observe({"type": "take", "seat": 1, "card": {"id": 9, "card": "QH"}})
    memory.observe({"type": "take", "seat": 1, "card": {"id": 10, "card": "JH"}})
    obs = observe(deal, memory=memory)
    assert Knowledge.of(obs).next_known == cards("QH JH")
    greedy = GreedyBot().decide(obs, random.Random(0), None)
    careful = CarefulBot().decide(obs, random.Random(0), None)
    assert str(greedy[-1].card) == "KH"
    assert str(careful[-1].card) != "KH"


def test_it_counts_cards():
    deal = position(SERBIAN, "7H 8H 2C", "2D 3D 4D", discard="9H 6H 9H", stock="KS", drawn=True)
    knowledge = Knowledge.of(observe(deal))
    assert knowledge.live(cards("9H")[0]) == 0  # both nines are in the discard pile
    assert knowledge.live(cards("6H")[0]) == 1
    assert knowledge.live(cards("7H")[0]) == 1  # one in hand


def test_it_holds_a_ready_opening_back_for_a_serbian_hand():
    # A 51+ opening is ready, but a dry hand (-280, others x4) is one card away and
    # the opponent has opened nothing: careful holds; greedy opens at once.
    deal = position(
        SERBIAN,
        "10H JH QH KH 10S 10D 10C 5S 6S 7S JK 2D 4C",
        "2C 5C 9D QC JD 4S 4H 3C 8D KC 2H 3H 6D",
        stock="3D 4D 5D",
        drawn=True,
    )
    greedy = decide(GreedyBot(), deal)
    careful = decide(CarefulBot(), deal)
    assert greedy[0].kind == "lay"
    assert careful[0].kind == "discard"


def test_it_takes_a_discard_that_completes_a_meld():
    deal = position(
        MACEDONIAN,
        "7H 8H 2C 5S KD QS JC 3D",
        "2H 3C 5C",
        discard="9H",
        opened=[0, 1],
        table=[(1, "2D 3D 4D"), (0, "AS 2S 3S 4S 5S 6S 7S")],
    )
    assert isinstance(decide(CarefulBot(), deal)[0], TakeDiscard)


def test_in_a_world_it_knows_what_its_seat_could_see():
    deal = feeding_position()
    world = Knowledge.in_world(deal)
    at_the_table = Knowledge.of(Observation(deal.view(0), None, deal.ruleset))
    assert world.unseen == at_the_table.unseen
    assert world.unseen_total == at_the_table.unseen_total
    assert (world.opened, world.hand_counts, world.stock_count, world.next_seat) == (
        at_the_table.opened,
        at_the_table.hand_counts,
        at_the_table.stock_count,
        at_the_table.next_seat,
    )


def test_a_world_turn_is_the_turn_it_plays_at_the_table_without_memory():
    # Inside the expert's search every hand is known; the careful turn must
    # still read only its own hand and the public state.
    for seed in range(6):
        deal = Deal.new(MACEDONIAN, 2, dealer=seed % 2, rng=random.Random(seed))
        bot = CarefulBot()
        while not deal.is_over:
            seat = deal.to_move
            obs = Observation(deal.view(seat), None, deal.ruleset)
            expected = deal
            actions = bot.decide(obs, random.Random(seed), Budget(time_limit_s=None))
            for action in actions:
                expected = expected.apply(action)
            if not expected.is_over and expected.to_move == seat:  # drew from the stock
                obs = Observation(expected.view(seat), None, deal.ruleset)
                for action in bot.decide(obs, random.Random(seed), Budget(time_limit_s=None)):
                    expected = expected.apply(action)
            played = bot.play_turn(deal)
            assert played.hands == expected.hands and played.table == expected.table
            deal = played
