"""Level 4, "Expert": determinised search over the careful bot's best ideas.

For the turn at hand it takes the careful bot's few best candidates (draw
from the stock or take the discard; which cards to lay and which to throw;
open now or hold the opening back for a hand), the careful bot's own choice
first. Then, again and again, it deals a world consistent with everything
its seat has seen (the other hands, less the cards known to be in them, and
the stock order, all from the unseen cards; each other hand kept with the
likelihood its owner's play gives it, see ``reading``), plays each candidate in that
world and the rest of the deal with a fast greedy policy for every seat
(optionally the first ``careful_turns`` turns the careful way: closer to how
the deal really goes on, but each such turn costs about eight fast ones),
and scores the result (its deal score less the others' average). The same
worlds serve every candidate (common random numbers), so candidates are
compared world by world. A candidate replaces the careful favourite only
if it wins by a clear margin (``confidence`` standard errors of the paired
difference): rollouts are noisy, and the careful choice is a good prior.

It stops at ``budget.simulations`` rollouts or at its share of
``budget.time_limit_s``, whichever comes first. The time limit is for the
whole turn: choosing the draw gets ``DRAW_SHARE`` of it, and each call keeps
``SAFETY_MARGIN`` back. Every phase keeps to that deadline: finding the
candidates stops trying careful lines once it has passed (the favourite is
then the best line found so far, played without a search), as does the
careful turn after a stock draw inside a world; before every rollout it
checks that the slowest rollout seen so far still fits (a loaded machine
makes them slower), and a rollout that runs past the deadline is cut short
and not counted.

The careful knobs it searches with (``Weights``) are its own per ruleset
(``EXPERT_WEIGHTS``) unless given. In polish51 it drops careful's discard
danger and looks further ahead: measured on careful's own play, the danger
term predicts nothing of a polish51 deal's outcome, and without it the
careful policy plays better (see ``bench/careful_weights.py``).
"""

from __future__ import annotations

import contextlib
import gc
import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from games.engine import (
    Action,
    Card,
    Deal,
    DiscardTake,
    DrawStock,
    Ruleset,
    TakeDiscard,
    hand_penalty,
)

from .base import Budget, Observation
from .careful import CarefulBot, HandValue, Knowledge, Values, Weights, careful_lines
from .fast import fast_play, rollout
from .planning import Line, accepts, could_meld, lines, may_take
from .reading import hands_read
from .world import deal_hidden, imagine, laid_what_it_could

__all__ = ["EXPERT_WEIGHTS", "ExpertBot"]

# A candidate: the actions to play now. ``None`` stands for "draw from the
# stock, then play the careful way with whatever card comes".
Candidate = tuple[Action, ...] | None

DEFAULT_SIMULATIONS = 2_000  # used when the budget sets no cap on rollouts
DRAW_SHARE = 0.3  # of a turn's time limit, for choosing the draw (see ``_time_for``)
# Of the time limit, kept back for the caller and a loaded machine. At 0.12 a turn's p99
# was 2.04 to 2.06 s under a load average of 7 to 15 (docs/performance.md, "Bots").
SAFETY_MARGIN = 0.2

# The expert's careful knobs where they differ from careful's own, by ruleset name.
# polish51: in a regression of 52,557 careful-v-careful decisions (each decision's
# top lines played on to the deal's end in shared worlds), careful's discard danger
# was worth +0.01 +- 0.01 outcome points per point, i.e. nothing. Careful with these
# weights against plain careful (bench/careful_weights.py, polish51): +1.52 +- 0.92
# pts/deal on the 1,000 deals they were chosen on (seed sel1), +0.68 +- 0.69 on 2,000
# fresh ones (seed bench3); from there, horizon 6, no take margin or no hurry did
# no better (seed sel2). The polish51 expert with them against careful: 52.2% +- 1.1
# of games, +1.5 +- 0.6 pts/deal over 3,000 deals (bench/bots.py --pairs 3-4
# --expert-sims 50, seed bench3); with careful's weights it was 49.9% +- 1.7 and
# +0.1 +- 0.9 (1,000 deals, seed bench2).
EXPERT_WEIGHTS: dict[str, Weights] = {
    "polish51": Weights(feed_lay_off=0.0, feed_known=0.0, feed_near=0.0, horizon=5.0),
}


@dataclass(frozen=True, slots=True)
class SearchStats:
    """What the last decision looked at (for tests and the curious)."""

    candidates: int
    worlds: int
    rollouts: int
    chosen: int = 0  # the index of the candidate played (0: the careful favourite)


class ExpertBot:
    level = 4
    name = "expert"

    def __init__(
        self,
        *,
        candidates: int = 4,
        confidence: float = 1.5,
        prior: float = 0.0,
        drop: float = 1.0,
        min_worlds: int = 12,
        careful_after_draw: bool = True,
        wary_rollouts: bool = True,
        infer_hands: bool = True,
        read_discards: bool = True,
        careful_turns: int = 0,
        win_weight: float = 0.0,
        weights: Weights | None = None,
    ) -> None:
        self.max_candidates = candidates
        self.confidence = confidence  # standard errors a candidate must beat the favourite by
        self.prior = prior  # ... plus these points per deal
        self.drop = drop  # after ``min_worlds``, stop rolling out candidates this much worse
        self.min_worlds = min_worlds
        self.careful_after_draw = careful_after_draw
        self.wary_rollouts = wary_rollouts
        self.infer_hands = infer_hands  # deal the others hands their play makes likely
        self.read_discards = read_discards  # ... their throws and declines too (``reading``)
        self.careful_turns = careful_turns  # rollout turns played the careful way, then fast
        self.win_weight = win_weight  # points a rollout's win (or loss) counts beyond its score
        self.weights = weights  # None: the ruleset's own (``weights_for``)
        self.last: SearchStats | None = None

    def decide(self, obs: Observation, rng: random.Random, budget: Budget) -> list[Action]:
        with _collector_paused() as collect_young:
            return self._decide(obs, rng, budget, collect_young)

    def _decide(
        self,
        obs: Observation,
        rng: random.Random,
        budget: Budget,
        collect_young: Callable[[], None] = lambda: None,
    ) -> list[Action]:
        watch = _Stopwatch(budget.clock, _time_for(obs, budget.time_limit_s), collect_young)
        knowledge = Knowledge.of(obs)
        deal = imagine(obs, rng)
        candidates = self.candidates(deal, knowledge, watch.past)
        if len(candidates) == 1 or watch.past():
            # Nothing to compare, or no time left to: the careful favourite.
            self.last = SearchStats(len(candidates), 0, 0)
            return _actions(candidates[0])
        cap = budget.simulations if budget.simulations is not None else DEFAULT_SIMULATIONS
        tallies, worlds, rollouts = self._search(obs, rng, candidates, knowledge, cap, watch)
        chosen = self._pick(tallies)
        self.last = SearchStats(len(candidates), worlds, rollouts, chosen)
        return _actions(candidates[chosen])

    def weights_for(self, ruleset: Ruleset) -> Weights:
        """The careful knobs to search with: those given, else the ruleset's own."""
        if self.weights is not None:
            return self.weights
        return EXPERT_WEIGHTS.get(ruleset.name, Weights())

    def _search(
        self,
        obs: Observation,
        rng: random.Random,
        candidates: Sequence[Candidate],
        knowledge: Knowledge,
        cap: int,
        watch: _Stopwatch,
    ) -> tuple[list[_Tally], int, int]:
        """Roll the candidates out in shared worlds until the cap, the clock or a clear verdict.

        Returns each candidate's paired differences with the favourite
        (candidate 0), and how many worlds and rollouts that took.
        """
        tallies = [_Tally() for _ in candidates]
        alive = list(range(len(candidates)))
        worlds = rollouts = 0
        seat = obs.seat
        plausible = None
        if self.infer_hands and not watch.past():
            plausible = hands_read(obs) if self.read_discards else laid_what_it_could(obs)
        watch.lap()  # the time spent finding the candidates is no world's cost
        while len(alive) > 1 and rollouts + len(alive) <= cap:
            # A world is worth dealing only if it can compare the favourite with a challenger.
            if not watch.allows(watch.worst_world + 2 * watch.worst_rollout):
                break
            world_rng = random.Random(rng.getrandbits(64))
            hands, stock = self.deal_world(obs, world_rng, plausible)
            world = imagine(obs, world_rng, hands=hands, stock=stock)
            watch.lap_world()
            worlds += 1
            favourite = 0.0
            for index in alive:
                # Checked before every rollout, so that one slow world cannot overrun.
                watch.tidy()  # before the clock check, so that it sees the cost
                if not watch.allows(watch.worst_rollout):
                    return tallies, worlds, rollouts
                played = self.play(world, candidates[index], knowledge, watch.past)
                if watch.past():
                    return tallies, worlds, rollouts  # a careful turn after a draw ran over
                ended = self.roll_out(played, watch.past)
                if watch.past():
                    return tallies, worlds, rollouts  # cut short: its outcome means nothing
                outcome = _outcome(ended, seat, self.win_weight)
                watch.lap_rollout()
                rollouts += 1
                if index == alive[0]:
                    favourite = outcome
                else:
                    tallies[index].add(outcome - favourite)
            if worlds >= self.min_worlds:
                # A challenger clearly worse than the favourite gets no more rollouts.
                alive = [alive[0]] + [i for i in alive[1:] if not tallies[i].worse(self.drop)]
        return tallies, worlds, rollouts

    def deal_world(
        self,
        obs: Observation,
        rng: random.Random,
        plausible: Callable[[int, list[Card]], bool] | None,
    ) -> tuple[list[list[Card]], list[Card]]:
        """The hidden cards of one search world: every hand and the stock (top first).

        Dealt from what the seat has not seen. (``bench/expert_ceiling.py``
        overrides it to measure what knowing the real cards would be worth.)
        """
        return deal_hidden(obs, rng, plausible=plausible)

    def _pick(self, tallies: list[_Tally]) -> int:
        """The favourite, unless another candidate did better by a clear margin.

        A rollout's score swings by dozens of points, so the careful bot's
        favourite (candidate 0) stands unless another one beats it by
        ``confidence`` standard errors of the paired difference, plus
        ``prior`` points.
        """
        best, best_mean = 0, 0.0
        for index, tally in enumerate(tallies[1:], 1):
            if tally.count < 2:
                continue
            mean = tally.mean
            if mean + self.confidence * tally.error + self.prior < 0 and mean < best_mean:
                best, best_mean = index, mean
        return best

    # ------------------------------------------------------------ candidates

    def candidates(
        self, deal: Deal, knowledge: Knowledge, stop: Callable[[], bool] | None = None
    ) -> list[Candidate]:
        """The turns worth searching, the careful bot's favourite first.

        ``stop`` is the decision's clock: once it says so, the careful lines
        are the ones found so far (``careful_lines``), the best of those is the
        favourite, and no line holding the opening back is looked for.
        """
        weights = self.weights_for(deal.ruleset)
        values = Values(knowledge, weights)
        if not deal.drawn:
            if not may_take(deal):
                return [None]
            top = deal.discard_top
            assert top is not None
            taken = deal.apply(TakeDiscard())
            found = careful_lines(taken, knowledge, weights, values, stop)
            must_return = taken.must_return
            usable = [
                scored.line
                for scored in found
                if must_return is None or scored.line.opens or scored.line.goes_out
            ]
            if not usable or not _uses(usable[0], top, values.of(deal)):
                return [None]  # a take that does not use the card is no plan worth a search
            take: Candidate = (TakeDiscard(), *usable[0].actions)
            if CarefulBot(weights).should_take(deal, knowledge, stop):
                return [take, None]
            return [None, take]
        found = careful_lines(deal, knowledge, weights, values, stop)
        if found and found[0].line.goes_out:
            return [found[0].line.actions]
        chosen: list[Line] = [scored.line for scored in found[: self.max_candidates]]
        hold = None if stop is not None and stop() else self._hold_line(deal, chosen, values, stop)
        if hold is not None:
            chosen.append(hold)
        return _distinct([line.actions for line in chosen])

    def _hold_line(
        self,
        deal: Deal,
        chosen: Sequence[Line],
        values: Values,
        stop: Callable[[], bool] | None = None,
    ) -> Line | None:
        """Where a hand pays extra, the best line that keeps a ready opening back."""
        ruleset = deal.ruleset
        if deal.has_opened(deal.to_move) or not any(line.opens for line in chosen):
            return None
        normal, dry = ruleset.normal_close, ruleset.dry_hand_close
        if dry.winner >= normal.winner and dry.multiplier <= normal.multiplier and not dry.bonus:
            return None
        held = lines(deal, open_now=False, stop=stop)
        if not held:
            return None
        value = values.of(deal)
        return min(held, key=lambda line: value(line.left))

    # ------------------------------------------------------------ simulation

    def play(
        self,
        world: Deal,
        candidate: Candidate,
        knowledge: Knowledge,
        stop: Callable[[], bool] | None = None,
    ) -> Deal:
        """``world`` after the candidate turn (a stock draw is followed by careful play).

        ``stop`` bounds the careful play after a stock draw (``careful_lines``).
        """
        if candidate is None:
            world = world.apply(DrawStock())
            if not self.careful_after_draw:
                return fast_play(world, wary=self.wary_rollouts)
            weights = self.weights_for(world.ruleset)
            found = careful_lines(world, knowledge, weights, stop=stop)
            candidate = found[0].line.actions
        for action in candidate:
            world = world.apply(action)
        return world

    def roll_out(self, deal: Deal, stop: Callable[[], bool]) -> Deal:
        """The deal played to its end: ``careful_turns`` careful turns, then the fast policy."""
        careful = CarefulBot(self.weights_for(deal.ruleset))
        for _ in range(self.careful_turns):
            if deal.is_over or stop():
                return deal
            deal = careful.play_turn(deal)
        return rollout(deal, wary=self.wary_rollouts, stop=stop)


class _Tally:
    """Running mean and standard error of a candidate's paired score differences."""

    __slots__ = ("count", "squares", "total")

    def __init__(self) -> None:
        self.count = 0
        self.total = 0.0
        self.squares = 0.0

    def add(self, difference: float) -> None:
        self.count += 1
        self.total += difference
        self.squares += difference * difference

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else 0.0

    @property
    def error(self) -> float:
        if self.count < 2:
            return math.inf
        variance = max(0.0, self.squares / self.count - self.mean**2)
        return math.sqrt(variance / (self.count - 1))

    def worse(self, errors: float) -> bool:
        """Worse than the favourite by more than ``errors`` standard errors."""
        return self.count >= 2 and self.mean - errors * self.error > 0


class _Stopwatch:
    """The search's clock: may one more step of a given cost start without overrunning?

    It keeps the worst cost seen of dealing a world and of one rollout (a
    loaded machine or a long deal makes them grow), so the search stops while
    even the slowest step seen so far would still fit.
    """

    def __init__(
        self,
        clock: Callable[[], float],
        limit: float | None,
        tidy: Callable[[], None] = lambda: None,
    ) -> None:
        self.clock = clock
        self.tidy = tidy  # the paused collector's young generation, collected when due
        self.mark = clock()
        self.deadline = None if limit is None else self.mark + limit
        self.worst_world = 0.0
        self.worst_rollout = 0.0

    def allows(self, cost: float) -> bool:
        return self.deadline is None or self.clock() + cost <= self.deadline

    def past(self) -> bool:
        return self.deadline is not None and self.clock() > self.deadline

    def lap_world(self) -> None:
        self.worst_world = max(self.worst_world, self.lap())

    def lap_rollout(self) -> None:
        self.worst_rollout = max(self.worst_rollout, self.lap())

    def lap(self) -> float:
        """Seconds since the last lap (or the start)."""
        now = self.clock()
        elapsed, self.mark = now - self.mark, now
        return elapsed


@contextlib.contextmanager
def _collector_paused() -> Iterator[Callable[[], None]]:
    """No automatic garbage collection during a decision; the collector as it was after it.

    A full collection walks every object of the process (the solver's caches
    hold tens of thousands) and runs between two of the search's clock
    checks: measured under a load average of 13 on 2 cores, one took 1.7 s,
    enough to push a decision past its deadline. The search's deals and lines
    hold no cycles, but every solver call leaves one (its recursive closure):
    a 2 s decision left 167,000 such objects, and the young-generation
    collection that freed them when the collector came back on took 70 to
    190 ms after the deadline (``bench/expert_phases.py``). So the search
    collects the young generation itself while it runs, in small steps
    whose cost its clock sees (``_collect_young_garbage``, which it yields;
    a process that runs without the collector gets one that does nothing).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield _collect_young_garbage if was_enabled else _no_collection
    finally:
        if was_enabled:
            gc.enable()


# Young objects (allocations less frees of objects the collector tracks) after which the
# search collects the youngest generation. The solver's garbage is some 30 objects a call
# and a decision makes thousands of calls; 120,000 young objects took 130 to 190 ms to
# collect on the loaded machine, so one step at this size costs 10 to 20 ms.
YOUNG_GARBAGE_STEP = 15_000


def _collect_young_garbage() -> None:
    """Collect the youngest generation if the paused collector let much pile up.

    The young generation is cheap to walk, unlike a full collection. Each such
    step counts towards the middle one, which is collected here too once the
    collector's own threshold says so: left for the collector, it came when the
    decision ended and took up to 210 ms.
    """
    young, middle, _old = gc.get_count()
    if middle >= gc.get_threshold()[1]:
        gc.collect(1)
    elif young > YOUNG_GARBAGE_STEP:
        gc.collect(0)


def _no_collection() -> None:
    pass


def _time_for(obs: Observation, limit: float | None) -> float | None:
    """This call's share of the turn's ``limit``, less a safety margin.

    A turn that starts with a stock draw takes two calls (choose the draw,
    then play the card drawn) and the limit is for the whole turn: the draw
    takes ``DRAW_SHARE`` of it, and the play after it the rest, unless the
    draw cannot have been searched.
    """
    if limit is None:
        return None
    if obs.view.phase == "draw":
        share = DRAW_SHARE
    elif _draw_maybe_searched(obs):
        share = 1.0 - DRAW_SHARE
    else:
        share = 1.0
    return limit * share * (1.0 - SAFETY_MARGIN)


def _draw_maybe_searched(obs: Observation) -> bool:
    """In the play phase: may choosing this turn's draw have used its share of the time?

    Only a take that uses the top discard is searched (see ``_uses``), so a top
    card that melds with nothing in hand and lays off nowhere rules it out. (An
    over-estimate, cheap to check: after a stock draw the discard pile and who
    has opened are as they were, and the hand holds one more card.)
    """
    view = obs.view
    if view.taken is not None or not view.discard:
        return False  # this turn's take is in hand (its call chose the whole turn), or none
    opened = view.opened[obs.seat]
    if obs.ruleset.discard_take is DiscardTake.OPENED_ONLY and not opened:
        return False
    top = view.discard[-1][1]
    if top.is_joker or any(could_meld(top, card) for _, card in view.hand or ()):
        return True
    return opened and any(top in accepts(meld.meld, obs.ruleset) for meld in view.table)


def _uses(line: Line, card: Card, value: HandValue) -> bool:
    """Does ``line`` (after taking ``card``) use it: lay it now, or keep it in a meld to be?

    Throwing it straight back is a pass, and keeping it as deadwood helps nobody.
    """
    if line.discard == card:
        return False
    if card not in line.left:
        return True  # laid this turn
    return card not in value.dead(line.left)[1]


def _actions(candidate: Candidate) -> list[Action]:
    return [DrawStock()] if candidate is None else list(candidate)


def _distinct(candidates: list[tuple[Action, ...]]) -> list[Candidate]:
    return list(dict.fromkeys(candidates))


def _outcome(deal: Deal, seat: int, win_weight: float = 0.0) -> float:
    """The seat's score less the others' average (lower is better).

    Plus ``win_weight`` for a deal lost, minus it for a deal won (the lowest
    score): a deal is won by going out, and a large hand lost now and then
    can be worth fewer points than a win it makes less likely.
    """
    result = deal.result()
    if result is not None:
        scores = result.scores
    else:  # the rollout was cut short: the cards in hand stand in for the score
        scores = tuple(hand_penalty(deal.hand(s), deal.ruleset) for s in range(deal.num_players))
    others = [score for other, score in enumerate(scores) if other != seat]
    difference = scores[seat] - sum(others) / len(others)
    if win_weight:
        best = min(others)
        won = -1.0 if scores[seat] < best else 1.0 if scores[seat] > best else 0.0
        difference += win_weight * won
    return difference
