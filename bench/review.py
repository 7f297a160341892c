"""What a deal's review costs (``games.review.analysis.review_deal``), in-process.

    python bench/review.py [--deals 30] [--players 2] [--presets serbian macedonian polish51]

Each deal is played out on the engine alone by the built-in bots (seat 0 the random
level, the others the greedy one, so that the review has mistakes to find), then, in
alternating order, replayed (the engine applying the deal's actions from the deal as
dealt: what the replay page costs, the baseline) and reviewed (the same replay plus the
solver on every turn). It prints, per preset: the deals, their turns, the review's time
per deal (p50, p99, max, in ms), the replay's p50 and the median ratio review/replay,
and the review's budget misses (turns left unexamined within ``--budget-s``).

A benchmark, not a test: it asserts nothing. The machine's load changes the times; the
ratio to the replay measured in the same rounds is the figure to compare.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import bots  # noqa: E402
from games.engine import PRESETS  # noqa: E402
from games.engine import Deal as EngineDeal  # noqa: E402
from games.review.analysis import Played, review_deal  # noqa: E402

MAX_ACTIONS = 3000


def play_deal(preset: str, players: int, seed: int) -> tuple[EngineDeal, list[Played]]:
    """A deal dealt from ``seed`` and played to its end by the bots."""
    ruleset = PRESETS[preset]
    rng = random.Random(seed)
    dealt = EngineDeal.new(ruleset, players, dealer=seed % players, rng=rng)
    deal = dealt
    played: list[Played] = []
    while not deal.is_over and len(played) < MAX_ACTIONS:
        seat = deal.to_move
        level = 1 if seat == 0 else 2
        for action in bots.decide(level, deal.view(seat), None, ruleset, rng, None):
            played.append(Played(len(played) + 1, seat, action))
            deal = deal.apply(action)
            if deal.is_over or deal.to_move != seat:
                break
    return dealt, played


def replay(dealt: EngineDeal, played: list[Played]) -> None:
    deal = dealt
    for move in played:
        deal = deal.apply(move.action)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--presets", nargs="+", default=["serbian", "macedonian", "polish51"])
    parser.add_argument("--budget-s", type=float, default=5.0, help="REVIEW_BUDGET_S")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"bench/review.py {' '.join(sys.argv[1:])}".strip())
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"{'preset':<12}{'deals':>6}{'turns':>7}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}"
        f"{'replay p50':>12}{'ratio':>8}{'unexamined':>12}"
    )
    for preset in args.presets:
        reviews: list[float] = []
        replays: list[float] = []
        ratios: list[float] = []
        turns = unexamined = 0
        for index in range(args.deals):
            dealt, played = play_deal(preset, args.players, args.seed * 100_000 + index)
            timings: dict[str, float] = {}
            order = ["replay", "review"] if index % 2 == 0 else ["review", "replay"]
            for what in order:
                started = time.perf_counter()
                if what == "replay":
                    replay(dealt, played)
                else:
                    result = review_deal(dealt, played, deadline=time.monotonic() + args.budget_s)
                timings[what] = (time.perf_counter() - started) * 1000
            turns += len(result.turns)
            unexamined += result.unexamined
            reviews.append(timings["review"])
            replays.append(timings["replay"])
            ratios.append(timings["review"] / max(timings["replay"], 1e-6))
        print(
            f"{preset:<12}{args.deals:>6}{turns / args.deals:>7.1f}"
            f"{statistics.median(reviews):>9.1f}{percentile(reviews, 0.99):>9.1f}"
            f"{max(reviews):>9.1f}{statistics.median(replays):>12.2f}"
            f"{statistics.median(ratios):>8.1f}{unexamined:>12}"
        )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
