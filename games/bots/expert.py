"""Level 4, "Expert": determinised search over the careful bot's best ideas.

For the turn at hand it takes the careful bot's few best candidates (draw
from the stock or take the discard; which cards to lay and which to throw;
open now or hold the opening back for a hand), the careful bot's own choice
first. Then, again and again, it deals a world consistent with everything
its seat has seen (the other hands, less the cards known to be in them, and
the stock order, all from the unseen cards), plays each candidate in that
world and the rest of the deal with a fast greedy policy for every seat,
and scores the result (its deal score less the others' average). The same
worlds serve every candidate (common random numbers), so candidates are
compared world by world. A candidate replaces the careful favourite only
if it wins by a clear margin (``confidence`` standard errors of the paired
difference): rollouts are noisy, and the careful choice is a good prior.

It stops at ``budget.simulations`` rollouts or ``budget.time_limit_s``
seconds, whichever comes first; a decision takes at least one world.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.engine import Action, Deal, DrawStock, TakeDiscard, hand_penalty

from .base import Budget, Observation
from .careful import CarefulBot, Knowledge, Values, Weights, careful_lines
from .fast import fast_play, rollout
from .planning import Line, lines, may_take
from .world import deal_hidden, imagine

__all__ = ["ExpertBot"]

# A candidate: the actions to play now. ``None`` stands for "draw from the
# stock, then play the careful way with whatever card comes".
Candidate = tuple[Action, ...] | None

DEFAULT_SIMULATIONS = 2_000  # used when the budget sets no cap on rollouts


@dataclass(frozen=True, slots=True)
class SearchStats:
    """What the last decision looked at (for tests and the curious)."""

    candidates: int
    worlds: int
    rollouts: int


class ExpertBot:
    level = 4
    name = "expert"

    def __init__(
        self,
        *,
        candidates: int = 4,
        confidence: float = 1.5,
        prior: float = 0.0,
        careful_after_draw: bool = True,
        wary_rollouts: bool = True,
        weights: Weights | None = None,
    ) -> None:
        self.max_candidates = candidates
        self.confidence = confidence  # standard errors a candidate must beat the favourite by
        self.prior = prior  # ... plus these points per deal
        self.careful_after_draw = careful_after_draw
        self.wary_rollouts = wary_rollouts
        self.weights = weights or Weights()
        self.last: SearchStats | None = None

    def decide(self, obs: Observation, rng: random.Random, budget: Budget) -> list[Action]:
        deadline = budget.deadline()
        knowledge = Knowledge.of(obs)
        deal = imagine(obs, rng)
        candidates = self.candidates(deal, knowledge)
        if len(candidates) == 1:
            self.last = SearchStats(1, 0, 0)
            return _actions(candidates[0])
        cap = budget.simulations if budget.simulations is not None else DEFAULT_SIMULATIONS
        # Paired differences with the favourite (candidate 0), world by world.
        sums = [0.0] * len(candidates)
        squares = [0.0] * len(candidates)
        worlds = rollouts = 0
        seat = obs.seat
        clock = budget.clock
        started = clock()
        while True:
            world_rng = random.Random(rng.getrandbits(64))
            hands, stock = deal_hidden(obs, world_rng)
            world = imagine(obs, world_rng, hands=hands, stock=stock)
            worlds += 1
            outcomes = []
            for candidate in candidates:
                played = self.play(world, candidate, knowledge)
                outcomes.append(_outcome(rollout(played, wary=self.wary_rollouts), seat))
                rollouts += 1
            for index, outcome in enumerate(outcomes):
                difference = outcome - outcomes[0]
                sums[index] += difference
                squares[index] += difference * difference
            if rollouts + len(candidates) > cap:
                break
            if deadline is not None:
                # Stop when one more world would likely overrun the deadline.
                now = clock()
                if now + (now - started) / worlds >= deadline:
                    break
        self.last = SearchStats(len(candidates), worlds, rollouts)
        return _actions(candidates[self._pick(sums, squares, worlds)])

    def _pick(self, sums: list[float], squares: list[float], worlds: int) -> int:
        """The favourite, unless another candidate did better by a clear margin.

        A rollout's score swings by dozens of points, so the careful bot's
        favourite (candidate 0) stands unless another one beats it by
        ``confidence`` standard errors of the paired difference, plus
        ``prior`` points.
        """
        best, best_mean = 0, 0.0
        for index in range(1, len(sums)):
            mean = sums[index] / worlds
            variance = max(0.0, squares[index] / worlds - mean * mean)
            error = math.sqrt(variance / max(1, worlds - 1))
            if mean + self.confidence * error + self.prior < 0 and mean < best_mean:
                best, best_mean = index, mean
        return best

    # ------------------------------------------------------------ candidates

    def candidates(self, deal: Deal, knowledge: Knowledge) -> list[Candidate]:
        """The turns worth searching, the careful bot's favourite first."""
        values = Values(knowledge, self.weights)
        if not deal.drawn:
            if not may_take(deal):
                return [None]
            taken = deal.apply(TakeDiscard())
            found = careful_lines(taken, knowledge, self.weights, values)
            must_return = taken.must_return
            usable = [
                scored.line
                for scored in found
                if must_return is None or scored.line.opens or scored.line.goes_out
            ]
            if not usable:
                return [None]
            take: Candidate = (TakeDiscard(), *usable[0].actions)
            if CarefulBot(self.weights).should_take(deal, knowledge):
                return [take, None]
            return [None, take]
        found = careful_lines(deal, knowledge, self.weights, values)
        if found and found[0].line.goes_out:
            return [found[0].line.actions]
        chosen: list[Line] = [scored.line for scored in found[: self.max_candidates]]
        hold = self._hold_line(deal, chosen, knowledge, values)
        if hold is not None:
            chosen.append(hold)
        return _distinct([line.actions for line in chosen])

    def _hold_line(
        self, deal: Deal, chosen: Sequence[Line], knowledge: Knowledge, values: Values
    ) -> Line | None:
        """Where a hand pays extra, the best line that keeps a ready opening back."""
        ruleset = deal.ruleset
        if deal.has_opened(deal.to_move) or not any(line.opens for line in chosen):
            return None
        normal, dry = ruleset.normal_close, ruleset.dry_hand_close
        if dry.winner >= normal.winner and dry.multiplier <= normal.multiplier and not dry.bonus:
            return None
        held = lines(deal, open_now=False)
        if not held:
            return None
        value = values.of(deal)
        return min(held, key=lambda line: value(line.left))

    # ------------------------------------------------------------ simulation

    def play(self, world: Deal, candidate: Candidate, knowledge: Knowledge) -> Deal:
        """``world`` after the candidate turn (a stock draw is followed by careful play)."""
        if candidate is None:
            world = world.apply(DrawStock())
            if not self.careful_after_draw:
                return fast_play(world, wary=self.wary_rollouts)
            found = careful_lines(world, knowledge, self.weights)
            candidate = found[0].line.actions
        for action in candidate:
            world = world.apply(action)
        return world


def _actions(candidate: Candidate) -> list[Action]:
    return [DrawStock()] if candidate is None else list(candidate)


def _distinct(candidates: list[tuple[Action, ...]]) -> list[Candidate]:
    return list(dict.fromkeys(candidates))


def _outcome(deal: Deal, seat: int) -> float:
    """The seat's score less the others' average (lower is better)."""
    result = deal.result()
    if result is not None:
        scores = result.scores
    else:  # the rollout was cut short: the cards in hand stand in for the score
        scores = tuple(hand_penalty(deal.hand(s), deal.ruleset) for s in range(deal.num_players))
    others = [score for other, score in enumerate(scores) if other != seat]
    return scores[seat] - sum(others) / len(others)
