"""Does reading the others' play deal search worlds closer to their real hands?

Careful bots play seeded 2-player deals. Before each decision of seat 0
this bench deals ``--worlds`` search worlds from seat 0's observation in
three ways, and counts how many cards of the opponent's world hand are in
its real hand (the overlap; the real deal is read here only to score):

- ``uniform``: the unseen cards dealt at random (only the known taken
  discards placed);
- ``laid``: hands that hold a meld their owner would have laid kept one
  time in ten (``world.laid_what_it_could``), what the expert did before;
- ``read``: that and the throws and declines read (``reading.hands_read``),
  what the expert does now;
- ``shaped``: ``read``, and a hand kept less often for each card in it that
  works with no other (no card of its rank, none of its suit within two
  ranks): a player throws such cards first, so a real hand holds few of them
  (a hand ``--loose`` times as likely for each one).

It prints the mean overlap per decision (cards of the world hand that are
really there, out of the hand's unknown cards) with a 95% interval over the
deals, and the gain over ``uniform``, paired per deal.

    .venv/bin/python bench/bot_reading.py --deals 100 --worlds 20
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bots import dealt, interval  # noqa: E402

from games.bots import Budget, CarefulBot  # noqa: E402
from games.bots.arena import play_deal  # noqa: E402
from games.bots.base import Observation  # noqa: E402
from games.bots.planning import rank_gap  # noqa: E402
from games.bots.reading import hands_read  # noqa: E402
from games.bots.world import deal_hidden, known_in_hands, laid_what_it_could  # noqa: E402
from games.engine import PRESETS, Action, Card, Deal  # noqa: E402

WAYS = ("uniform", "laid", "read", "shaped")


def loose_cards(hand: Sequence[Card]) -> int:
    """The cards of ``hand`` that work with no other: no card of their rank, none of
    their suit within two ranks, no joker."""
    if any(card.is_joker for card in hand):
        return 0
    return sum(
        not any(
            other is not card
            and (
                other.rank == card.rank
                or (other.suit is card.suit and rank_gap(other.rank, card.rank) <= 2)
            )
            for other in hand
        )
        for card in hand
    )


def shaped(obs: Observation, loose: float) -> Callable[[int, list[Card]], bool]:
    """``hands_read``, and each loose card makes a hand ``loose`` times as likely."""
    read = hands_read(obs)
    draws = random.Random(len(obs.view.discard) * 13 + 5)

    def plausible(seat: int, hand: list[Card]) -> bool:
        return read(seat, hand) and draws.random() < loose ** loose_cards(hand)

    return plausible


class Scoring(CarefulBot):
    """A careful seat 0 that, before deciding, scores the worlds each way would deal."""

    def __init__(self, worlds: int, seed: str, loose: float) -> None:
        super().__init__()
        self.worlds = worlds
        self.loose = loose
        self.seed = seed
        self.truth: Deal | None = None
        self.overlaps: dict[str, list[float]] = {way: [] for way in WAYS}

    def see(self, deal: Deal) -> None:
        self.truth = deal

    def decide(self, obs: Observation, rng: random.Random, budget: Budget) -> list[Action]:
        truth = self.truth
        assert truth is not None
        other = 1 - obs.seat
        known = len(known_in_hands(obs)[other])
        unknown = len(truth.hand(other)) - known
        if unknown > 0:
            real = Counter(truth.hand(other))
            tests: dict[str, Callable[[int, list[Card]], bool] | None] = {
                "uniform": None,
                "laid": laid_what_it_could(obs),
                "read": hands_read(obs),
                "shaped": shaped(obs, self.loose),
            }
            for way, plausible in tests.items():
                total = 0
                for world in range(self.worlds):
                    world_rng = random.Random(f"{self.seed}:{len(obs.view.discard)}:{world}")
                    hands, _ = deal_hidden(obs, world_rng, plausible=plausible)
                    total += sum((Counter(hands[other]) & real).values()) - known
                self.overlaps[way].append(total / self.worlds / unknown)
        return super().decide(obs, rng, budget)


def run(task: tuple[str, int, int, str, float]) -> tuple[str, dict[str, float]]:
    """One deal's mean overlap per way of dealing."""
    preset, index, worlds, seed, loose = task
    scoring = Scoring(worlds, f"{seed}:{index}", loose)
    play_deal(
        dealt(preset, index, seed),
        [scoring, CarefulBot()],
        rngs=[random.Random(f"{seed}:{index}:{seat}") for seat in (0, 1)],
        budget=Budget(time_limit_s=None),
        before_decision=scoring.see,
    )
    means = {way: sum(values) / len(values) for way, values in scoring.overlaps.items() if values}
    return preset, means


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100, help="deals per preset")
    parser.add_argument("--worlds", type=int, default=20, help="worlds per decision and way")
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", default="reading")
    parser.add_argument(
        "--loose", type=float, default=0.5, help="shaped: a hand's likelihood per loose card"
    )
    args = parser.parse_args(argv)
    presets = args.presets.split(",")
    tasks = [(p, i, args.worlds, args.seed, args.loose) for p in presets for i in range(args.deals)]
    started = time.perf_counter()
    found: dict[str, list[dict[str, float]]] = {preset: [] for preset in presets}
    with multiprocessing.Pool(args.workers) as pool:
        for done, (preset, means) in enumerate(pool.imap_unordered(run, tasks, 4), 1):
            if len(means) == len(WAYS):
                found[preset].append(means)
            print(f"\r{done}/{len(tasks)} deals", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(" ".join(["bench/bot_reading.py", *(argv if argv is not None else sys.argv[1:])]))
    print(f"{'preset':<17} {'way':<8} {'deals':>6}  {'overlap (95% CI)':<18}  gain over uniform")
    for preset in presets:
        rows = found[preset]
        for way in WAYS:
            mean, half = interval([row[way] for row in rows])
            gain, gain_half = interval([row[way] - row["uniform"] for row in rows])
            print(
                f"{preset:<17} {way:<8} {len(rows):>6}  {100 * mean:5.1f}% ± {100 * half:4.1f}"
                f"      {100 * gain:+5.2f} ± {100 * gain_half:4.2f} points"
            )
    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"\n{time.perf_counter() - started:.0f} s wall clock, load average {load}")


if __name__ == "__main__":
    main()
