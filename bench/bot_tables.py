"""Bots at a table of 3 to 6: which level ends a deal with the lowest score most often?

Every deal is played once per seat rotation with the same deck (same cards,
same stock order, same reshuffles): the levels move one seat on each time,
so every level plays every seat's cards from every position. For each level
it prints how often it ended a game with the lowest deal score (a shared
lowest counts as a share) with a 95% interval over the deals, and its mean
deal score. Then the decision time per turn of each level.

    .venv/bin/python bench/bot_tables.py --levels 4,3,2 --deals 20 --expert-sims 100 --expert-time 0
    .venv/bin/python bench/bot_tables.py --levels 4,3,2,1 --presets serbian --deals 10

Runs on ``--workers`` processes (default 2).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bots import interval, percentile  # noqa: E402

from games.bots import BOT_LEVELS, make_bot  # noqa: E402
from games.bots.arena import play_deal  # noqa: E402
from games.bots.base import Budget  # noqa: E402
from games.engine import PRESETS, Deal  # noqa: E402


@dataclass(frozen=True)
class Task:
    preset: str
    levels: tuple[int, ...]
    index: int
    seed: str
    expert: Budget


@dataclass
class Table:
    """One deal played in every rotation: per level, its lowest-score shares and scores."""

    preset: str
    lowest: dict[int, float] = field(default_factory=lambda: defaultdict(float))
    scores: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    turn_seconds: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))


def run(task: Task) -> Table:
    players = len(task.levels)
    base = Deal.new(
        PRESETS[task.preset],
        players,
        dealer=task.index % players,
        rng=random.Random(f"{task.seed}:{task.preset}:{players}:{task.index}"),
    )
    plain = Budget(time_limit_s=None)
    table = Table(task.preset)
    for shift in range(players):
        seated = [task.levels[(seat + shift) % players] for seat in range(players)]
        bots = [make_bot(level) for level in seated]
        budgets = [task.expert if level == 4 else plain for level in seated]
        rngs = [random.Random(f"{task.seed}:{task.index}:{shift}:{s}") for s in range(players)]
        record = play_deal(base, bots, rngs=rngs, budget=budgets)
        scores = record.result.scores
        low = min(scores)
        winners = [seat for seat, score in enumerate(scores) if score == low]
        for seat, level in enumerate(seated):
            share = 1.0 / len(winners) if seat in winners else 0.0
            table.lowest[level] += share / players
            table.scores[level].append(float(scores[seat]))
            table.turn_seconds[level].extend(record.turn_seconds[seat])
    return table


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="4,3,2", help="one level per seat (3 to 6 of them)")
    parser.add_argument("--deals", type=int, default=20, help="deals per preset (each rotated)")
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--expert-sims", type=int, default=None, help="level 4: rollouts per turn")
    parser.add_argument("--expert-time", type=float, default=2.0, help="level 4: s/turn (0: none)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", default="tables")
    args = parser.parse_args(argv)
    levels = tuple(int(level) for level in args.levels.split(","))
    if not 3 <= len(levels) <= 6 or len(set(levels)) != len(levels):
        parser.error("--levels: 3 to 6 different levels, one per seat")
    if any(level not in BOT_LEVELS for level in levels):
        parser.error(f"--levels: choose from {sorted(BOT_LEVELS)}")
    expert = Budget(time_limit_s=args.expert_time or None, simulations=args.expert_sims)
    presets = args.presets.split(",")
    tasks = [
        Task(preset, levels, index, args.seed, expert)
        for preset in presets
        for index in range(args.deals)
    ]
    started = time.perf_counter()
    tables: list[Table] = []
    with multiprocessing.Pool(args.workers) as pool:
        for done, table in enumerate(pool.imap_unordered(run, tasks), 1):
            tables.append(table)
            print(f"\r{done}/{len(tasks)} deals", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(" ".join(["bench/bot_tables.py", *(argv if argv is not None else sys.argv[1:])]))
    print(
        f"{'preset':<17} {'level':<12} {'deals':>6}  {'lowest score (95% CI)':<22}"
        f"  {'mean score':>10}"
    )
    times: dict[int, list[float]] = defaultdict(list)
    for preset in presets:
        mine = [table for table in tables if table.preset == preset]
        for level in levels:
            share, half = interval([table.lowest[level] for table in mine])
            scores = [score for table in mine for score in table.scores[level]]
            name = f"{level} {BOT_LEVELS[level].name}"
            print(
                f"{preset:<17} {name:<12} {len(mine):>6}  {100 * share:5.1f}% ± {100 * half:4.1f}"
                f"{'':<10}  {sum(scores) / len(scores):10.1f}"
            )
        for table in mine:
            for level, seconds in table.turn_seconds.items():
                times[level] += seconds
    print(f"\n{'level':<12} {'turns':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for level in sorted(times):
        seconds = times[level]
        print(
            f"{level} {BOT_LEVELS[level].name:<10} {len(seconds):>8} "
            f"{1000 * percentile(seconds, 0.5):8.1f} {1000 * percentile(seconds, 0.99):8.1f} "
            f"{1000 * max(seconds):8.1f}"
        )
    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"\n{time.perf_counter() - started:.0f} s wall clock, load average {load}")


if __name__ == "__main__":
    main()
