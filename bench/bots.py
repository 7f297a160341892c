"""Bot strength and speed: seeded duplicate deals between every pair of levels.

Every deal is played twice with the same deck (same cards, same stock order,
same reshuffles) and the bots' seats swapped, so luck of the cards cancels
out. For each preset and pairing (A the higher level, B the lower) it prints
A's win rate over the games (a win is the lower deal score; a void deal or a
tie counts a half) and A's edge, ``score(B) - score(A)`` per deal, each with
a 95% confidence interval over the deals. Then the decision time per turn of
each level (p50, p99).

    .venv/bin/python bench/bots.py                    # the full run (long)
    .venv/bin/python bench/bots.py --deals 100 --expert-deals 10 --presets serbian
    .venv/bin/python bench/bots.py --pairs 3-4 --expert-sims 200 --expert-time 0   # reproducible

``--json-out PATH`` also writes the figures as ``games/bots/measured_strength.json``
holds them (the bots page reads that file); ``--json-add`` adds them to the file
already there, pooling a pairing measured in both runs, so a pairing can be
extended with ``--first-deal``:

    python bench/bots.py --pairs 3-4 --expert-deals 20 --json-out F
    python bench/bots.py --pairs 3-4 --expert-deals 20 --first-deal 20 --json-out F --json-add

Runs on ``--workers`` processes (default 2).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.bots import BOT_LEVELS, make_bot  # noqa: E402
from games.bots.arena import play_deal  # noqa: E402
from games.bots.base import Budget  # noqa: E402
from games.engine import PRESETS, Deal  # noqa: E402

# A bot in a bench: its level and keyword arguments for ``make_bot``.
BotSpec = tuple[int, dict[str, Any]]


@dataclass
class Task:
    preset: str
    a: BotSpec
    b: BotSpec
    indices: list[int]
    seed: str
    budgets: tuple[Budget, Budget]


@dataclass
class Outcome:
    preset: str
    pair: tuple[int, int]
    edges: list[float] = field(default_factory=list)  # per deal: score(B) - score(A), mean of 2
    wins: list[float] = field(default_factory=list)  # per deal: A's wins over the 2 games
    turn_seconds: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))


def dealt(preset: str, index: int, seed: str) -> Deal:
    """The ``index``-th bench deal of a preset: the same for every pairing."""
    ruleset = PRESETS[preset]
    return Deal.new(ruleset, 2, dealer=index % 2, rng=random.Random(f"{seed}:{preset}:{index}"))


def run_task(task: Task) -> Outcome:
    outcome = Outcome(task.preset, (task.a[0], task.b[0]))
    bot_a = make_bot(task.a[0], **task.a[1])
    bot_b = make_bot(task.b[0], **task.b[1])
    budget_a, budget_b = task.budgets
    for index in task.indices:
        base = dealt(task.preset, index, task.seed)
        edge = 0.0
        wins = 0.0
        for a_seat in (0, 1):
            deal = base  # a Deal is immutable: both games start from it
            bots = [bot_a, bot_b] if a_seat == 0 else [bot_b, bot_a]
            budgets = (budget_a, budget_b) if a_seat == 0 else (budget_b, budget_a)
            rngs = [random.Random(f"{task.seed}:{index}:{a_seat}:{seat}") for seat in (0, 1)]
            record = play_deal(deal, bots, rngs=rngs, budget=budgets)
            scores = record.result.scores
            score_a, score_b = scores[a_seat], scores[1 - a_seat]
            edge += (score_b - score_a) / 2
            wins += (1.0 if score_a < score_b else 0.5 if score_a == score_b else 0.0) / 2
            for seat, level in ((a_seat, task.a[0]), (1 - a_seat, task.b[0])):
                outcome.turn_seconds[level].extend(record.turn_seconds[seat])
        outcome.edges.append(edge)
        outcome.wins.append(wins)
    return outcome


def interval(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval."""
    if len(values) < 2:
        return (values[0] if values else 0.0), math.inf
    return statistics.fmean(values), 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return math.nan
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def tasks_for(args: argparse.Namespace) -> Iterator[Task]:
    presets = args.presets.split(",")
    pairs = [tuple(int(x) for x in pair.split("-")) for pair in args.pairs.split(",")]
    expert = Budget(time_limit_s=args.expert_time or None, simulations=args.expert_sims)
    plain = Budget(time_limit_s=None)
    expert_options = json.loads(args.expert_options)
    for preset in presets:
        for low, high in pairs:
            a, b = max(low, high), min(low, high)
            deals = args.expert_deals if 4 in (a, b) else args.deals
            budgets = (expert if a == 4 else plain, expert if b == 4 else plain)
            chunk = args.chunk if 4 not in (a, b) else max(1, args.chunk // 10)
            options = (expert_options if a == 4 else {}, expert_options if b == 4 else {})
            end = args.first_deal + deals
            for start in range(args.first_deal, end, chunk):
                indices = list(range(start, min(end, start + chunk)))
                yield Task(preset, (a, options[0]), (b, options[1]), indices, args.seed, budgets)


def merge(
    outcomes: list[Outcome],
) -> tuple[dict[tuple[str, tuple[int, int]], Outcome], dict[int, list[float]]]:
    """The work units' outcomes per (preset, pairing), and every level's turn times."""
    merged: dict[tuple[str, tuple[int, int]], Outcome] = {}
    times: dict[int, list[float]] = defaultdict(list)
    for outcome in outcomes:
        key = (outcome.preset, outcome.pair)
        into = merged.setdefault(key, Outcome(outcome.preset, outcome.pair))
        into.edges += outcome.edges
        into.wins += outcome.wins
        for level, seconds in outcome.turn_seconds.items():
            times[level] += seconds
    return merged, times


def report(outcomes: list[Outcome], elapsed: float) -> str:
    merged, times = merge(outcomes)
    lines = [
        f"{'preset':<11} {'A vs B':<19} {'deals':>6}  {'A win rate (95% CI)':<22}"
        f"  {'A edge pts/deal (95% CI)':<26} significant",
    ]
    for (preset, (a, b)), outcome in sorted(merged.items()):
        win, win_ci = interval(outcome.wins)
        edge, edge_ci = interval(outcome.edges)
        names = f"{a} {BOT_LEVELS[a].name} v {b} {BOT_LEVELS[b].name}"
        significant = "yes" if edge - edge_ci > 0 and win - win_ci > 0.5 else "no"
        lines.append(
            f"{preset:<11} {names:<19} {len(outcome.edges):>6}  "
            f"{100 * win:5.1f}% ± {100 * win_ci:4.1f}{'':<10}"
            f"  {edge:+7.1f} ± {edge_ci:5.1f}{'':<11} {significant}"
        )
    lines.append("")
    lines.append(f"{'level':<12} {'turns':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for level in sorted(times):
        seconds = times[level]
        lines.append(
            f"{level} {BOT_LEVELS[level].name:<10} {len(seconds):>8} "
            f"{1000 * percentile(seconds, 0.5):8.1f} {1000 * percentile(seconds, 0.99):8.1f} "
            f"{1000 * max(seconds):8.1f}"
        )
    lines.append(f"\n{elapsed:.0f} s wall clock")
    return "\n".join(lines)


def measured(outcomes: list[Outcome], command: str) -> dict[str, Any]:
    """The figures as ``games/bots/measured_strength.json`` holds them (the bots page reads it)."""
    merged, times = merge(outcomes)
    pairings = []
    for (preset, (a, b)), outcome in sorted(merged.items()):
        win, win_ci = interval(outcome.wins)
        edge, edge_ci = interval(outcome.edges)
        pairings.append(
            {
                "preset": preset,
                "level": a,
                "opponent": b,
                "deals": len(outcome.edges),
                "win_rate": round(win, 4),
                "interval": round(win_ci, 4),
                "edge": round(edge, 2),
                "edge_interval": round(edge_ci, 2),
            }
        )
    decision_ms = {
        str(level): {
            "p50": round(1000 * percentile(seconds, 0.5), 1),
            "p99": round(1000 * percentile(seconds, 0.99), 1),
            "max": round(1000 * max(seconds), 1),
            "turns": len(seconds),
        }
        for level, seconds in sorted(times.items())
    }
    return {
        "command": command,
        "measured_at": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "load_average": " ".join(f"{load:.2f}" for load in os.getloadavg()),
        "pairings": pairings,
        "decision_ms": decision_ms,
    }


def added_to(earlier: dict[str, Any], later: dict[str, Any]) -> dict[str, Any]:
    """The figures of two runs in one file (the cheap pairings at many deals, the expert's
    at its real time budget; or one pairing extended with more deals).

    A pairing both runs measured is pooled: run the second with another
    ``--first-deal`` and the same ``--seed`` so that their deals differ. The
    pooled mean and interval come from each run's count, mean and interval
    (their sums of squares, exact but for the file's rounding). A level's
    decision times in both runs are the higher of the two for each percentile
    (a bound: percentiles do not pool), over both runs' turns. The commands
    and load averages are kept in order, joined by " ; ".
    """
    pairings: dict[tuple[str, int, int], dict[str, Any]] = {}
    for row in [*earlier["pairings"], *later["pairings"]]:
        key = (row["preset"], row["level"], row["opponent"])
        pairings[key] = pooled(pairings[key], row) if key in pairings else row
    decision_ms = dict(earlier["decision_ms"])
    for level, times in later["decision_ms"].items():
        before = decision_ms.get(level)
        if before is not None:
            times = {key: max(before[key], times[key]) for key in ("p50", "p99", "max")} | {
                "turns": before["turns"] + times["turns"]
            }
        decision_ms[level] = times
    return {
        "command": f"{earlier['command']} ; {later['command']}",
        "measured_at": later["measured_at"],
        "load_average": f"{earlier['load_average']} ; {later['load_average']}",
        "pairings": [pairings[key] for key in sorted(pairings)],
        "decision_ms": {level: decision_ms[level] for level in sorted(decision_ms)},
    }


def pooled(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any]:
    """One pairing's row over the deals of two runs (see ``added_to``)."""
    count = first["deals"] + second["deals"]
    row = {**first, "deals": count}
    for mean_key, half_key, digits in (("win_rate", "interval", 4), ("edge", "edge_interval", 2)):
        total = squares = 0.0
        for part in (first, second):
            n, mean = part["deals"], part[mean_key]
            sd = part[half_key] * math.sqrt(n) / 1.96 if n > 1 else 0.0
            total += n * mean
            squares += (n - 1) * sd * sd + n * mean * mean
        mean = total / count
        variance = max(0.0, (squares - count * mean * mean) / (count - 1))
        row[mean_key] = round(mean, digits)
        row[half_key] = round(1.96 * math.sqrt(variance / count), digits)
    return row


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000, help="duplicate deals per pairing")
    parser.add_argument(
        "--expert-deals", type=int, default=200, help="duplicate deals per pairing with level 4"
    )
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--pairs", default="1-2,1-3,2-3,1-4,2-4,3-4")
    parser.add_argument("--expert-sims", type=int, default=None, help="level 4: rollouts per turn")
    parser.add_argument(
        "--expert-time",
        type=float,
        default=2.0,
        help="level 4: seconds per turn (the platform's default; 0 for no limit)",
    )
    parser.add_argument(
        "--expert-options",
        default="{}",
        help="level 4: constructor options as JSON, e.g. '{\"careful_turns\": 4}'",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=50, help="deals per work unit")
    parser.add_argument("--seed", default="bench")
    parser.add_argument(
        "--first-deal", type=int, default=0, help="the index of the first deal (to extend a run)"
    )
    parser.add_argument(
        "--json-out",
        metavar="PATH",
        help="also write the figures as JSON (the format of games/bots/measured_strength.json)",
    )
    parser.add_argument(
        "--json-add",
        action="store_true",
        help="with --json-out: add this run's figures to those of the file already there "
        "(a pairing in both is pooled: give the second run another --first-deal)",
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    tasks = list(tasks_for(args))
    outcomes: list[Outcome] = []
    with multiprocessing.Pool(args.workers) as pool:
        for done, outcome in enumerate(pool.imap_unordered(run_task, tasks), 1):
            outcomes.append(outcome)
            print(f"\r{done}/{len(tasks)} work units", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    command = " ".join(["bench/bots.py", *(argv if argv is not None else sys.argv[1:])])
    print(command)
    print(report(outcomes, time.perf_counter() - started))
    print(f"load average {' '.join(f'{load:.2f}' for load in os.getloadavg())}")
    if args.json_out:
        figures = measured(outcomes, command)
        if args.json_add and os.path.exists(args.json_out):
            with open(args.json_out, encoding="utf-8") as earlier:
                figures = added_to(json.load(earlier), figures)
        with open(args.json_out, "w", encoding="utf-8") as out:
            json.dump(figures, out, indent=1)
            out.write("\n")


if __name__ == "__main__":
    main()
