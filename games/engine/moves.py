"""Legal move generation: every distinct action the player to move may take.

Used by bots, playouts, hints and the property tests. Card choices are by
value, so twins give one action. What is listed:

- before drawing: ``draw`` and, where allowed, ``take``;
- after drawing: ``undo`` where allowed; each distinct discard (only the
  taken card while the serbian obligation is owed); once opened, every
  lay-off (both ends named where a card fits either), every joker swap and
  every single new meld the hand holds (real cards where held, jokers only
  for gaps); before opening, the best opening the solver finds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING

from .actions import (
    Action,
    Discard,
    DrawStock,
    End,
    LayDown,
    LayOff,
    SwapJoker,
    TakeDiscard,
    UndoTake,
)
from .cards import ACE, JOKER, STANDARD_CARDS, Card
from .melds import ACE_HIGH, Meld
from .rulesets import Ruleset
from .solver import best_partition, opening_for_turn
from .table import lay_off_options, swap_options

# For annotations only: deal.py imports this module at run time for its legal actions,
# so a run-time import back would be a cycle (the acyclic contract in pyproject.toml
# ignores imports under TYPE_CHECKING and fails on any other).
if TYPE_CHECKING:
    from .deal import Deal

__all__ = ["legal_actions", "single_melds"]


def legal_actions(deal: Deal) -> list[Action]:
    if deal.is_over:
        return []
    if not deal.drawn:
        draw: list[Action] = [DrawStock()] if deal.stock_count else []
        return draw + [TakeDiscard()] if deal.may_take_discard else draw
    seat = deal.to_move
    hand = deal.hand(seat)
    actions: list[Action] = []
    if deal.may_undo:
        actions.append(UndoTake())
    owed = deal.must_return
    if owed is not None:
        actions.append(Discard(owed))
    else:
        actions.extend(Discard(card) for card in dict.fromkeys(hand))
    may_lay = not (deal.ruleset.no_opening_in_first_round and deal.first_round)
    if deal.has_opened(seat):
        actions.extend(_lay_offs(deal, hand))
        actions.extend(_swaps(deal, hand))
        if may_lay:
            actions.extend(
                LayDown((meld,))
                for meld in single_melds(hand, deal.ruleset)
                if len(meld) < len(hand)
            )
    elif may_lay:
        actions.extend(_openings(hand, deal.ruleset))
    return actions


def _lay_offs(deal: Deal, hand: Sequence[Card]) -> Iterable[LayOff]:
    if len(hand) < 2:  # the last card is for discarding
        return
    held = set(hand)
    for index, target in enumerate(deal.table):
        ends: dict[Card, list[End | None]] = {}
        for card, end in lay_off_options(target.meld, deal.ruleset):
            if card in held:
                ends.setdefault(card, []).append(end)
        for card, where in ends.items():
            if len(where) == 1:
                yield LayOff(card, index)
            else:
                yield from (LayOff(card, index, end) for end in where)


def _swaps(deal: Deal, hand: Sequence[Card]) -> Iterable[SwapJoker]:
    counts = Counter(hand)
    for index, target in enumerate(deal.table):
        if JOKER not in target.cards:
            continue
        for given in swap_options(target.meld, deal.ruleset):
            if all(counts[card] >= need for card, need in Counter(given).items()):
                yield SwapJoker(given, index)


def single_melds(cards: Sequence[Card], ruleset: Ruleset) -> list[tuple[Card, ...]]:
    """Every meld that may be laid down from ``cards``, in laid-out order.

    Real cards are used where held and jokers only to fill gaps, so a meld
    that spends a joker on a card the hand holds is not listed.
    """
    held = [0] * 53  # copies held, by card code; the joker is 52
    for card in cards:
        held[card.code] += 1
    return _sets(held, ruleset) + _runs(held, ruleset)


def _sets(held: list[int], ruleset: Ruleset) -> list[tuple[Card, ...]]:
    by_rank: list[list[Card]] = [[] for _ in range(13)]
    for code in range(52):
        if held[code]:
            by_rank[code % 13].append(STANDARD_CARDS[code])  # suit order within a rank
    max_jokers = min(held[JOKER.code], ruleset.max_jokers_in_set)
    melds: list[tuple[Card, ...]] = []
    for reals in by_rank:
        for size in range(2, min(len(reals), 4) + 1):
            for combo in combinations(reals, size):
                for jokers in range(max(0, 3 - size), min(max_jokers, 4 - size) + 1):
                    melds.append((*combo, *(JOKER,) * jokers))
    return melds


def _runs(held: list[int], ruleset: Ruleset) -> list[tuple[Card, ...]]:
    limit = ruleset.max_jokers_in_run_laid
    jokers = held[JOKER.code] if limit is None else min(held[JOKER.code], limit)
    melds: list[tuple[Card, ...]] = []
    for suit in range(4):
        row = held[suit * 13 : suit * 13 + 13]  # copies of A..K
        if not any(row):
            continue
        suit_cards = STANDARD_CARDS[suit * 13 : suit * 13 + 13]
        for low in range(ACE, ACE_HIGH - 1):
            laid: list[Card] = []
            used = 0
            for rank in range(low, ACE_HIGH + 1):
                index = (rank - 1) % 13
                copies = row[index]
                if rank == ACE_HIGH and low == ACE and laid[0] is not JOKER:
                    copies -= 1  # A 2 ... K A takes two aces
                if copies > 0:
                    laid.append(suit_cards[index])
                elif used < jokers and (not laid or laid[-1] is not JOKER):
                    laid.append(JOKER)
                    used += 1
                else:
                    break
                if len(laid) >= 3 and used < len(laid):
                    melds.append(tuple(laid))
    return melds


# ---------------------------------------------------------------- openings


def _openings(hand: Sequence[Card], ruleset: Ruleset) -> list[LayDown]:
    melds = _opening(tuple(sorted(hand)), ruleset)
    return [LayDown(meld.cards for meld in melds)] if melds else []


# The per-seat view asks for the legal moves on every read of the player to
# move, so the same hand's opening is searched again and again: remember it.
@lru_cache(maxsize=4096)
def _opening(hand: tuple[Card, ...], ruleset: Ruleset) -> tuple[Meld, ...]:
    melds = opening_for_turn(hand, ruleset)
    if melds:
        return tuple(melds)
    if not ruleset.hand_needs_51:
        melds = best_partition(hand, ruleset)
        if sum(len(meld.cards) for meld in melds) == len(hand) - 1:
            return tuple(melds)
    return ()
