"""The expert's time limit is a deadline every phase of its decision respects.

A fake clock stands still until the decision enters a given phase, then jumps
past the deadline: from there the bot must answer at once (no more careful
lines than the one in hand, no world dealt, no rollout started) with a legal
turn. No real time is measured.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.bots import Budget, ExpertBot, expert, planning
from games.engine import Action, Deal, Discard, DrawStock
from tests.bots.helpers import observe
from tests.bots.helpers import opened_macedonian_position as choice_position
from tests.engine.helpers import POLISH51, position


def draw_position() -> Deal:
    """Polish51, the 9H on the pile would make a run: a take and a stock draw are searched."""
    return position(
        POLISH51,
        "7H 8H 2C 5S KD QS JC 3D 9D 4C 6S KC",
        "2H 3C 5C 6D 7D 8D 9S 4S 10C JD QD KH",
        discard="9H",
        stock="KS QH 4D 6C 7C 8C 9C 10D",
    )


class JumpingClock:
    """Stands still until ``jump``; then reads an hour later, and counts the work done since."""

    def __init__(self) -> None:
        self.now = 0.0
        self.jumped = False
        self.after: Counter[str] = Counter()

    def __call__(self) -> float:
        return self.now

    def jump(self) -> None:
        if not self.jumped:
            self.jumped = True
            self.now += 3600.0

    def step(self, phase: str, jumps_here: str) -> None:
        """One unit of ``phase`` starts: counted after the jump, and the jump when it is here."""
        if self.jumped:
            self.after[phase] += 1
        elif phase == jumps_here:
            self.jump()


def instrumented(monkeypatch: pytest.MonkeyPatch, clock: JumpingClock, phase: str) -> ExpertBot:
    """An expert whose phases tell ``clock`` when they start (the rollouts end at once)."""
    line_for = planning.line_for

    def counted_line(*args: object, **options: object) -> object:
        clock.step("line", phase)
        return line_for(*args, **options)  # type: ignore[arg-type]

    def counted_rollout(deal: Deal, *args: object, **options: object) -> Deal:
        clock.step("rollout", phase)
        return deal  # unfinished: scored by the cards in hand

    monkeypatch.setattr(planning, "line_for", counted_line)
    monkeypatch.setattr(expert, "rollout", counted_rollout)

    class Instrumented(ExpertBot):
        def deal_world(self, *args, **options):  # type: ignore[no-untyped-def]
            clock.step("world", phase)
            return super().deal_world(*args, **options)

        def play(self, world, candidate, *args, **options):  # type: ignore[no-untyped-def]
            if candidate is None:  # a stock draw, then a careful turn in the world
                clock.step("careful turn", phase)
            return super().play(world, candidate, *args, **options)

    return Instrumented()


def assert_legal_turn(deal: Deal, actions: list[Action]) -> None:
    for action in actions:
        deal = deal.apply(action)  # raises IllegalAction if it is not
    assert isinstance(actions[-1], Discard | DrawStock)


@pytest.mark.parametrize(
    ("make", "phase"),
    [
        (choice_position, "line"),
        (choice_position, "world"),
        (choice_position, "rollout"),
        (draw_position, "line"),
        (draw_position, "world"),
        (draw_position, "careful turn"),
        (draw_position, "rollout"),
    ],
    ids=[
        "play-finding-candidates",
        "play-dealing-a-world",
        "play-in-a-rollout",
        "draw-finding-candidates",
        "draw-dealing-a-world",
        "draw-careful-turn-after-a-stock-draw",
        "draw-in-a-rollout",
    ],
)
def test_a_clock_past_the_deadline_in_any_phase_gets_a_legal_turn_at_once(monkeypatch, make, phase):
    deal = make()
    clock = JumpingClock()
    bot = instrumented(monkeypatch, clock, phase)
    actions = bot.decide(observe(deal), random.Random(1), Budget(time_limit_s=2.0, clock=clock))
    assert clock.jumped, f"the decision never reached the phase {phase!r}"
    assert_legal_turn(deal, actions)
    # Nothing new starts: no world, no rollout, no careful turn; of the careful lines only
    # the one that was being found, and (choosing a draw) the one that takes the discard.
    assert clock.after["world"] == clock.after["rollout"] == clock.after["careful turn"] == 0
    assert clock.after["line"] <= 1


def test_out_of_time_while_finding_candidates_it_plays_the_careful_line_found_so_far(
    monkeypatch,
):
    deal = choice_position()
    clock = JumpingClock()
    bot = instrumented(monkeypatch, clock, "line")
    actions = bot.decide(observe(deal), random.Random(1), Budget(time_limit_s=2.0, clock=clock))
    assert bot.last is not None and bot.last.rollouts == 0 and bot.last.chosen == 0
    assert_legal_turn(deal, actions)


def test_without_a_time_limit_the_clock_never_cuts_the_candidates_short(monkeypatch):
    deal = choice_position()
    budget = Budget(time_limit_s=None, simulations=8)
    plain = ExpertBot()
    plain.decide(observe(deal), random.Random(1), budget)
    clock = JumpingClock()
    bot = instrumented(monkeypatch, clock, "line")
    bot.decide(
        observe(deal), random.Random(1), Budget(time_limit_s=None, simulations=8, clock=clock)
    )
    assert bot.last is not None and plain.last is not None
    assert bot.last.candidates == plain.last.candidates > 1


@pytest.mark.parametrize("enabled", [True, False], ids=["collector-on", "collector-off"])
def test_the_search_collects_its_young_garbage_between_rollouts_only_if_the_process_does(
    monkeypatch, enabled
):
    # Every solver call leaves a cycle: left to the end of the decision, their collection
    # ran past the deadline. With the collector on, the search collects them in small steps.
    collected: list[int] = []
    monkeypatch.setattr(expert, "YOUNG_GARBAGE_STEP", -1)  # every check finds it due
    monkeypatch.setattr(expert.gc, "collect", lambda generation=2: collected.append(generation))
    (expert.gc.enable if enabled else expert.gc.disable)()
    try:
        ExpertBot().decide(observe(choice_position()), random.Random(1), Budget(simulations=8))
        assert expert.gc.isenabled() is enabled
    finally:
        expert.gc.enable()
    assert bool(collected) is enabled
    assert set(collected) <= {0, 1}  # never a full collection
