"""Turn planning shared by the bots: what a hand can lay, and the ways to end a turn.

Everything here works on a ``Deal`` for the seat to move and reads only that
seat's hand and the public state (table, discard pile, who has opened), so
it is the same code whether the deal is a bot's imagined world or a world
inside the expert's search.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from games.engine import (
    Action,
    Card,
    Deal,
    Discard,
    DiscardTake,
    IllegalAction,
    LayDown,
    LayOff,
    Meld,
    Ruleset,
    SwapJoker,
    best_opening,
    best_partition,
    card_penalty,
    hand_penalty,
    meld_value,
)
from games.engine.cards import ACE, KING
from games.engine.table import lay_off, lay_off_options, swap_options

__all__ = [
    "Line",
    "accepts",
    "could_meld",
    "deadwood",
    "lay_what_you_can",
    "line_for",
    "lines",
    "may_lay",
    "may_take",
    "minus",
    "partition",
    "rank_gap",
    "split_hand",
]


def minus(cards: Iterable[Card], removed: Iterable[Card]) -> list[Card]:
    """``cards`` less ``removed`` as a multiset, order kept."""
    left = list(cards)
    for card in removed:
        left.remove(card)
    return left


def may_lay(deal: Deal) -> bool:
    """The mover may put cards on the table this turn (the macedonian first-round ban)."""
    return not (deal.ruleset.no_opening_in_first_round and deal.first_round)


def may_take(deal: Deal) -> bool:
    """The mover may take the top discard now."""
    if deal.drawn or deal.discard_top is None:
        return False
    rule = deal.ruleset.discard_take
    return rule is not DiscardTake.OPENED_ONLY or deal.has_opened(deal.to_move)


# ---------------------------------------------------------------- hand analysis


def could_meld(a: Card, b: Card) -> bool:
    """Could ``a`` and ``b`` sit in one meld? Same rank, or same suit within two ranks."""
    if a.is_joker or b.is_joker:
        return True
    if a.rank == b.rank:
        return a.suit is not b.suit
    return a.suit is b.suit and rank_gap(a.rank, b.rank) <= 2


def rank_gap(a: int, b: int) -> int:
    """How far apart two ranks sit in a run (the ace is both low and high)."""
    gap = abs(a - b)
    if ACE in (a, b):
        high = KING + 1
        gap = min(gap, abs((high if a == ACE else a) - (high if b == ACE else b)))
    return gap


def split_hand(
    cards: Sequence[Card], ruleset: Ruleset, table: Sequence[Meld] = ()
) -> tuple[list[Meld], list[tuple[Card, int]], list[Card]]:
    """The hand's best melds, its lay-offs onto ``table`` and the rest.

    A lay-off is ``(card, index of the table meld)``, in an order that can be
    played. Pass the table melds only for a player who may lay off (has
    opened, or will have by the time it matters). Lay-offs are followed
    through, so a run 5-6-7 on the table takes both 8 and 9 from the hand.
    """
    melds = partition(cards, ruleset)
    rest = minus(cards, (card for meld in melds for card in meld.cards))
    if not table or not rest:
        return melds, [], rest
    offs, rest = _follow_lay_offs(list(table), rest, ruleset)
    return melds, offs, rest


def partition(cards: Sequence[Card], ruleset: Ruleset) -> list[Meld]:
    """``best_partition``, remembered: the expert's rollouts meet the same hands again."""
    key = (id(ruleset), *sorted(card.code for card in cards))
    found = _PARTITIONS.get(key)
    if found is None:
        if len(_PARTITIONS) > 100_000:
            _PARTITIONS.clear()
        _RULESETS[id(ruleset)] = ruleset
        found = best_partition(cards, ruleset)
        _PARTITIONS[key] = found
    return list(found)


_PARTITIONS: dict[tuple[int, ...], list[Meld]] = {}


def accepts(meld: Meld, ruleset: Ruleset) -> frozenset[Card]:
    """The cards ``meld`` takes as a lay-off (cached: the bots ask this a lot)."""
    key = (id(ruleset), meld)
    found = _ACCEPTS.get(key)
    if found is None:
        if len(_ACCEPTS) > 200_000:
            _ACCEPTS.clear()
        _RULESETS[id(ruleset)] = ruleset  # keeps the id from being reused
        found = frozenset(card for card, _ in lay_off_options(meld, ruleset))
        _ACCEPTS[key] = found
    return found


_ACCEPTS: dict[tuple[int, Meld], frozenset[Card]] = {}
_RULESETS: dict[int, Ruleset] = {}


def _follow_lay_offs(
    table: list[Meld], cards: list[Card], ruleset: Ruleset
) -> tuple[list[tuple[Card, int]], list[Card]]:
    wanted = [accepts(meld, ruleset) for meld in table]
    laid: list[tuple[Card, int]] = []
    rest = list(cards)
    progress = True
    while progress and rest:
        progress = False
        for card in sorted(set(rest), key=lambda c: c.is_joker):  # jokers last
            for index, takes in enumerate(wanted):
                if card in takes:
                    table[index] = lay_off(table[index], card, None, ruleset)[0]
                    wanted[index] = accepts(table[index], ruleset)
                    rest.remove(card)
                    laid.append((card, index))
                    progress = True
                    break
    return laid, rest


def deadwood(cards: Sequence[Card], ruleset: Ruleset, table: Sequence[Meld] = ()) -> int:
    """The penalty of the cards that neither meld nor lay off onto ``table``."""
    return hand_penalty(split_hand(cards, ruleset, table)[2], ruleset)


# ---------------------------------------------------------------- laying


def lay_what_you_can(
    deal: Deal,
    reserve: Card,
    *,
    open_now: bool = True,
    melds: bool = True,
    lay_offs: bool = True,
    swaps: bool = True,
    best_of_more: list[Meld] | None = None,
) -> tuple[Deal, list[Action]]:
    """Lay down and lay off all the mover can while keeping ``reserve`` to discard.

    Not opened yet: opens with the most valuable opening of the other cards
    (if ``open_now`` and it reaches the minimum, or under ``hand_needs_51 =
    False`` if it lays every other card), then goes on as an opened player:
    swaps table jokers for cards it holds, lays down its best partition and
    lays off what fits, until nothing more goes. Returns the deal after those
    actions and the actions; illegal steps are skipped, never returned.

    ``best_of_more`` is ``best_opening`` of the whole hand, when the caller
    has it: if it leaves ``reserve`` out, it is the best opening without it too.
    """
    ruleset = deal.ruleset
    seat = deal.to_move
    actions: list[Action] = []
    if not may_lay(deal):
        return deal, actions

    def rest_of_hand() -> list[Card]:
        return minus(deal.hand(seat), (reserve,))

    def attempt(action: Action) -> bool:
        nonlocal deal
        try:
            deal = deal.apply(action)
        except IllegalAction:
            return False
        actions.append(action)
        return True

    if not deal.has_opened(seat):
        if not open_now:
            return deal, actions
        opening = _opening(rest_of_hand(), ruleset, best_of_more)
        if not opening or not attempt(LayDown(meld.cards for meld in opening)):
            return deal, actions
    if swaps:  # every table joker the hand holds the card(s) for
        for index in range(len(deal.table)):
            for given in swap_options(deal.table[index].meld, ruleset):
                held = Counter(rest_of_hand())
                if all(held[card] >= need for card, need in Counter(given).items()):
                    attempt(SwapJoker(given, index))
                    break
    if melds:
        found = partition(rest_of_hand(), ruleset)
        if found:
            attempt(LayDown(meld.cards for meld in found))
    if lay_offs:
        progress = True
        while progress:
            progress = False
            rest = rest_of_hand()
            for card in sorted(set(rest), key=lambda c: c.is_joker):
                for index, target in enumerate(deal.table):
                    if card not in accepts(target.meld, ruleset):
                        continue
                    ends = [
                        end
                        for option, end in lay_off_options(target.meld, ruleset)
                        if option is card
                    ]
                    if attempt(LayOff(card, index, ends[0])):
                        progress = True
                        break
    return deal, actions


def _opening(cards: list[Card], ruleset: Ruleset, best_of_more: list[Meld] | None) -> list[Meld]:
    minimum = ruleset.opening_minimum
    if best_of_more is not None and _within(best_of_more, cards):
        melds = best_of_more  # the best of a larger hand, and all its cards are here
    elif best_of_more is not None and sum(meld_value(m, ruleset) for m in best_of_more) < minimum:
        melds = []  # not even the larger hand reaches the minimum
    else:
        melds = best_opening(cards, ruleset)
    if sum(meld_value(meld, ruleset) for meld in melds) >= minimum:
        return melds
    if not ruleset.hand_needs_51:
        melds = best_partition(cards, ruleset)
        if sum(len(meld.cards) for meld in melds) == len(cards):
            return melds
    return []


def _within(melds: Sequence[Meld], cards: Sequence[Card]) -> bool:
    need = Counter(card for meld in melds for card in meld.cards)
    held = Counter(cards)
    return all(held[card] >= count for card, count in need.items())


# ---------------------------------------------------------------- ways to end a turn


@dataclass(frozen=True, slots=True)
class Line:
    """One way to finish the turn: the actions (lays, then the discard) and where they lead."""

    actions: tuple[Action, ...]
    before_discard: Deal
    after: Deal  # the turn is over (or the deal)
    discard: Card
    left: tuple[Card, ...]  # the mover's hand after the discard
    opens: bool

    @property
    def goes_out(self) -> bool:
        return not self.left

    @property
    def left_penalty(self) -> int:
        return hand_penalty(self.left, self.after.ruleset)

    def score_for(self, seat: int) -> int | None:
        """The mover's deal score if this line ends the deal."""
        result = self.after.result()
        return None if result is None else result.scores[seat]


def line_for(
    deal: Deal, discard: Card, *, best_of_more: list[Meld] | None = None, **lay_options: bool
) -> Line | None:
    """The line that lays what it can (see ``lay_what_you_can``) and discards ``discard``."""
    seat = deal.to_move
    opened = deal.has_opened(seat)
    laid, actions = lay_what_you_can(deal, discard, best_of_more=best_of_more, **lay_options)
    try:
        after = laid.apply(Discard(discard))
    except IllegalAction:
        return None
    return Line(
        actions=(*actions, Discard(discard)),
        before_discard=laid,
        after=after,
        discard=discard,
        left=tuple(minus(laid.hand(seat), (discard,))),
        opens=not opened and laid.has_opened(seat),
    )


def lines(
    deal: Deal,
    discards: Iterable[Card] | None = None,
    *,
    stop: Callable[[], bool] | None = None,
    **lay_options: bool,
) -> list[Line]:
    """One line per distinct discard (all cards of the hand unless ``discards`` is given).

    ``stop`` is asked after each line found: once it says so, the lines found
    so far are all (at least one, if the hand has a legal discard). Each line
    solves the hand again, and a searching bot out of time needs an answer
    more than every discard's.
    """
    seat = deal.to_move
    choices = dict.fromkeys(deal.hand(seat) if discards is None else discards)
    best_of_more = None
    if lay_options.get("open_now", True) and not deal.has_opened(seat) and may_lay(deal):
        best_of_more = best_opening(deal.hand(seat), deal.ruleset)  # shared by every discard
    found = []
    for card in choices:
        line = line_for(deal, card, best_of_more=best_of_more, **lay_options)
        if line is not None:
            found.append(line)
            if stop is not None and stop():
                break
    return found


def worst_card_first(cards: Iterable[Card], ruleset: Ruleset) -> list[Card]:
    """Distinct cards by penalty, highest first, jokers last."""
    return sorted(
        dict.fromkeys(cards), key=lambda card: (card.is_joker, -card_penalty(card, ruleset))
    )
