"""Engine speed figures (issue 2, "Speed"): python bench/engine.py

Single process, fixed seeds, a few minutes at most. Prints:
  (a) check_meld on 3-6 card melds, valid and invalid mixed (µs per call);
  (b) best_opening and best_partition on seeded random 15- and 20-card hands
      from the serbian pack (108 cards, 4 jokers), and on the worst hands we
      could construct (ms per call);
  (c) random legal self-play: full 4-player deals per second;
  (d) reading a stored deal snapshot (``Deal.from_dict``), which a server does
      once per move (µs per call).
Not a test: nothing here asserts a time. Times are wall-clock by default;
``--cpu`` measures this process's CPU time instead, for a shared, busy box
(the header prints the load average).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import (  # noqa: E402 - the path above makes the repo importable
    JOKER,
    PRESETS,
    Card,
    IllegalMeld,
    Ruleset,
    best_opening,
    best_partition,
    check_meld,
    full_pack,
    parse_cards,
)

SEED = 20240601
clock = time.perf_counter  # --cpu: time.process_time
SERBIAN = PRESETS["serbian"]

# The slowest hands we found, by hand and by hill-climbing on solver time:
# a whole suit plus twins or a set, and four jokers that macedonian lets sit
# in one run (serbian lays at most one per run, which makes it easier).
WORST_HANDS: list[tuple[str, str]] = [
    ("macedonian", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 2H 4H 6H JK JK JK JK"),
    ("macedonian", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 5S 5D 5C JK JK JK JK"),
    ("serbian", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 2H 4H 6H JK JK JK JK"),
    ("serbian", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 5S 5D 5C JK JK JK JK"),
    ("macedonian", "JK JK JK JK 5S 6S 7S 8S 5H 6H 7H 8H 5D 6D 7D 8D 5C 6C 7C 8C"),
    # found by hill-climbing
    ("macedonian", "AS 5S 5S 6S 7S 8S 8S 9S 10S JS QS KS 5H 7H 10H KD JK JK JK JK"),
    ("serbian", "9S AH 5H 6H 7H 7H 8H 9H 10H JH QH KH 5D 8D 6C 9C JK JK JK JK"),
]


def percentile(sorted_values: Sequence[float], fraction: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * fraction))]


def summary(times: list[float], unit: float, label: str) -> str:
    times = sorted(times)
    return (
        f"median {statistics.median(times) * unit:8.3f}  p99 {percentile(times, 0.99) * unit:8.3f}"
        f"  max {times[-1] * unit:8.3f} {label}"
    )


# ---------------------------------------------------------------- (a) check_meld


def meld_samples(rng: random.Random, count: int) -> list[list[Card]]:
    """3-6 card sequences: about half are melds (runs, sets, with jokers), half not."""
    standard = full_pack(0)[:52]
    samples = []
    for _ in range(count):
        size = rng.randint(3, 6)
        shape = rng.random()
        if shape < 0.4:  # a run, maybe with a joker
            suit = rng.choice(standard).suit
            low = rng.randint(1, 15 - size)
            cards = [Card(1 if r == 14 else r, suit) for r in range(low, low + size)]
            if rng.random() < 0.5:
                cards[rng.randrange(size)] = JOKER
        elif shape < 0.7:  # a set, maybe with a joker or a twin
            rank = rng.randint(1, 13)
            cards = [card for card in standard if card.rank == rank][: min(size, 4)]
            if rng.random() < 0.4:
                cards[-1] = JOKER
            rng.shuffle(cards)
        else:  # noise
            cards = rng.sample(standard, size)
        if rng.random() < 0.25:  # break it
            cards[rng.randrange(len(cards))] = rng.choice([*standard, JOKER])
        samples.append(cards)
    return samples


def bench_check_meld(rng: random.Random) -> None:
    samples = meld_samples(rng, 50_000)
    valid = 0
    for cards in samples:
        try:
            check_meld(cards, SERBIAN)
            valid += 1
        except IllegalMeld:
            pass
    # Each meld is timed over a batch of calls so that the clock's own cost
    # (large for --cpu) does not swamp a few microseconds.
    batch = 20
    times = []
    for cards in samples:
        start = clock()
        for _ in range(batch):
            try:  # noqa: SIM105 - contextlib.suppress would cost more than the call
                check_meld(cards, SERBIAN)
            except IllegalMeld:
                pass
        times.append((clock() - start) / batch)
    print(f"(a) check_meld, {len(samples)} melds of 3-6 cards ({valid} valid), µs per call")
    print("    " + summary(times, 1e6, ""))


# ---------------------------------------------------------------- (b) the solver


def random_hands(rng: random.Random, ruleset: Ruleset, size: int, count: int) -> list[list[Card]]:
    pack = full_pack(ruleset.jokers)
    return [rng.sample(pack, size) for _ in range(count)]


def bench_solver(rng: random.Random, ruleset: Ruleset, size: int, count: int) -> None:
    hands = random_hands(rng, ruleset, size, count)
    for solve in (best_opening, best_partition):
        times = []
        for hand in hands:
            start = clock()
            solve(hand, ruleset)
            times.append(clock() - start)
        label = f"{solve.__name__}, {count} random {size}-card {ruleset.name} hands"
        print("    " + summary(times, 1e3, label))


def bench_worst_hands() -> None:
    for name, text in WORST_HANDS:
        ruleset = PRESETS[name]
        hand = parse_cards(text)
        for solve in (best_opening, best_partition):
            times = []
            for _ in range(5):
                start = clock()
                solve(hand, ruleset)
                times.append(clock() - start)
            times.sort()
            print(
                f"    median {statistics.median(times) * 1e3:8.1f}  max {times[-1] * 1e3:8.1f}"
                f" {solve.__name__:<14} {name:<10} {text}"
            )


# ---------------------------------------------------------------- (c) self-play


def bench_self_play(seconds: float) -> None:
    print("(c) random legal self-play, full 4-player deals")
    try:
        from games.engine import Deal
        from games.engine.playout import play_out
    except ImportError as error:
        print(f"    skipped: games.engine.playout is not ready ({error})")
        return
    for name, ruleset in PRESETS.items():
        rng = random.Random(SEED)
        deals = 0
        start = clock()
        while clock() - start < seconds:
            deal = play_out(Deal.new(ruleset, 4, dealer=deals % 4, rng=rng), rng)
            assert deal.is_over
            deals += 1
        elapsed = clock() - start
        print(f"    {deals / elapsed:8.1f} deals/s  {name} ({deals} deals in {elapsed:.1f} s)")


# ---------------------------------------------------------------- (d) snapshots


def bench_snapshots(rng: random.Random, count: int) -> None:
    """Snapshots of random 4-player deals at random points of their play."""
    from games.engine import Deal
    from games.engine.playout import random_action

    snapshots = []
    for index in range(count):
        ruleset = list(PRESETS.values())[index % len(PRESETS)]
        deal = Deal.new(ruleset, 4, dealer=index % 4, rng=rng)
        for _ in range(rng.randrange(0, 120)):
            if deal.is_over:
                break
            deal = deal.apply(random_action(deal, rng))
        snapshots.append(deal.to_dict())
    times = []
    for snapshot in snapshots * 5:
        start = clock()
        Deal.from_dict(snapshot)
        times.append(clock() - start)
    print(f"(d) Deal.from_dict, µs per call ({len(snapshots)} snapshots, 5 reads each)")
    print("    " + summary(times, 1e6, ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the hands (smoke run)")
    parser.add_argument("--cpu", action="store_true", help="time CPU, not wall clock")
    args = parser.parse_args()
    global clock
    if args.cpu:
        clock = time.process_time
    scale = 10 if args.quick else 1
    load = ", ".join(f"{figure:.2f}" for figure in os.getloadavg())
    print(
        f"Python {platform.python_version()} on {platform.machine()} {platform.system()},"
        f" {os.cpu_count()} CPUs, load average {load}; {'CPU' if args.cpu else 'wall'} time"
    )
    rng = random.Random(SEED)
    bench_check_meld(rng)
    print("(b) solver, ms per call")
    bench_solver(random.Random(SEED), SERBIAN, 15, 10_000 // scale)
    bench_solver(random.Random(SEED + 1), SERBIAN, 20, 3_000 // scale)
    bench_solver(random.Random(SEED + 2), PRESETS["macedonian"], 20, 3_000 // scale)
    print("    worst constructed hands (5 runs each):")
    bench_worst_hands()
    bench_self_play(10.0 / scale)
    bench_snapshots(random.Random(SEED + 3), 600 // scale)


if __name__ == "__main__":
    main()
