"""Where the expert's decision time goes: each decision's phases, the slowest turns in full.

Plays the 3-4 bench deals (careful against expert, both seats, the deals of
``bench/bots.py``) with the expert at its real time budget, and times each
phase of every expert decision: finding the candidates, dealing the search
worlds, playing the candidates in them (a stock draw plays a careful turn
there), the rollouts, and the rest (reading the others' hands, the
observation's knowledge, the final choice). A turn is its decisions summed,
as ``arena.play_deal`` counts it. Prints p50/p99/max of the turn time and the
phases of the slowest turns.

    python bench/expert_phases.py --deals 5 --presets serbian,polish51
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.bots import dealt, percentile  # noqa: E402
from games.bots import expert as expert_module  # noqa: E402
from games.bots.arena import play_deal  # noqa: E402
from games.bots.base import Budget  # noqa: E402
from games.bots.careful import CarefulBot  # noqa: E402
from games.bots.expert import ExpertBot  # noqa: E402
from games.engine import PRESETS  # noqa: E402

PHASES = ("candidates", "reading", "worlds", "imagine", "play", "rollouts", "rest")


class TimedExpert(ExpertBot):
    """The expert, with each phase of the decision under way added to ``phases``."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.phases: dict[str, float] = defaultdict(float)
        self.turns: list[dict[str, float]] = []

    def _timed(self, phase: str, call: Callable[[], Any]) -> Any:
        started = time.perf_counter()
        try:
            return call()
        finally:
            self.phases[phase] += time.perf_counter() - started

    def decide(self, obs, rng, budget):  # type: ignore[no-untyped-def]
        allowed = expert_module._time_for(obs, budget.time_limit_s)
        started = time.perf_counter()
        actions = super().decide(obs, rng, budget)
        took = time.perf_counter() - started
        self.phases["total"] += took
        if allowed is not None:  # how far past its own deadline the call ran
            self.phases["over"] += max(0.0, took - allowed)
        if actions[-1].__class__.__name__ == "Discard":
            phases = dict(self.phases)
            phases["rest"] = phases["total"] - sum(phases.get(p, 0.0) for p in PHASES[:-1])
            self.turns.append(phases)
            self.phases = defaultdict(float)
        return actions

    def candidates(self, deal, knowledge, *args, **kwargs):  # type: ignore[no-untyped-def]
        return self._timed(
            "candidates",
            lambda: super(TimedExpert, self).candidates(deal, knowledge, *args, **kwargs),
        )

    def deal_world(self, obs, rng, plausible):  # type: ignore[no-untyped-def]
        return self._timed(
            "worlds", lambda: super(TimedExpert, self).deal_world(obs, rng, plausible)
        )

    def play(self, world, candidate, knowledge, *args, **kwargs):  # type: ignore[no-untyped-def]
        return self._timed(
            "play",
            lambda: super(TimedExpert, self).play(world, candidate, knowledge, *args, **kwargs),
        )

    def roll_out(self, deal, stop):  # type: ignore[no-untyped-def]
        return self._timed("rollouts", lambda: super(TimedExpert, self).roll_out(deal, stop))


_PLAIN = {name: getattr(expert_module, name) for name in ("imagine", "hands_read")}


def _timing_helpers(expert: TimedExpert) -> None:
    """The module's own helpers, timed into ``expert``'s phases (in this worker process)."""
    for name, phase in (("imagine", "imagine"), ("hands_read", "reading")):

        def timed(*args: Any, _plain: Any = _PLAIN[name], _phase: str = phase, **kw: Any) -> Any:
            return expert._timed(_phase, lambda: _plain(*args, **kw))

        setattr(expert_module, name, timed)


def run(job: tuple[str, int, str, float]) -> list[dict[str, float]]:
    preset, index, seed, limit = job
    expert = TimedExpert()
    _timing_helpers(expert)
    budget = Budget(time_limit_s=limit)
    base = dealt(preset, index, seed)
    for expert_seat in (0, 1):
        deal = base  # a Deal is immutable: both games start from it
        bots = [expert, CarefulBot()] if expert_seat == 0 else [CarefulBot(), expert]
        rngs = [random.Random(f"{seed}:{index}:{expert_seat}:{seat}") for seat in (0, 1)]
        play_deal(deal, bots, rngs=rngs, budget=budget)
    for turn in expert.turns:
        turn["preset"] = float(list(PRESETS).index(preset))
    return expert.turns


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--first-deal", type=int, default=0, help="the index of the first deal")
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--time", type=float, default=2.0, help="the expert's seconds per turn")
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--slowest", type=int, default=10)
    args = parser.parse_args(argv)
    jobs = [
        (preset, index, args.seed, args.time)
        for preset in args.presets.split(",")
        for index in range(args.first_deal, args.first_deal + args.deals)
    ]
    turns: list[dict[str, float]] = []
    with multiprocessing.Pool(args.workers) as pool:
        for found in pool.imap_unordered(run, jobs):
            turns += found
    totals = [turn["total"] for turn in turns]
    print(" ".join(["bench/expert_phases.py", *(argv if argv is not None else sys.argv[1:])]))
    print(
        f"{len(turns)} expert turns: p50 {percentile(totals, 0.5) * 1000:.0f} ms, "
        f"p99 {percentile(totals, 0.99) * 1000:.0f} ms, max {max(totals) * 1000:.0f} ms, "
        f"over 3 s: {sum(t > 3.0 for t in totals)}, over 2 s: {sum(t > 2.0 for t in totals)}"
    )
    overs = [turn.get("over", 0.0) for turn in turns]
    print(
        f"past its own deadline: {sum(o > 0 for o in overs)} turns, by at most "
        f"{max(overs) * 1000:.0f} ms (p99 {percentile(overs, 0.99) * 1000:.0f} ms)"
    )
    print("slowest turns (ms): total, past deadline: " + " ".join(PHASES))
    for turn in sorted(turns, key=lambda t: -t["total"])[: args.slowest]:
        parts = " ".join(f"{turn.get(p, 0.0) * 1000:.0f}" for p in PHASES)
        print(f"  {turn['total'] * 1000:.0f}, {turn.get('over', 0.0) * 1000:.0f}: {parts}")
    print(f"load average {' '.join(f'{load:.2f}' for load in os.getloadavg())}")


if __name__ == "__main__":
    main()
