"""What could the expert's search gain with better information? A ceiling, not a bot.

The expert (level 4) plays seeded duplicate deals against the careful bot
(level 3) or, with ``--opponent greedy``, the greedy one (level 2), as in
``bench/bots.py``, but its search worlds are dealt in one of three ways:

- ``sampled``: from the cards its seat has not seen, as it really plays;
- ``hands``: the other hands are the real ones, the stock is the real
  stock's cards shuffled (perfect reading of the opponents, no luck);
- ``deal``: the real hands and the real stock order (every world is the
  real deal: perfect foresight, the edge any search over the same
  candidates could at most reach).

The gap between ``sampled`` and ``hands`` bounds what better inference of
the other hands can add; the gap between ``hands`` and ``deal`` is luck no
bot can have. Only this bench ever hands a bot the real deal.

    .venv/bin/python bench/expert_ceiling.py --deals 100 --sims 50
    .venv/bin/python bench/expert_ceiling.py --opponent greedy --presets serbian
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bots import dealt, interval  # noqa: E402

from games.bots import CarefulBot, ExpertBot, GreedyBot  # noqa: E402
from games.bots.arena import play_deal  # noqa: E402
from games.bots.base import Budget, Observation  # noqa: E402
from games.engine import PRESETS, Card, Deal  # noqa: E402

MODES = ("sampled", "hands", "deal")
OPPONENTS = {"careful": CarefulBot, "greedy": GreedyBot}


class InformedExpert(ExpertBot):
    """The expert, its worlds dealt from the real deal as ``mode`` says."""

    def __init__(self, mode: str) -> None:
        super().__init__()
        self.mode = mode
        self.truth: Deal | None = None

    def see(self, deal: Deal) -> None:
        self.truth = deal

    def deal_world(
        self,
        obs: Observation,
        rng: random.Random,
        plausible: Callable[[int, list[Card]], bool] | None,
    ) -> tuple[list[list[Card]], list[Card]]:
        truth = self.truth
        if self.mode == "sampled" or truth is None:
            return super().deal_world(obs, rng, plausible)
        hands = [list(truth.hand(seat)) for seat in range(truth.num_players)]
        stock = [truth.card(card_id) for card_id in truth.to_dict()["stock"]]
        if self.mode == "hands":
            rng.shuffle(stock)
        return hands, stock


@dataclass(frozen=True)
class Task:
    preset: str
    mode: str
    index: int
    seed: str
    sims: int
    opponent: str = "careful"


def run(task: Task) -> tuple[str, str, float, float]:
    """The expert's edge on one duplicate deal, score(opponent) - score(expert), and its
    share of the two games won (a tie half), each the mean of the two seatings."""
    base = dealt(task.preset, task.index, task.seed)
    searching = Budget(time_limit_s=None, simulations=task.sims)
    plain = Budget(time_limit_s=None)
    edge = wins = 0.0
    for expert_seat in (0, 1):
        expert = InformedExpert(task.mode)
        opponent = OPPONENTS[task.opponent]()
        bots = [expert, opponent] if expert_seat == 0 else [opponent, expert]
        seat_budgets = [searching if seat == expert_seat else plain for seat in (0, 1)]
        rngs = [random.Random(f"{task.seed}:{task.index}:{expert_seat}:{s}") for s in (0, 1)]
        # A Deal is immutable: both games start from ``base``.
        record = play_deal(base, bots, rngs=rngs, budget=seat_budgets, before_decision=expert.see)
        scores = record.result.scores
        mine, theirs = scores[expert_seat], scores[1 - expert_seat]
        edge += (theirs - mine) / 2
        wins += (1.0 if mine < theirs else 0.5 if mine == theirs else 0.0) / 2
    return task.preset, task.mode, edge, wins


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100, help="duplicate deals per preset, mode")
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--sims", type=int, default=50, help="the expert's rollouts per turn")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--opponent", default="careful", choices=sorted(OPPONENTS))
    args = parser.parse_args(argv)
    modes = args.modes.split(",")
    presets = args.presets.split(",")
    for kind, asked, known in (("mode", modes, MODES), ("preset", presets, tuple(PRESETS))):
        unknown = sorted(set(asked) - set(known))
        if unknown:
            parser.error(f"unknown {kind}(s) {', '.join(unknown)}: choose from {', '.join(known)}")
    if args.deals < 1 or args.sims < 1:
        parser.error("--deals and --sims must be at least 1")
    tasks = [
        Task(preset, mode, index, args.seed, args.sims, args.opponent)
        for preset in presets
        for mode in modes
        for index in range(args.deals)
    ]
    started = time.perf_counter()
    edges: dict[tuple[str, str], list[float]] = {}
    wins: dict[tuple[str, str], list[float]] = {}
    with multiprocessing.Pool(args.workers) as pool:
        for done, (preset, mode, edge, won) in enumerate(pool.imap_unordered(run, tasks, 4), 1):
            edges.setdefault((preset, mode), []).append(edge)
            wins.setdefault((preset, mode), []).append(won)
            print(f"\r{done}/{len(tasks)} deals", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(" ".join(["bench/expert_ceiling.py", *(argv if argv is not None else sys.argv[1:])]))
    print(
        f"{'preset':<16} {'worlds':<8} {'deals':>6}  expert v {args.opponent}: win rate (95% CI)"
        "   edge, pts/deal (95% CI)"
    )
    for preset in presets:
        for mode in modes:
            mean, half = interval(edges[(preset, mode)])
            rate, rate_half = interval(wins[(preset, mode)])
            won = f"{100 * rate:5.1f}% ± {100 * rate_half:4.1f}"
            print(
                f"{preset:<16} {mode:<8} {args.deals:>6}  {won}               "
                f"{mean:+6.1f} ± {half:4.1f}"
            )
    print(f"\n{time.perf_counter() - started:.0f} s wall clock")


if __name__ == "__main__":
    main()
