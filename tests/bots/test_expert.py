"""The expert: determinised search that keeps to its budget."""

from __future__ import annotations

import gc
import random
import time

import pytest

from games.bots import Budget, CarefulBot, ExpertBot, expert
from games.bots.arena import play_deal
from games.bots.careful import Knowledge, Weights
from games.bots.world import imagine
from games.engine import Deal
from tests.bots.helpers import feeding_position, observe, texts
from tests.bots.helpers import opened_macedonian_position as choice_position
from tests.engine.helpers import MACEDONIAN, POLISH51, SERBIAN, position


def test_it_searches_several_candidates_within_its_rollout_cap():
    bot = ExpertBot()
    budget = Budget(time_limit_s=None, simulations=40)
    bot.decide(observe(choice_position()), random.Random(1), budget)
    assert bot.last is not None
    assert bot.last.candidates > 1
    assert 0 < bot.last.rollouts <= 40
    assert bot.last.rollouts <= bot.last.worlds * bot.last.candidates


def test_it_stops_at_its_time_limit_on_a_given_clock():
    ticks = iter(range(1_000_000))

    def clock() -> float:  # every reading is one second later
        return float(next(ticks))

    # Every bounded step (a careful line, a world, a rollout) reads the clock at least once.
    bot = ExpertBot()
    budget = Budget(time_limit_s=80.0, simulations=None, clock=clock)
    bot.decide(observe(choice_position()), random.Random(1), budget)
    assert bot.last is not None
    assert 1 <= bot.last.worlds <= 6
    assert next(ticks) <= 80


class FakeClock:
    """A clock that only the (patched) rollouts move on."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def rollouts_taking(monkeypatch: pytest.MonkeyPatch, clock: FakeClock, *seconds: float) -> None:
    """Each rollout moves ``clock`` on by the next of ``seconds`` (the last one repeats)."""
    costs = iter(seconds)
    last = [seconds[-1]]

    def timed(deal: Deal, *args: object, **options: object) -> Deal:
        last[0] = next(costs, last[0])
        clock.now += last[0]
        return deal  # unfinished: scored by the cards in hand

    monkeypatch.setattr(expert, "rollout", timed)


def test_it_uses_most_of_its_time_and_keeps_a_safety_margin(monkeypatch):
    clock = FakeClock()
    rollouts_taking(monkeypatch, clock, 0.05)
    bot = ExpertBot()
    bot.decide(observe(choice_position()), random.Random(1), Budget(time_limit_s=2.0, clock=clock))
    assert clock.now <= 2.0 * (1 - expert.SAFETY_MARGIN)
    assert bot.last is not None and bot.last.rollouts >= 30


def test_one_slow_rollout_makes_it_stop_early(monkeypatch):
    clock = FakeClock()
    rollouts_taking(monkeypatch, clock, 0.05, 0.05, 0.05, 0.05, 0.8, 0.05)
    bot = ExpertBot()
    bot.decide(observe(choice_position()), random.Random(1), Budget(time_limit_s=2.0, clock=clock))
    # After a rollout of 0.8 s it starts another only while one more of 0.8 s would fit.
    assert clock.now <= 2.0 * (1 - expert.SAFETY_MARGIN)
    assert bot.last is not None and bot.last.rollouts < 15


def test_it_checks_the_clock_between_the_rollouts_of_one_world(monkeypatch):
    clock = FakeClock()
    rollouts_taking(monkeypatch, clock, 0.05, 1.5, 0.05)
    bot = ExpertBot()
    bot.decide(observe(choice_position()), random.Random(1), Budget(time_limit_s=2.0, clock=clock))
    assert clock.now <= 2.0 * (1 - expert.SAFETY_MARGIN)
    assert bot.last is not None and bot.last.rollouts == 2  # the first world was left unfinished


def test_choosing_the_draw_leaves_time_to_play_the_card_drawn(monkeypatch):
    # Polish51: anyone may take the 9H, which would make a run: a draw worth searching.
    deal = position(
        POLISH51,
        "7H 8H 2C 5S KD QS JC 3D 9D 4C 6S KC",
        "2H 3C 5C 6D 7D 8D 9S 4S 10C JD QD KH",
        discard="9H",
        stock="KS QH 4D 6C 7C 8C 9C 10D",
    )
    clock = FakeClock()
    rollouts_taking(monkeypatch, clock, 0.02)
    bot = ExpertBot()
    bot.decide(observe(deal), random.Random(1), Budget(time_limit_s=2.0, clock=clock))
    assert bot.last is not None and bot.last.candidates == 2
    assert 0.3 < clock.now <= 2.0 * expert.DRAW_SHARE


@pytest.mark.parametrize(
    ("top", "share"),
    [("6C", 1.0), ("QD", 1.0 - expert.DRAW_SHARE)],
    ids=["no-use-for-the-top-discard", "the-draw-may-have-been-searched"],
)
def test_playing_the_card_drawn_gets_the_rest_of_the_turn(monkeypatch, top, share):
    # The 6C melds with nothing: taking it was never searched, the play gets the whole turn.
    clock = FakeClock()
    rollouts_taking(monkeypatch, clock, 0.02)
    bot = ExpertBot()
    bot.decide(
        observe(choice_position(top)), random.Random(1), Budget(time_limit_s=2.0, clock=clock)
    )
    usable = 2.0 * share * (1 - expert.SAFETY_MARGIN)
    assert usable - 0.1 <= clock.now <= usable


def test_it_does_not_search_a_take_that_leaves_the_card_unused():
    # Polish51: anyone may take the KS, but it melds with nothing in hand.
    deal = position(
        POLISH51,
        "7H 8H 2C 5S 4D 3S 9D 4C 6S 10C 2D 5D 7C",
        "2H 3C 5C 6D 7D 8D 9S 4S QC JD QD KH AH",
        discard="KS",
        stock="KD QH 4H 6C 8C 9C 10D JC",
    )
    bot = ExpertBot()
    actions = bot.decide(observe(deal), random.Random(1), Budget(simulations=40))
    assert texts(actions) == ["draw"]
    assert bot.last is not None and bot.last.candidates == 1 and bot.last.rollouts == 0


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


def test_its_rollouts_play_their_first_turns_the_careful_way():
    from games.bots.fast import rollout

    deal = Deal.new(SERBIAN, 2, dealer=0, rng=random.Random("careful rollouts"))
    careful = CarefulBot()
    by_hand = careful.play_turn(careful.play_turn(deal))
    by_hand = rollout(by_hand, wary=True)
    bot = ExpertBot(careful_turns=2)
    assert bot.roll_out(deal, stop=lambda: False).hands == by_hand.hands
    assert bot.roll_out(deal, stop=lambda: False).is_over


def test_a_careful_rollout_stops_when_told_to():
    deal = Deal.new(POLISH51, 2, dealer=1, rng=random.Random("stop"))
    cut = ExpertBot(careful_turns=50).roll_out(deal, stop=lambda: True)
    assert cut is deal  # not one turn played


class RealWorldExpert(ExpertBot):
    """An expert whose every search world is the real deal (the ceiling bench's ``deal``)."""

    def __init__(self) -> None:
        super().__init__()
        self.truth: Deal | None = None
        self.worlds_dealt = 0

    def deal_world(self, obs, rng, plausible):
        assert self.truth is not None
        self.worlds_dealt += 1
        stock = [self.truth.card(card_id) for card_id in self.truth.to_dict()["stock"]]
        return [list(hand) for hand in self.truth.hands], stock


def test_a_bench_can_deal_the_search_worlds_from_the_real_deal():
    deal = choice_position()
    bot = RealWorldExpert()
    seen: list[Deal] = []

    def see(real: Deal) -> None:
        seen.append(real)
        bot.truth = real

    play_deal(
        deal,
        [bot, ExpertBot()],
        rngs=[random.Random(1), random.Random(2)],
        budget=Budget(time_limit_s=None, simulations=20),
        before_decision=see,
    )
    assert seen[0] is deal  # the first decision is taken on the real starting deal
    assert all(not real.is_over for real in seen)
    assert bot.worlds_dealt > 0


def favourite(bot: ExpertBot, deal: Deal) -> list[str]:
    obs = observe(deal)
    found = bot.candidates(imagine(obs, random.Random(0)), Knowledge.of(obs))
    assert found[0] is not None
    return texts(list(found[0]))


def test_its_favourite_keeps_carefuls_discard_safety_outside_polish51():
    deal = feeding_position(MACEDONIAN)
    assert favourite(ExpertBot(), deal) == texts(
        CarefulBot().decide(observe(deal), random.Random(0), None)
    )
    assert favourite(ExpertBot(), deal) != ["discard 9H"]


def test_in_polish51_its_favourite_sheds_the_card_careful_holds_back():
    # Measured (bench/careful_weights.py): careful's discard danger is worth nothing in
    # polish51, so the expert's own weights drop it there; level 3 keeps it.
    deal = feeding_position(POLISH51)
    assert texts(CarefulBot().decide(observe(deal), random.Random(0), None)) != ["discard 9H"]
    assert favourite(ExpertBot(), deal) == ["discard 9H"]
    assert ExpertBot().weights_for(POLISH51) == expert.EXPERT_WEIGHTS["polish51"]


def test_weights_given_to_it_replace_the_rulesets_own():
    deal = feeding_position(POLISH51)
    assert favourite(ExpertBot(weights=Weights()), deal) != ["discard 9H"]
    assert ExpertBot(weights=Weights()).weights_for(POLISH51) == Weights()


class SlowToFindCandidates(ExpertBot):
    """An expert whose look at its candidates takes ``seconds`` on ``clock``."""

    def __init__(self, clock: FakeClock, seconds: float) -> None:
        super().__init__()
        self.clock = clock
        self.seconds = seconds

    def candidates(self, deal, knowledge, stop=None):
        self.clock.now += self.seconds
        return super().candidates(deal, knowledge, stop)


def test_it_plays_its_favourite_without_a_rollout_when_its_time_went_on_the_candidates(
    monkeypatch,
):
    clock = FakeClock()
    rollouts_taking(monkeypatch, clock, 0.01)
    bot = SlowToFindCandidates(clock, 1.9)
    actions = bot.decide(
        observe(choice_position()), random.Random(1), Budget(time_limit_s=2.0, clock=clock)
    )
    assert bot.last is not None and bot.last.rollouts == 0 and bot.last.chosen == 0
    assert actions[-1].kind == "discard"
    assert clock.now == pytest.approx(1.9)


def test_a_win_counts_beyond_its_points_only_when_asked():
    deal = position(
        SERBIAN, "8H 9H 2C", "2H 3D 5C", table=[(1, "5H 6H 7H")], opened=[0], drawn=True
    )
    for action in ExpertBot().decide(observe(deal), random.Random(0), Budget(simulations=5)):
        deal = deal.apply(action)
    plain = expert._outcome(deal, 0)
    assert expert._outcome(deal, 0, win_weight=15.0) == plain - 15.0
    assert expert._outcome(deal, 1, win_weight=15.0) == expert._outcome(deal, 1) + 15.0


@pytest.mark.parametrize(
    "options",
    [{}, {"read_discards": False}, {"careful_turns": 2}, {"win_weight": 10.0}],
    ids=["as-it-plays", "without-reading-discards", "careful-rollouts", "counting-wins"],
)
def test_every_variant_is_reproducible_with_a_rollout_budget(options):
    budget = Budget(time_limit_s=None, simulations=24)
    deal = Deal.new(SERBIAN, 2, dealer=0, rng=random.Random("variants"))
    first = play_deal(
        deal,
        [ExpertBot(**options), CarefulBot()],
        rngs=[random.Random(3), random.Random(4)],
        budget=budget,
    )
    again = play_deal(
        deal,
        [ExpertBot(**options), CarefulBot()],
        rngs=[random.Random(3), random.Random(4)],
        budget=budget,
    )
    assert first.actions == again.actions


@pytest.mark.parametrize("enabled", [True, False], ids=["collector-on", "collector-off"])
def test_it_searches_with_the_garbage_collector_paused_and_leaves_it_as_it_was(
    monkeypatch, enabled
):
    seen: list[bool] = []

    def watched(deal: Deal, *args: object, **options: object) -> Deal:
        seen.append(gc.isenabled())
        return deal

    monkeypatch.setattr(expert, "rollout", watched)
    (gc.enable if enabled else gc.disable)()
    try:
        ExpertBot().decide(observe(choice_position()), random.Random(1), Budget(simulations=8))
        assert seen and not any(seen)
        assert gc.isenabled() is enabled
    finally:
        gc.enable()
