"""Level 3, "Careful": greedy's solver plus card counting, safety and timing.

On top of laying what it can, it

- counts cards over both decks: what it holds, the table and the discard
  pile are seen; everything else is unseen, and a partial meld is worth
  keeping in proportion to the live cards that would complete it;
- reads its opponents from the public log: the discards they took (and
  still hold), what they threw and what they let go by;
- discards safely: never a card the next player can lay off onto the table
  or that fits the cards they are known to collect, when a safer discard
  exists;
- times its opening: where going out in a "hand" pays a big bonus
  (serbian, macedonian), it holds a ready opening back while a hand is
  likely enough and the opponents are far from going out.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from games.engine import (
    Action,
    Card,
    Deal,
    DiscardTake,
    DrawStock,
    Meld,
    Ruleset,
    TakeDiscard,
    best_partition,
    card_penalty,
    full_pack,
    hand_penalty,
    meld_value,
)
from games.engine.cards import ACE, JOKER, Suit
from games.engine.melds import ACE_HIGH

from .base import Budget, Observation
from .memory import BotMemory
from .planning import (
    Line,
    accepts,
    could_meld,
    lines,
    may_lay,
    may_take,
    minus,
    rank_gap,
    split_hand,
)
from .world import imagine, unseen_cards

__all__ = ["CarefulBot", "Knowledge", "Weights", "careful_lines"]


@dataclass(frozen=True, slots=True)
class Weights:
    """The careful bot's knobs (penalty points)."""

    horizon: float = 4.0  # how many future draws a partial meld may still profit from
    hurry: bool = True  # ... fewer when an opponent who has opened is running out of cards
    take_margin: float = 2.0  # a taken discard must beat a stock draw by this much
    feed_lay_off: float = 18.0  # discarding a card the next player can lay off
    feed_known: float = 10.0  # discarding a card that fits cards the next player collects
    feed_near: float = 2.5  # per unseen card that would make a meld with the discard
    near_out_factor: float = 3.0  # danger grows when the next player is about to go out
    hold_for_hand: bool = True
    hold_max_left: int = 2  # hold an opening back only if at most this many cards stay
    hold_min_odds: float = 0.08  # ... and a hand next turn is at least this likely
    shortlist: int = 6  # lines scored in full (the rest by deadwood alone)


@dataclass(slots=True)
class Knowledge:
    """What the seat knows and believes, built from its observation only."""

    seat: int
    ruleset: Ruleset
    unseen: Counter[Card]
    unseen_total: int
    opened: tuple[bool, ...]
    hand_counts: tuple[int, ...]
    stock_count: int
    next_seat: int
    next_known: list[Card] = field(default_factory=list)  # discards the next seat took and holds
    next_shed: Counter[tuple[int, int]] = field(default_factory=Counter)  # (suit|rank) it threw

    @classmethod
    def of(cls, obs: Observation) -> Knowledge:
        view = obs.view
        seat = obs.seat
        unseen = Counter(unseen_cards(obs))
        players = len(view.hand_counts)
        following = (seat + 1) % players
        knowledge = cls(
            seat=seat,
            ruleset=obs.ruleset,
            unseen=unseen,
            unseen_total=max(1, sum(unseen.values())),
            opened=view.opened,
            hand_counts=view.hand_counts,
            stock_count=view.stock_count,
            next_seat=following,
        )
        memory: BotMemory | None = obs.memory
        if memory is not None:
            record = memory.records[following]
            knowledge.next_known = list(record.known.values())
            for card in [*record.discarded, *record.declined]:
                if not card.is_joker:
                    knowledge.next_shed[(0, card.rank)] += 1
                    knowledge.next_shed[(1, card.code)] += 1
        return knowledge

    @classmethod
    def in_world(cls, deal: Deal) -> Knowledge:
        """What the mover of a world inside a search sees: its own hand and the public state.

        Unlike ``of`` there is no memory of the log, so nothing is known of the
        next player's hand: rollouts are many and short, and must be cheap.
        """
        seat = deal.to_move
        unseen = Counter(full_pack(deal.ruleset.jokers))
        unseen.subtract(deal.hand(seat))
        unseen.subtract(deal.discard_pile)
        for meld in deal.table:
            unseen.subtract(meld.cards)
        unseen = +unseen  # a world may hold cards the pack has no more of (a partial pack)
        players = deal.num_players
        return cls(
            seat=seat,
            ruleset=deal.ruleset,
            unseen=unseen,
            unseen_total=max(1, sum(unseen.values())),
            opened=tuple(deal.has_opened(other) for other in range(players)),
            hand_counts=tuple(len(deal.hand(other)) for other in range(players)),
            stock_count=deal.stock_count,
            next_seat=(seat + 1) % players,
        )

    def live(self, card: Card) -> int:
        return self.unseen[card]

    def horizon(self, weights: Weights) -> float:
        """How many more draws a partial meld can count on: fewer near the end."""
        if not weights.hurry:
            return weights.horizon
        closest = min(
            (
                count
                for seat, count in enumerate(self.hand_counts)
                if seat != self.seat and self.opened[seat]
            ),
            default=99,
        )
        if closest <= 3:
            return weights.horizon * 0.3
        if closest <= 6:
            return weights.horizon * 0.7
        return weights.horizon


class HandValue:
    """How good a hand is to keep: deadwood less what live cards may still meld.

    Lower is better, in penalty points. Cached per hand for one decision.
    """

    def __init__(self, knowledge: Knowledge, weights: Weights, table: Sequence[Meld]) -> None:
        self.k = knowledge
        self.w = weights
        self.ruleset = knowledge.ruleset
        self.table = list(table)
        self.cache: dict[tuple[int, ...], float] = {}
        self.split_cache: dict[tuple[int, ...], tuple[int, list[Meld], list[Card]]] = {}

    def split(self, cards: Sequence[Card]) -> tuple[int, list[Meld], list[Card]]:
        """The hand's deadwood penalty, its melds and its deadwood cards."""
        key = tuple(sorted(card.code for card in cards))
        got = self.split_cache.get(key)
        if got is None:
            melds, _, rest = split_hand(cards, self.ruleset, self.table)
            got = (hand_penalty(rest, self.ruleset), melds, rest)
            self.split_cache[key] = got
        return got

    def dead(self, cards: Sequence[Card]) -> tuple[int, list[Card]]:
        dead, _, rest = self.split(cards)
        return dead, rest

    def __call__(self, cards: Sequence[Card]) -> float:
        key = tuple(sorted(card.code for card in cards))
        got = self.cache.get(key)
        if got is None:
            got = self.split(cards)[0] - self.k.horizon(self.w) * self.draw_gain(cards)
            self.cache[key] = got
        return got

    def draw_gain(self, cards: Sequence[Card]) -> float:
        """The deadwood penalty one random unseen card is expected to meld.

        Counted the way a rummy player counts outs: a card completes a pair
        of deadwood cards into a meld (a set, a run, or with a drawn joker
        anything close), or bridges a deadwood card to the end of a run in
        hand or, once opened, on the table.
        """
        dead, melds, rest = self.split(cards)
        reals = [card for card in rest if not card.is_joker]
        if not reals:
            return 0.0
        ruleset = self.ruleset
        gains: dict[Card, int] = {}

        def offer(card: Card, gain: int) -> None:
            if self.k.unseen[card] > 0 and gain > gains.get(card, 0):
                gains[card] = gain

        joker_gain = 0
        for i, first in enumerate(reals):
            for second in reals[i + 1 :]:
                pair = card_penalty(first, ruleset) + card_penalty(second, ruleset)
                completing = _completions(first, second)
                if completing:
                    joker_gain = max(joker_gain, pair)
                for card in completing:
                    offer(card, pair + card_penalty(card, ruleset))
        runs = [meld for meld in [*melds, *self.table] if meld.is_run]
        for meld in runs:
            suit = next(card.suit for card in meld.cards if not card.is_joker)
            for card in reals:
                if card.suit is not suit:
                    continue
                for rank, bridge in ((meld.low - 2, meld.low - 1), (meld.high + 2, meld.high + 1)):
                    if 1 <= bridge <= ACE_HIGH and _same_rank(card.rank, rank):
                        missing = _card_of(bridge, card)
                        offer(missing, card_penalty(card, ruleset) + card_penalty(missing, ruleset))
        if joker_gain:
            offer(JOKER, joker_gain + ruleset.penalty_joker)
        total = sum(gain * self.k.unseen[card] for card, gain in gains.items())
        return total / self.k.unseen_total


def _same_rank(rank: int, position: int) -> bool:
    """A card of ``rank`` (1-13) fits a run position ``position`` (1-14; 14 is the ace)."""
    return rank == position or (rank == ACE and position == ACE_HIGH)


def _card_of(position: int, like: Card) -> Card:
    return Card(ACE if position == ACE_HIGH else position, like.suit)


def _completions(a: Card, b: Card) -> list[Card]:
    """The cards that make a meld of three with ``a`` and ``b`` (both real)."""
    if a.rank == b.rank:
        if a.suit is b.suit:
            return []
        return [Card(a.rank, suit) for suit in Suit if suit is not a.suit and suit is not b.suit]
    if a.suit is not b.suit:
        return []
    found: list[Card] = []
    for low, high in _positions(a.rank, b.rank):
        if high - low == 1:
            for position in (low - 1, high + 1):
                if 1 <= position <= ACE_HIGH:
                    found.append(_card_of(position, a))
        elif high - low == 2:
            found.append(_card_of(low + 1, a))
    return found


def _positions(a: int, b: int) -> list[tuple[int, int]]:
    """Run positions of two ranks of one suit (the ace both low and high)."""
    options = []
    for x in (a, ACE_HIGH) if a == ACE else (a,):
        for y in (b, ACE_HIGH) if b == ACE else (b,):
            if x != y and abs(x - y) <= 2:
                options.append((min(x, y), max(x, y)))
    return options


class CarefulBot:
    level = 3
    name = "careful"

    def __init__(self, weights: Weights | None = None) -> None:
        self.weights = weights or Weights()

    def decide(self, obs: Observation, rng: random.Random, budget: Budget) -> list[Action]:
        deal = imagine(obs, rng)
        knowledge = Knowledge.of(obs)
        if not deal.drawn:
            if self.should_take(deal, knowledge):
                taken = deal.apply(TakeDiscard())
                return [TakeDiscard(), *self.best_line(taken, knowledge).actions]
            return [DrawStock()]
        return list(self.best_line(deal, knowledge).actions)

    # ------------------------------------------------------------ drawing

    def should_take(
        self, deal: Deal, knowledge: Knowledge, stop: Callable[[], bool] | None = None
    ) -> bool:
        """Take the top discard rather than draw? (``stop``: see ``careful_lines``.)"""
        if not may_take(deal):
            return False
        top = deal.discard_top
        assert top is not None
        seat = deal.to_move
        ruleset = deal.ruleset
        opened = deal.has_opened(seat)
        must_open = not opened and ruleset.discard_take is DiscardTake.ANYONE_MUST_OPEN
        if must_open and not may_lay(deal):
            return False
        values = Values(knowledge, self.weights)
        hand = list(deal.hand(seat))
        if not must_open and top in values.of(deal).dead([*hand, top])[1]:
            return False  # the card would not even meld: not worth a look
        taken = deal.apply(TakeDiscard())
        found = careful_lines(taken, knowledge, self.weights, values, stop)
        if not found:
            return False
        best = found[0]
        if best.line.goes_out:
            return True
        if must_open and not best.line.opens:
            return False
        # Taking pays only if the card is used (melded or laid off) this turn or
        # later, and beats what a stock draw is expected to bring.
        value = values.of(deal)
        if top not in best.line.left and top is not best.line.discard:
            used = True  # laid this turn
        else:
            dead_with = value.dead(best.line.left)[1]
            used = top not in dead_with
        if not used:
            return False
        now = value(hand)
        stock_gain = value.draw_gain(hand)
        return best.score < now - stock_gain - self.weights.take_margin

    # ------------------------------------------------------------ playing

    def play_turn(self, deal: Deal) -> Deal:
        """``deal`` (a world: all hands known) after its mover plays a careful turn."""
        if not deal.drawn:
            if self.should_take(deal, Knowledge.in_world(deal)):
                deal = deal.apply(TakeDiscard())
            else:
                deal = deal.apply(DrawStock())
        for action in self.best_line(deal, Knowledge.in_world(deal)).actions:
            deal = deal.apply(action)
        return deal

    def best_line(self, deal: Deal, knowledge: Knowledge) -> Line:
        found = careful_lines(deal, knowledge, self.weights)
        if not found:
            raise ValueError("no way to end the turn")
        return found[0].line


@dataclass(frozen=True, slots=True)
class Scored:
    line: Line
    score: float  # lower is better


class Values:
    """One ``HandValue`` per table state met during a decision (they cache solver calls)."""

    def __init__(self, knowledge: Knowledge, weights: Weights) -> None:
        self.knowledge = knowledge
        self.weights = weights
        self.by_table: dict[tuple[tuple[Card, ...], ...] | None, HandValue] = {}

    def of(self, deal: Deal) -> HandValue:
        opened = deal.has_opened(deal.to_move)
        key = tuple(meld.cards for meld in deal.table) if opened else None
        value = self.by_table.get(key)
        if value is None:
            table = [meld.meld for meld in deal.table] if opened else []
            value = HandValue(self.knowledge, self.weights, table)
            self.by_table[key] = value
        return value


def careful_lines(
    deal: Deal,
    knowledge: Knowledge,
    weights: Weights,
    values: Values | None = None,
    stop: Callable[[], bool] | None = None,
) -> list[Scored]:
    """Every way to end the turn the careful bot considers, best first.

    Each lays what it can (or, when timing says so, holds the opening back)
    and is scored by the hand it keeps (deadwood less the live cards' promise),
    plus the danger of its discard.

    ``stop`` (a searching bot's clock) bounds the work: once it says so, no
    more discards are tried, no holding lines are looked for and no more of
    the shortlist is scored in full, and the lines scored so far are returned
    (at least one, if the turn can end). Never asked without a deadline, so
    the answer is then the same as without it.
    """
    if values is None:
        values = Values(knowledge, weights)
    seat = deal.to_move
    ruleset = deal.ruleset
    candidates = [(line, 0.0) for line in lines(deal, stop=stop)]
    stopped = stop is not None and stop()
    if weights.hold_for_hand and not deal.has_opened(seat) and not stopped:
        candidates += _holding_lines(deal, knowledge, weights, values, [c for c, _ in candidates])
    finished: list[Scored] = []
    rough: list[tuple[float, Line, float]] = []
    for line, adjust in candidates:
        score = line.score_for(seat)
        if score is not None:
            finished.append(Scored(line, float(score) - 1000.0))
            continue
        after = line.before_discard
        points = float(values.of(after).dead(line.left)[0]) + adjust
        points += danger(line.discard, after, knowledge, weights)
        if line.discard.is_joker:
            points += 50.0
        rough.append((points, line, adjust))
    rough.sort(key=lambda item: (item[0], -card_penalty(item[1].discard, ruleset)))
    scored = list(finished)
    for points, line, _adjust in rough[: weights.shortlist]:
        if len(scored) > len(finished) and stop is not None and stop():
            break  # the lines not scored in full were the roughly worse ones
        gain = values.of(line.before_discard).draw_gain(line.left)
        scored.append(Scored(line, points - knowledge.horizon(weights) * gain))
    scored.sort(key=lambda s: (s.score, -card_penalty(s.line.discard, ruleset)))
    return scored


def _holding_lines(
    deal: Deal, knowledge: Knowledge, weights: Weights, values: Values, opening: list[Line]
) -> list[tuple[Line, float]]:
    """Lines that keep a ready opening in hand to go out in one go later, when worth it.

    Each comes with an adjustment to its score: minus the hand's expected
    bonus, plus the risk of being caught with a full hand.
    """
    ruleset = deal.ruleset
    best_open = min(
        (line for line in opening if line.opens), key=lambda line: len(line.left), default=None
    )
    if best_open is None or best_open.goes_out or len(best_open.left) > weights.hold_max_left:
        return []
    if any(
        knowledge.hand_counts[other] <= 4 + (0 if knowledge.opened[other] else 4)
        for other in range(len(knowledge.hand_counts))
        if other != knowledge.seat
    ):
        return []  # somebody is close to going out: open now
    bonus = _hand_bonus(ruleset, knowledge)
    if bonus <= 0:
        return []
    risk = (
        0.03
        if not any(knowledge.opened[o] for o in range(len(knowledge.opened)) if o != knowledge.seat)
        else 0.12
    )
    keep: list[tuple[Line, float]] = []
    value = values.of(deal)
    held = [line for line in lines(deal, open_now=False) if not line.discard.is_joker]
    held.sort(key=lambda line: (value.dead(line.left)[0], -card_penalty(line.discard, ruleset)))
    for line in held[:2]:
        odds = _hand_odds(list(line.left), knowledge, ruleset)
        if odds < weights.hold_min_odds:
            continue
        caught = ruleset.normal_close.loser_score(hand_penalty(line.left, ruleset), opened=False)
        keep.append((line, risk * caught - odds * bonus))
    return keep


def _hand_bonus(ruleset: Ruleset, knowledge: Knowledge) -> float:
    """How much more a dry hand is worth than a normal close, against the others."""
    normal, dry = ruleset.normal_close, ruleset.dry_hand_close
    gain = float(normal.winner - dry.winner)
    for other in range(len(knowledge.hand_counts)):
        if other == knowledge.seat:
            continue
        opened = knowledge.opened[other]
        penalty = int(6.5 * knowledge.hand_counts[other])
        gain += dry.loser_score(penalty, opened=opened) - normal.loser_score(penalty, opened=opened)
    return gain


def _hand_odds(hand: list[Card], knowledge: Knowledge, ruleset: Ruleset) -> float:
    """The chance that the next card drawn lets ``hand`` go out in one go (a hand)."""
    melds = best_partition(hand, ruleset)
    rest = minus(hand, (card for meld in melds for card in meld.cards))
    if len(rest) > 2:
        return 0.0  # one card cannot meld two of them and leave one to discard
    near = rest if len(rest) == 2 else hand
    held = Counter(hand)
    good = 0
    for card, unseen in knowledge.unseen.items():
        # (A world inside the expert's search may have dealt the bot an "unseen" card.)
        count = min(unseen, (ruleset.jokers if card.is_joker else 2) - held[card])
        if count <= 0 or not any(could_meld(card, other) for other in near):
            continue
        if _goes_out_in_one(sorted([*hand, card]), ruleset):
            good += count
    return good / knowledge.unseen_total


def _goes_out_in_one(cards: list[Card], ruleset: Ruleset) -> bool:
    """Can ``cards`` (drawn this turn) lay all but one card as an opening? (Approximate.)"""
    melds = best_partition(cards, ruleset)
    rest = minus(cards, (card for meld in melds for card in meld.cards))
    if len(rest) > 1 or (not rest and not any(len(meld.cards) >= 4 for meld in melds)):
        return False
    if not ruleset.hand_needs_51:
        return True
    value = sum(meld_value(meld, ruleset) for meld in melds)
    return value >= ruleset.opening_minimum


def danger(card: Card, deal: Deal, knowledge: Knowledge, weights: Weights) -> float:
    """How much discarding ``card`` may help the next player (penalty points)."""
    if card.is_joker:
        return 0.0  # scored apart
    ruleset = deal.ruleset
    following = knowledge.next_seat
    opened = knowledge.opened[following] or deal.has_opened(following)
    rule = ruleset.discard_take
    if rule is DiscardTake.OPENED_ONLY and not opened:
        return 0.0
    may = 1.0 if opened or rule is DiscardTake.ANYONE else 0.4
    count = knowledge.hand_counts[following]
    urgency = 1.0 + (weights.near_out_factor if count <= 3 else 0.0)
    points = 0.0
    if opened and any(card in accepts(meld.meld, ruleset) for meld in deal.table):
        points += weights.feed_lay_off * urgency
    for known in knowledge.next_known:
        if known.is_joker:
            continue
        if (known.rank == card.rank and known.suit is not card.suit) or (
            known.suit is card.suit and rank_gap(known.rank, card.rank) <= 2
        ):
            points += weights.feed_known
    near = 0
    for other, live in knowledge.unseen.items():
        if live <= 0 or other.is_joker:
            continue
        if (other.rank == card.rank and other.suit is not card.suit) or (
            other.suit is card.suit and rank_gap(other.rank, card.rank) == 1
        ):
            near += live
    shed = knowledge.next_shed[(0, card.rank)] + knowledge.next_shed[(1, card.code)]
    points += weights.feed_near * near / 8.0 / (1.0 + shed)
    return may * points
