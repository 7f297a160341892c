"""The meld solver: the best opening and the best partition of a hand.

Both searches are exact (they always return an optimum).

How it works. The hand becomes a bitmask over its real cards (sorted by
code, a twin in the slot after its brother) plus a joker count. Every meld
the hand could lay down is generated once as a candidate: the cards it
takes, its jokers and its weight (what it scores for the objective), keeping
the best joker arrangement for each (cards, jokers) pair. The search then
decides the lowest remaining card: it either stays in the hand or goes into
one of the candidates whose lowest card it is. That is a branch and bound:
the best each remaining card (and joker) could still add bounds a branch,
the most promising candidates are tried first, and results are memoised on
(remaining cards, jokers left), exact or as a proven upper bound.

Twins are interchangeable, so a remaining multiset gets one canonical mask:
once one copy is gone the survivor sits in the lower slot. Candidates then
only name lower slots and the memo never holds the same multiset twice.

Cards that share no candidate only interact through the jokers, so each
connected group of cards is searched on its own and, when more than one
group can use jokers, the groups share them out with a small knapsack.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Final, Literal

from .cards import ACE, JOKER, STANDARD_CARDS, Card
from .melds import ACE_HIGH, Meld, check_meld
from .rulesets import Ruleset
from .values import card_penalty, hand_penalty, meld_value, position_value

__all__ = [
    "best_opening",
    "best_partition",
    "candidate_melds",
    "opening_for_turn",
    "remaining_cards",
]

Objective = Literal["opening", "partition"]

_BY_CODE: Final = tuple(sorted(STANDARD_CARDS, key=lambda card: card.code))
_JOKER_CODE: Final = -1  # a joker in a candidate's laid-out codes

# A weight packs a primary score, a secondary score and the meld count into
# one int so that ties are broken inside the search itself:
#     primary * _HIGH + secondary * _LOW - melds
# opening: primary = meld value, secondary = hand penalty laid away;
# partition: the other way round. The secondary total stays below
# 24 cards x 25 points x _LOW and the meld count below _LOW, so the fields
# never mix.
_HIGH: Final = 1 << 20
_LOW: Final = 1 << 6

# How many narrow searches (see _Search.value) before a plain one.
_NARROW_TRIES: Final = 1


# ---------------------------------------------------------------- the hand


@dataclass(slots=True)
class _Hand:
    """A hand as real-card slots plus a joker count."""

    slots: list[int]  # the card code of each slot, sorted; twins side by side
    first_slot: dict[int, int]  # code -> its (lower) slot
    counts: list[int]  # code -> copies held (0-2)
    jokers: int
    twins: int  # a bit on the lower slot of each held pair

    @classmethod
    def of(cls, cards: Iterable[Card]) -> _Hand:
        counts = [0] * 52
        jokers = 0
        for card in cards:
            if card.suit is None:
                jokers += 1
            else:
                counts[card.code] += 1
        slots: list[int] = []
        first_slot: dict[int, int] = {}
        twins = 0
        for code, count in enumerate(counts):
            if count > 2:
                raise ValueError(
                    f"a hand holds at most 2 of each card (two decks), "
                    f"not {count} x {_BY_CODE[code]}"
                )
            if count:
                first_slot[code] = len(slots)
                if count == 2:
                    twins |= 1 << len(slots)
                slots.extend([code] * count)
        return cls(slots, first_slot, counts, jokers, twins)


# ---------------------------------------------------------------- scoring tables


@dataclass(frozen=True, slots=True)
class _Scoring:
    """What one ruleset and objective make of each card, as lookup tables."""

    objective: Objective
    run_worth: tuple[tuple[int, ...], ...]  # [low][rank]: opening value of that position
    set_worth: tuple[int, ...]  # [rank]: opening value of a set's card
    penalty: tuple[int, ...]  # [code]: penalty of a real card
    joker_penalty: int
    share: tuple[int, ...]  # [code]: the most weight the card can bring to any meld

    def weight(self, value: int, penalty: int) -> int:
        if self.objective == "opening":
            return value * _HIGH + penalty * _LOW - 1
        return penalty * _HIGH + value * _LOW - 1

    def joker_share(self, worth: int) -> int:
        """A bound on a joker's weight when the best place it can take is worth ``worth``."""
        return self.weight(worth, self.joker_penalty) + 1


@lru_cache(maxsize=64)  # a few presets and house rules
def _scoring(ruleset: Ruleset, objective: Objective) -> _Scoring:
    royal = ruleset.royal_run_ace_value

    def run_worth(rank: int, low: int) -> int:
        if rank == ACE_HIGH and royal is not None and low <= 10:
            return royal  # serbian: the ace closing 10-J-Q-K-A
        return position_value(rank, ruleset)

    runs = tuple(
        tuple(run_worth(rank, low) if rank >= low else 0 for rank in range(ACE_HIGH + 1))
        for low in range(ACE_HIGH + 1)
    )
    sets = tuple(
        position_value(ACE_HIGH if rank == ACE else rank, ruleset) if rank else 0
        for rank in range(14)
    )
    penalty = tuple(card_penalty(card, ruleset) for card in _BY_CODE)
    best_ace = max(ruleset.ace_low_value, ruleset.ace_high_value, royal or 0)
    scoring = _Scoring(objective, runs, sets, penalty, ruleset.penalty_joker, ())
    share = tuple(
        scoring.weight(best_ace if card.rank == ACE else min(card.rank, 10), penalty[card.code]) + 1
        for card in _BY_CODE
    )
    return _Scoring(objective, runs, sets, penalty, ruleset.penalty_joker, share)


# ---------------------------------------------------------------- candidates


@dataclass(frozen=True, slots=True)
class _Candidate:
    """A meld the hand can lay down, in the search's terms."""

    mask: int  # the real cards it takes (lower twin slots, see the module doc)
    jokers: int
    weight: int
    share: int  # the shares of its real cards (see _Scoring.share)
    codes: tuple[int, ...]  # laid-out order, _JOKER_CODE for a joker


class _Generator:
    """Generates every candidate of a hand, one per (cards, jokers) pair."""

    def __init__(self, hand: _Hand, ruleset: Ruleset, scoring: _Scoring) -> None:
        self.hand = hand
        self.ruleset = ruleset
        self.scoring = scoring
        self.found: dict[int, _Candidate] = {}
        self.joker_worth = 0  # the best place any joker can take

    def run(self) -> list[_Candidate]:
        self.sets()
        limit = self.ruleset.max_jokers_in_run_laid
        jokers = self.hand.jokers if limit is None else min(limit, self.hand.jokers)
        counts = self.hand.counts
        for base in range(0, 52, 13):
            held = [counts[base + (rank - 1) % 13] for rank in range(ACE_HIGH + 1)]
            for low in range(1, ACE_HIGH - 1):
                # A run starts with a real card, or a joker then a real card.
                if held[low] or (jokers and held[low + 1]):
                    self.runs_from(base, low, jokers)
        return list(self.found.values())

    def offer(
        self, mask: int, jokers: int, value: int, penalty: int, share: int, codes: tuple[int, ...]
    ) -> None:
        # Several arrangements may take the same cards (JK 5C 6C or 5C 6C JK):
        # keep the best one. Runs come lowest start first, so on a tie the later one
        # wins: a joker that is worth the same at either end goes high, as a lay-down
        # puts it (docs/rules.md §3).
        weight = self.scoring.weight(value, penalty)
        key = mask << 4 | jokers  # a meld holds at most 7 jokers (never two side by side)
        held = self.found.get(key)
        if held is None or weight >= held.weight:
            self.found[key] = _Candidate(mask, jokers, weight, share, codes)

    def sets(self) -> None:
        hand = self.hand
        scoring = self.scoring
        max_jokers = min(self.ruleset.max_jokers_in_set, hand.jokers)
        for rank in range(1, 14):
            held = [code for code in range(rank - 1, 52, 13) if hand.counts[code]]
            if len(held) < 2:
                continue
            worth = scoring.set_worth[rank]
            penalty = scoring.penalty[held[0]]
            share = scoring.share[held[0]]
            for size in range(2, len(held) + 1):
                for chosen in combinations(held, size):
                    mask = sum(1 << hand.first_slot[code] for code in chosen)
                    for jokers in range(max(0, 3 - size), min(max_jokers, 4 - size) + 1):
                        if jokers:
                            self.joker_worth = max(self.joker_worth, worth)
                        self.offer(
                            mask,
                            jokers,
                            worth * (size + jokers),
                            penalty * size + scoring.joker_penalty * jokers,
                            share * size,
                            chosen + (_JOKER_CODE,) * jokers,
                        )

    def runs_from(self, base: int, low: int, max_jokers: int) -> None:
        """Offer every run of the suit starting at ``base`` whose first position is ``low``.

        Runs grow one position at a time; each open one is
        (mask, jokers, ends in a joker, value, penalty, share, codes).
        """
        counts = self.hand.counts
        first_slot = self.hand.first_slot
        scoring = self.scoring
        worths = scoring.run_worth[low]
        joker_penalty = scoring.joker_penalty
        open_runs: list[tuple[int, int, bool, int, int, int, tuple[int, ...]]] = [
            (0, 0, False, 0, 0, 0, ())
        ]
        for rank in range(low, ACE_HIGH + 1):
            code = base + (rank - 1) % 13
            worth = worths[rank]
            held = counts[code]
            if held:
                penalty = scoring.penalty[code]
                share = scoring.share[code]
                bit = 1 << first_slot[code]
            grown = []
            for mask, jokers, after_joker, value, pen, shares, codes in open_runs:
                if held:
                    taken = bit
                    if mask & bit:  # the ace both low and high (A 2 … K A) takes the twin
                        taken = bit << 1 if held == 2 else 0
                    if taken:
                        grown.append(
                            (
                                mask | taken,
                                jokers,
                                False,
                                value + worth,
                                pen + penalty,
                                shares + share,
                                (*codes, code),
                            )
                        )
                if not after_joker and jokers < max_jokers:
                    grown.append(
                        (
                            mask,
                            jokers + 1,
                            True,
                            value + worth,
                            pen + joker_penalty,
                            shares,
                            (*codes, _JOKER_CODE),
                        )
                    )
            if not grown:
                return
            if worth > self.joker_worth and any(entry[2] for entry in grown):
                self.joker_worth = worth  # a bound: the run may still die short
            open_runs = grown
            if rank - low >= 2:
                for mask, jokers, _, value, pen, shares, codes in open_runs:
                    self.offer(mask, jokers, value, pen, shares, codes)


def _candidates(
    hand: _Hand, ruleset: Ruleset, objective: Objective
) -> tuple[list[_Candidate], int]:
    """The hand's candidates and a bound on the weight one joker can bring."""
    scoring = _scoring(ruleset, objective)
    generator = _Generator(hand, ruleset, scoring)
    candidates = generator.run()
    return candidates, scoring.joker_share(generator.joker_worth)


# ---------------------------------------------------------------- the search


class _Search:
    """Branch and bound over (remaining cards, jokers left), memoised.

    ``best(mask, jokers, floor)`` is fail-soft: a result above ``floor`` is
    the exact best weight of the state; a result at or below ``floor`` only
    bounds it from above (the caller needs nothing that small). The memo keeps
    the two apart, so a bound found under one floor is reused under any floor
    it still fails.

    The bound of a state is the sum of the shares of its cards and jokers
    (see _Scoring.share). A candidate's *loss* is how far its weight falls
    short of the shares it uses up; each slot's candidates are sorted by loss,
    so the best-looking come first and the first that cannot beat what the
    state already has ends the scan.
    """

    def __init__(
        self, hand: _Hand, candidates: list[_Candidate], slot_share: list[int], joker_share: int
    ) -> None:
        self.twins = hand.twins
        self.shift = max(1, hand.jokers.bit_length())
        self.slot_share = slot_share
        self.joker_share = joker_share
        by_low: list[list[_Candidate]] = [[] for _ in hand.slots]
        for candidate in candidates:
            by_low[(candidate.mask & -candidate.mask).bit_length() - 1].append(candidate)
        for group in by_low:
            group.sort(key=self.loss)
        self.by_low = by_low
        self.exact: dict[int, int] = {}
        self.upper: dict[int, int] = {}
        self.solve, self.release = self._solver(hand.jokers)

    def loss(self, candidate: _Candidate) -> int:
        return candidate.share + candidate.jokers * self.joker_share - candidate.weight

    def bound(self, mask: int, jokers: int) -> int:
        share = sum(self.slot_share[slot] for slot in _slots_of(mask))
        return share + jokers * self.joker_share

    def canonical(self, mask: int) -> int:
        # A lone surviving twin moves to the lower slot (see the module doc).
        moved = ~mask & (mask >> 1) & self.twins
        return (mask | moved) & ~(moved << 1)

    def best(self, mask: int, jokers: int, floor: int = -1) -> int:
        """Fail-soft best weight of a state (exact when above ``floor``)."""
        return self.solve(mask, jokers, floor, self.bound(mask, jokers)) if mask else 0

    def _solver(
        self, hand_jokers: int
    ) -> tuple[Callable[[int, int, int, int], int], Callable[[], None]]:
        """The search itself: one closure over locals, the hot loop of the engine; and
        what ends it. The closure calls itself through its own cell, a reference cycle
        that would keep it and its tables until the cyclic collector runs (a bot's
        decision makes thousands of searches): ``release`` empties that cell."""
        exact_memo = self.exact
        upper_memo = self.upper
        twins = self.twins
        shift = self.shift
        slot_share = self.slot_share
        moves = [[(c.mask, c.jokers, c.weight, self.loss(c)) for c in g] for g in self.by_low]
        filters = [
            _Filter.of(group, hand_jokers) if len(group) >= _FILTER_FROM else None
            for group in self.by_low
        ]

        def solve(mask: int, jokers: int, floor: int, bound: int) -> int:
            if bound <= floor:
                return bound
            key = mask << shift | jokers
            got = exact_memo.get(key)
            if got is not None:
                return got
            got = upper_memo.get(key)
            if got is not None and got <= floor:
                return got
            low = mask & -mask
            slot = low.bit_length() - 1
            result = -1  # the best exact value so far, or a bound at or below floor
            for taken, need, weight, loss in _open_moves(moves[slot], filters[slot], mask, jokers):
                target = result if result > floor else floor
                if bound - loss <= target:
                    # Sorted by loss: none of the rest can beat what we have;
                    # this bound still counts (fail-soft).
                    if bound - loss > result:
                        result = bound - loss
                    break
                if need > jokers or taken & mask != taken:
                    continue
                rest = mask ^ taken
                if rest:
                    moved = ~rest & (rest >> 1) & twins
                    rest = (rest | moved) & ~(moved << 1)
                    weight += solve(rest, jokers - need, target - weight, bound - loss - weight)
                if weight > result:
                    result = weight
            # Or the lowest card stays in the hand.
            rest = mask ^ low
            if not rest:
                value = 0
            else:
                child_bound = bound - slot_share[slot]
                if child_bound <= (result if result > floor else floor):
                    value = child_bound
                else:
                    moved = ~rest & (rest >> 1) & twins
                    rest = (rest | moved) & ~(moved << 1)
                    value = solve(rest, jokers, result if result > floor else floor, child_bound)
            if value > result:
                result = value
            if result > floor:
                exact_memo[key] = result
            else:
                upper_memo[key] = result
            return result

        def release() -> None:
            nonlocal solve
            del solve

        return solve, release

    def value(self, mask: int, jokers: int) -> int:
        """The exact best weight of a state.

        First asks the narrow question "do the cards reach their bound's
        primary score?" (as MTD(f) does): the bound then cuts almost every
        branch, which pays when the hand melds (nearly) completely. If not,
        a plain search finishes, reusing what the first one proved.
        """
        ceiling = self.bound(mask, jokers)
        for _ in range(_NARROW_TRIES):
            # The lowest weight any solution of the ceiling's primary score can have.
            floor = (ceiling + _LOW - 1) // _HIGH * _HIGH - _LOW
            found = self.best(mask, jokers, floor)
            if found > floor:
                return found
            ceiling = found
        return self.best(mask, jokers)

    def path(self, mask: int, jokers: int) -> list[_Candidate]:
        """The candidates of one optimum of a state (on ties a card stays in hand)."""
        chosen: list[_Candidate] = []
        target = self.value(mask, jokers)
        bound = self.bound(mask, jokers)
        while mask:
            # Each question "does this choice still reach the target?" is a
            # narrow search whose answer is exact when it does.
            low = mask & -mask
            slot = low.bit_length() - 1
            rest = self.canonical(mask ^ low)
            rest_bound = bound - self.slot_share[slot]
            if self._reaches(rest, jokers, target, rest_bound):
                mask, bound = rest, rest_bound
                continue
            for candidate in self.by_low[slot]:
                taken = candidate.mask
                if candidate.jokers > jokers or taken & mask != taken:
                    continue
                rest = self.canonical(mask ^ taken)
                rest_jokers = jokers - candidate.jokers
                rest_bound = bound - self.loss(candidate) - candidate.weight
                need = target - candidate.weight
                if self._reaches(rest, rest_jokers, need, rest_bound):
                    chosen.append(candidate)
                    mask, jokers, target, bound = rest, rest_jokers, need, rest_bound
                    break
            else:  # pragma: no cover - an exact optimum always has a matching choice
                raise AssertionError("solver lost its path")
        return chosen

    def _reaches(self, mask: int, jokers: int, target: int, bound: int) -> bool:
        if not mask:
            return target <= 0
        return self.solve(mask, jokers, target - 1, bound) >= target


def _open_moves(
    moves: list[tuple[int, int, int, int]], filter_: _Filter | None, mask: int, jokers: int
) -> Iterable[tuple[int, int, int, int]]:
    """The moves worth testing in a state: all of a short list, the fitting ones of a long one."""
    if filter_ is None:
        return moves
    return filter_.fitting(moves, mask, jokers)


# Candidate lists at least this long get a _Filter; shorter ones are scanned.
_FILTER_FROM: Final = 24


@dataclass(frozen=True, slots=True)
class _Filter:
    """Which candidates of a slot a state leaves open, as bits over its list.

    Testing a long candidate list one by one is the search's main cost on
    hard hands; with these masks a state ORs one int per missing card and
    then visits only the candidates it can still lay.
    """

    uses: list[int]  # [slot]: the candidates that take that slot
    blocked: list[int]  # [jokers]: the candidates needing more jokers than that
    wanted: int  # every slot some candidate takes

    @classmethod
    def of(cls, candidates: list[_Candidate], jokers: int) -> _Filter:
        wanted = 0
        for candidate in candidates:
            wanted |= candidate.mask
        uses = [0] * wanted.bit_length()
        blocked = [0] * (jokers + 1)
        bit = 1
        for candidate in candidates:
            mask = candidate.mask
            while mask:
                low = mask & -mask
                uses[low.bit_length() - 1] |= bit
                mask ^= low
            for left in range(min(candidate.jokers, jokers + 1)):
                blocked[left] |= bit
            bit <<= 1
        return cls(uses, blocked, wanted)

    def fitting(
        self, moves: list[tuple[int, int, int, int]], mask: int, jokers: int
    ) -> Iterator[tuple[int, int, int, int]]:
        blocked = self.blocked[jokers]
        missing = self.wanted & ~mask
        while missing:
            gone = missing & -missing
            blocked |= self.uses[gone.bit_length() - 1]
            missing ^= gone
        fits = ((1 << len(moves)) - 1) & ~blocked
        while fits:
            bit = fits & -fits
            fits ^= bit
            yield moves[bit.bit_length() - 1]


def _slots_of(mask: int) -> list[int]:
    return [slot for slot in range(mask.bit_length()) if mask >> slot & 1]


@dataclass(slots=True)
class _Group:
    mask: int
    takes_jokers: bool


def _groups(hand: _Hand, by_low: list[list[_Candidate]]) -> list[_Group]:
    """Slots linked by candidates (a twin always with its brother), in slot order."""
    groups: list[_Group] = []
    for group_candidates in by_low:
        if not group_candidates:
            continue
        mask = 0
        for candidate in group_candidates:
            mask |= candidate.mask
        mask |= (mask & hand.twins) << 1
        takes_jokers = any(candidate.jokers for candidate in group_candidates)
        for other in [group for group in groups if group.mask & mask]:
            groups.remove(other)
            mask |= other.mask
            takes_jokers = takes_jokers or other.takes_jokers
        groups.append(_Group(mask, takes_jokers))
    return groups


def _joker_budgets(search: _Search, groups: list[_Group], jokers: int) -> list[int]:
    """How many jokers each group gets in an overall optimum."""
    joker_groups = [index for index, group in enumerate(groups) if group.takes_jokers]
    budgets = [0] * len(groups)
    if len(joker_groups) == 1:
        budgets[joker_groups[0]] = jokers
    if len(joker_groups) <= 1:
        return budgets
    # Knapsack: total[j] is the best of the groups so far with at most j jokers,
    # given[g][j] what group g gets of those j.
    total = [0] * (jokers + 1)
    given: list[list[int]] = []
    for index in joker_groups:
        own = [search.value(groups[index].mask, j) for j in range(jokers + 1)]
        split = [_best_split(total, own, j) for j in range(jokers + 1)]
        total = [total[j - split[j]] + own[split[j]] for j in range(jokers + 1)]
        given.append(split)
    left = jokers
    for index, split in zip(reversed(joker_groups), reversed(given), strict=True):
        budgets[index] = split[left]
        left -= split[left]
    return budgets


def _best_split(total: list[int], own: list[int], jokers: int) -> int:
    """The jokers to give a group out of ``jokers`` (fewest on ties)."""
    return max(range(jokers + 1), key=lambda given: (total[jokers - given] + own[given], -given))


def _solve(hand: _Hand, ruleset: Ruleset, objective: Objective) -> list[_Candidate]:
    candidates, joker_share = _candidates(hand, ruleset, objective)
    if not candidates:
        return []
    share = _scoring(ruleset, objective).share
    search = _Search(hand, candidates, [share[code] for code in hand.slots], joker_share)
    try:
        groups = _groups(hand, search.by_low)
        chosen: list[_Candidate] = []
        for group, jokers in zip(groups, _joker_budgets(search, groups, hand.jokers), strict=True):
            chosen.extend(search.path(group.mask, jokers))
        return chosen
    finally:
        search.release()


def _to_meld(candidate: _Candidate, ruleset: Ruleset) -> Meld:
    cards = [JOKER if code == _JOKER_CODE else _BY_CODE[code] for code in candidate.codes]
    return check_meld(cards, ruleset)


# ---------------------------------------------------------------- public API


def best_opening(cards: Iterable[Card], ruleset: Ruleset, *, keep: int = 0) -> list[Meld]:
    """Disjoint melds from ``cards`` with the largest total ``meld_value``.

    Melds obey the lay-down joker limits (``check_meld(laid_down=True)``) and
    each joker takes its most valuable place (``JK 5C 6C`` is laid as
    ``5C 6C JK`` = 18). Among equal values the melds laying away the most
    hand penalty win, then the fewest melds. Empty if no meld can be made.

    Every card passed may be used; ``keep`` asks the melds to leave at least
    that many cards in hand (``keep=1``: one is left to discard, as a turn
    always ends with a discard; each extra card kept multiplies the work by
    the hand size, so keep it small). ``opening_for_turn`` wraps that with
    the opening minimum.
    """
    hand = list(cards)
    melds = _melds(hand, ruleset, "opening")
    if keep <= 0 or sum(len(meld.cards) for meld in melds) <= len(hand) - keep:
        return melds
    # Every solution leaving a card c in hand is a solution of the hand
    # without c, so the best over each distinct c is the constrained best.
    options = []
    for card in sorted(set(hand)):  # sorted: the result must not depend on the hand's order
        rest = list(hand)
        rest.remove(card)
        options.append(best_opening(rest, ruleset, keep=keep - 1))
    return max(options, key=lambda option: _total_weight(option, ruleset, "opening"), default=[])


def best_partition(cards: Iterable[Card], ruleset: Ruleset) -> list[Meld]:
    """Disjoint melds from ``cards`` leaving the least ``hand_penalty`` in hand.

    Uses the lay-down joker limits like ``best_opening``. Among equal
    penalties the melds worth the most opening value win, then the fewest
    melds. Empty if no meld can be made.
    """
    return _melds(list(cards), ruleset, "partition")


def opening_for_turn(cards: Iterable[Card], ruleset: Ruleset) -> list[Meld]:
    """The best opening a player holding ``cards`` can lay this turn, or ``[]``.

    It keeps at least one card back for the closing discard and is returned
    only when it reaches ``ruleset.opening_minimum`` (51). It does not check
    turn rules such as the macedonian first-round ban; the deal does.
    """
    melds = best_opening(cards, ruleset, keep=1)
    if sum(meld_value(meld, ruleset) for meld in melds) < ruleset.opening_minimum:
        return []
    return melds


def candidate_melds(cards: Iterable[Card], ruleset: Ruleset) -> list[Meld]:
    """Every meld that can be laid down from ``cards``, one per distinct choice of cards.

    "Distinct" counts real cards and jokers (``5C 6C 7C`` and ``5C 6C 7C JK``
    are two melds); when the jokers could go to several places the most
    valuable arrangement is given. Sorted by lowest card, then size.
    """
    hand = _Hand.of(cards)
    candidates, _ = _candidates(hand, ruleset, "opening")
    candidates.sort(key=lambda c: (c.mask & -c.mask, len(c.codes), c.mask, c.jokers))
    return [_to_meld(candidate, ruleset) for candidate in candidates]


def remaining_cards(cards: Iterable[Card], melds: Iterable[Meld]) -> list[Card]:
    """``cards`` less the cards of ``melds`` (as a multiset), in their given order.

    Raises ``ValueError`` if the melds take a card that ``cards`` lacks.
    """
    left = list(cards)
    for meld in melds:
        for card in meld.cards:
            if card not in left:
                raise ValueError(f"the melds take {card} more often than the cards hold it")
            left.remove(card)
    return left


def _melds(cards: Sequence[Card], ruleset: Ruleset, objective: Objective) -> list[Meld]:
    return [
        _to_meld(candidate, ruleset) for candidate in _solve(_Hand.of(cards), ruleset, objective)
    ]


def _total_weight(melds: Sequence[Meld], ruleset: Ruleset, objective: Objective) -> int:
    """The search's objective for a list of melds (see _HIGH)."""
    scoring = _scoring(ruleset, objective)
    return sum(
        scoring.weight(meld_value(meld, ruleset), hand_penalty(meld.cards, ruleset))
        for meld in melds
    )
