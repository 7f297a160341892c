"""What the exact solver leaves for the cyclic garbage collector: objects still tracked
after ``--solves`` calls of ``best_opening`` with the collector off, and how many of
them a collection then frees (unreachable cycles). A bot's decision makes thousands of
such calls; a collection of that garbage is a pause in the middle of a turn.

    .venv/bin/python bench/solver_garbage.py [--solves 200] [--preset serbian]

Counts objects, not time: the host's load does not change it.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import PRESETS, Deal  # noqa: E402
from games.engine.solver import best_opening  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--solves", type=int, default=200)
    parser.add_argument("--preset", default="serbian", choices=sorted(PRESETS))
    args = parser.parse_args()
    ruleset = PRESETS[args.preset]
    hands = [
        list(Deal.new(ruleset, 2, dealer=0, rng=random.Random(index)).hands[0])
        for index in range(args.solves)
    ]
    gc.collect()
    gc.disable()
    before = len(gc.get_objects())
    for hand in hands:
        best_opening(hand, ruleset)
    left = len(gc.get_objects()) - before
    freed = gc.collect()
    gc.enable()
    print(
        f"bench/solver_garbage.py: {args.solves} solves ({args.preset} opening hands): "
        f"{left} more objects tracked, {freed} of them freed by a collection"
    )


if __name__ == "__main__":
    main()
