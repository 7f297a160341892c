"""Do other careful knobs play better? Careful with ``--weights`` against careful.

Both bots are the careful bot (level 3); one plays with the ``Weights``
changed as ``--weights`` says (a JSON object), the other as ``--against``
says (by default: careful's own weights). Seeded duplicate deals as in
``bench/bots.py`` (same deck, seats swapped), 2 players. Prints, per preset,
the changed bot's win rate and its edge ``score(other) - score(changed)``
per deal, each with a 95% interval.

    .venv/bin/python bench/careful_weights.py --presets polish51 --deals 2000 --seed bench3 \\
        --weights '{"feed_lay_off": 0, "feed_known": 0, "feed_near": 0, "horizon": 5.0}'

That is how the expert's polish51 weights (``EXPERT_WEIGHTS`` in
``games/bots/expert.py``) were chosen, and then measured on fresh deals.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bots import Task, interval, run_task  # noqa: E402

from games.bots.base import Budget  # noqa: E402
from games.bots.careful import Weights  # noqa: E402
from games.engine import PRESETS  # noqa: E402

CHUNK = 20  # deals per work unit


def weights_from(text: str) -> Weights:
    """``Weights`` from a JSON object of the fields to change; ValueError names what is wrong."""
    try:
        changes: Any = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"weights are not JSON: {error}") from None
    if not isinstance(changes, dict):
        raise ValueError("weights must be a JSON object, e.g. '{\"horizon\": 5.0}'")
    defaults = {field.name: field.default for field in dataclasses.fields(Weights)}
    unknown = sorted(set(changes) - set(defaults))
    if unknown:
        known = ", ".join(sorted(defaults))
        raise ValueError(f"unknown weight(s) {', '.join(unknown)}: choose from {known}")
    for name, value in changes.items():
        if not _fits(value, defaults[name]):
            kind = _KINDS[type(defaults[name])]
            raise ValueError(f"weight {name} must be {kind}, not {value!r}")
    return Weights(**changes)


_KINDS = {bool: "true or false", int: "a whole number", float: "a number"}


def _fits(value: object, default: object) -> bool:
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(value, bool) and isinstance(default, bool)
    if isinstance(default, int):
        return isinstance(value, int)
    return isinstance(value, int | float)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--weights", required=True, help="JSON object of the Weights to change")
    parser.add_argument("--against", default="{}", help="the other bot's Weights, as JSON")
    parser.add_argument("--deals", type=int, default=1000, help="duplicate deals per preset")
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", default="bench")
    args = parser.parse_args(argv)
    presets = args.presets.split(",")
    unknown = sorted(set(presets) - set(PRESETS))
    if unknown:
        parser.error(f"unknown preset(s) {', '.join(unknown)}: choose from {', '.join(PRESETS)}")
    if args.deals < 2:
        parser.error("--deals must be at least 2 (an interval needs two)")
    chosen: dict[str, Weights] = {}
    for option in ("weights", "against"):
        try:
            chosen[option] = weights_from(getattr(args, option))
        except ValueError as error:
            parser.error(f"--{option}: {error}")
    weights, against = chosen["weights"], chosen["against"]
    # Both bots are level 3, so bench/bots.py plays the deals: A the changed one, B the other.
    changed, other = (3, {"weights": weights}), (3, {"weights": against})
    plain = Budget(time_limit_s=None)
    tasks = [
        Task(
            preset,
            changed,
            other,
            list(range(start, min(args.deals, start + CHUNK))),
            args.seed,
            (plain, plain),
        )
        for preset in presets
        for start in range(0, args.deals, CHUNK)
    ]
    started = time.perf_counter()
    edges: dict[str, list[float]] = {preset: [] for preset in presets}
    wins: dict[str, list[float]] = {preset: [] for preset in presets}
    with multiprocessing.Pool(args.workers) as pool:
        for done, outcome in enumerate(pool.imap_unordered(run_task, tasks), 1):
            edges[outcome.preset] += outcome.edges
            wins[outcome.preset] += outcome.wins
            print(f"\r{done}/{len(tasks)} work units", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(" ".join(["bench/careful_weights.py", *(argv if argv is not None else sys.argv[1:])]))
    print(f"{'preset':<11} {'deals':>6}  {'win rate (95% CI)':<20} edge over the other, pts/deal")
    for preset in presets:
        rate, rate_half = interval(wins[preset])
        mean, half = interval(edges[preset])
        win_text = f"{100 * rate:5.1f}% ± {100 * rate_half:4.1f}"
        print(f"{preset:<11} {args.deals:>6}  {win_text:<20} {mean:+6.2f} ± {half:4.2f}")
    print(f"\n{time.perf_counter() - started:.0f} s wall clock")


if __name__ == "__main__":
    main()
