"""The expert: determinised search that keeps to its budget."""

from __future__ import annotations

import random
import time

from games.bots import Budget, ExpertBot
from games.bots.careful import Knowledge
from games.bots.world import imagine
from tests.bots.helpers import observe, texts
from tests.engine.helpers import MACEDONIAN, SERBIAN, position


def choice_position():
    # Opened, several sensible discards: the expert has candidates to search.
    return position(
        MACEDONIAN,
        "7H 8H 2C 5S KD QS JC 3D 9D",
        "2H 3C 5C 6D 7D 8D 9S",
        opened=[0, 1],
        table=[(1, "2D 3D 4D"), (0, "AS 2S 3S 4S")],
        stock="KH QH 4C 6C 7C 8C 9C 10C",
        drawn=True,
    )


def test_it_searches_several_candidates_within_its_rollout_cap():
    bot = ExpertBot()
    budget = Budget(time_limit_s=None, simulations=40)
    bot.decide(observe(choice_position()), random.Random(1), budget)
    assert bot.last is not None
    assert bot.last.candidates > 1
    assert 0 < bot.last.rollouts <= 40
    assert bot.last.rollouts == bot.last.worlds * bot.last.candidates


def test_it_stops_at_its_time_limit_on_a_given_clock():
    ticks = iter(range(1_000_000))

    def clock() -> float:  # every reading is one second later
        return float(next(ticks))

    bot = ExpertBot()
    budget = Budget(time_limit_s=5.0, simulations=None, clock=clock)
    bot.decide(observe(choice_position()), random.Random(1), budget)
    assert bot.last is not None
    assert 1 <= bot.last.worlds <= 6


def test_it_respects_a_wall_clock_budget():
    bot = ExpertBot()
    started = time.perf_counter()
    bot.decide(observe(choice_position()), random.Random(2), Budget(time_limit_s=0.3))
    elapsed = time.perf_counter() - started
    assert elapsed < 0.75  # 0.3 s, and room for a loaded machine
    assert bot.last is not None and bot.last.worlds >= 1


def test_it_is_reproducible_with_a_rollout_budget():
    budget = Budget(time_limit_s=None, simulations=30)
    first = ExpertBot().decide(observe(choice_position()), random.Random(5), budget)
    second = ExpertBot().decide(observe(choice_position()), random.Random(5), budget)
    assert texts(first) == texts(second)


def test_it_goes_out_without_searching():
    deal = position(
        SERBIAN, "8H 9H 2C", "2H 3D 5C", table=[(1, "5H 6H 7H")], opened=[0], drawn=True
    )
    bot = ExpertBot()
    actions = bot.decide(observe(deal), random.Random(0), Budget(simulations=50))
    assert actions[-1].kind == "discard"
    assert bot.last is not None and bot.last.rollouts == 0
    for action in actions:
        deal = deal.apply(action)
    assert deal.is_over


def test_its_worlds_agree_with_what_it_saw():
    deal = choice_position()
    obs = observe(deal)
    for seed in range(5):
        world = imagine(obs, random.Random(seed))
        assert world.hand(0) == deal.hand(0)
        assert world.table == deal.table or [m.cards for m in world.table] == [
            m.cards for m in deal.table
        ]
        assert len(world.hand(1)) == len(deal.hand(1))
        assert world.stock_count == deal.stock_count
    assert Knowledge.of(obs).unseen_total > 0


def test_its_rollouts_play_whole_deals_in_every_preset():
    from games.bots.fast import rollout
    from games.engine import PRESETS, Deal

    for name, ruleset in PRESETS.items():
        for wary in (False, True):
            deal = Deal.new(ruleset, 2, dealer=0, rng=random.Random(name))
            assert rollout(deal, wary=wary).is_over
