"""A fast greedy policy for the expert's look-ahead, and rollouts with it.

Inside the expert's search every seat's hand is known (it is a sampled
world), so a simulated turn is played whole, draw included. It plays like
the greedy bot at a fraction of the cost: one partition of the hand picks
the discard (the worst deadwood card), then it lays what it can around it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from games.engine import (
    Card,
    Deal,
    Discard,
    DiscardTake,
    DrawStock,
    IllegalAction,
    LayDown,
    LayOff,
    Meld,
    Ruleset,
    TakeDiscard,
    card_penalty,
    hand_penalty,
    meld_value,
    opening_for_turn,
)

from .planning import accepts, could_meld, lines, may_lay, may_take, partition, split_hand

__all__ = ["fast_play", "fast_turn", "rollout"]


def fast_turn(deal: Deal, *, wary: bool = False) -> Deal:
    """The deal after the mover plays a whole greedy turn (see ``fast_play``)."""
    if not deal.drawn:
        deal = deal.apply(TakeDiscard() if _wants_top(deal) else DrawStock())
    return fast_play(deal, wary=wary)


def _wants_top(deal: Deal) -> bool:
    if not may_take(deal):
        return False
    top = deal.discard_top
    assert top is not None
    seat = deal.to_move
    ruleset = deal.ruleset
    hand = list(deal.hand(seat))
    opened = deal.has_opened(seat)
    if not opened and ruleset.discard_take is DiscardTake.ANYONE_MUST_OPEN:
        return may_lay(deal) and bool(opening_for_turn([*hand, top], ruleset))
    table = [meld.meld for meld in deal.table] if opened else []
    lonely = not top.is_joker and not any(could_meld(top, card) for card in hand)
    if lonely and not any(top in accepts(meld, ruleset) for meld in table):
        return False  # it melds with nothing: no need to ask the solver
    rest = split_hand([*hand, top], ruleset, table)[2]
    if top in rest:
        return False
    before = hand_penalty(split_hand(hand, ruleset, table)[2], ruleset)
    return hand_penalty(rest, ruleset) < before


def fast_play(deal: Deal, *, wary: bool = False) -> Deal:
    """The deal after the mover (who has drawn) lays what it can and discards.

    Plain, it throws its highest-penalty deadwood card. ``wary``, it keeps a
    card that pairs with other deadwood and does not hand the next player a
    lay-off, when it can (a cheap echo of the careful bot).
    """
    ruleset = deal.ruleset
    seat = deal.to_move
    if may_lay(deal) and not deal.has_opened(seat):
        opening = _opening(list(deal.hand(seat)), ruleset)
        if opening:
            with contextlib.suppress(IllegalAction):
                deal = deal.apply(LayDown(meld.cards for meld in opening))
    owed = deal.must_return
    if owed is not None:
        return deal.apply(Discard(owed))
    hand = list(deal.hand(seat))
    if len(hand) == 1:
        return deal.apply(Discard(hand[0]))
    opened = deal.has_opened(seat)
    table = [meld.meld for meld in deal.table] if opened and may_lay(deal) else []
    melds, offs, rest = split_hand(hand, ruleset, table)
    if not rest:
        # Everything melds: find the card to keep back and go out (rare, so the slow way).
        options = lines(deal)
        best = min(options, key=lambda line: (len(line.left), line.left_penalty))
        for action in best.actions:
            deal = deal.apply(action)
        return deal
    reals = [card for card in rest if not card.is_joker] or rest
    if wary:
        reserve = max(reals, key=_wary_discard(deal, rest))
    else:
        reserve = max(reals, key=lambda card: card_penalty(card, ruleset))
    if table:  # opened (the reserve is deadwood: it is in no meld and no lay-off)
        try:
            if melds:
                deal = deal.apply(LayDown(meld.cards for meld in melds))
            for card, index in offs:
                deal = deal.apply(LayOff(card, index))
        except IllegalAction:  # pragma: no cover - the plan is legal by construction
            pass
    return deal.apply(Discard(reserve))


def _wary_discard(deal: Deal, rest: list[Card]) -> Callable[[Card], float]:
    ruleset = deal.ruleset
    following = (deal.to_move + 1) % deal.num_players
    feeds = deal.has_opened(following)
    # The cards the next player could lay off, gathered once (this runs every rollout turn).
    lay_offs: set[Card] = set()
    for meld in deal.table if feeds else ():
        lay_offs |= accepts(meld.meld, ruleset)

    def worth_throwing(card: Card) -> float:
        worth = float(card_penalty(card, ruleset))
        if any(could_meld(card, other) for other in rest if other is not card):
            worth -= 10.0
        if card in lay_offs:
            worth -= 12.0
        return worth

    return worth_throwing


def _opening(hand: list[Card], ruleset: Ruleset) -> list[Meld]:
    """An opening for this turn, or ``[]``: the cheap way first.

    The hand's best partition (remembered across rollouts) usually answers:
    if its melds reach the minimum and leave a card to discard they are the
    opening; if they fall well short there is none. Only the cases in
    between ask the exact opening search.
    """
    melds = partition(hand, ruleset)
    value = sum(meld_value(meld, ruleset) for meld in melds)
    laid = sum(len(meld.cards) for meld in melds)
    if value >= ruleset.opening_minimum and laid < len(hand):
        return melds
    if value < ruleset.opening_minimum - 12 and ruleset.hand_needs_51:
        return []
    return opening_for_turn(hand, ruleset)


def rollout(
    deal: Deal,
    max_turns: int = 400,
    *,
    wary: bool = False,
    stop: Callable[[], bool] | None = None,
) -> Deal:
    """Play ``deal`` on with the fast policy for every seat (up to ``max_turns`` turns).

    ``stop`` is asked every few turns (a clock check is cheap, but not free):
    when it says so, the deal is returned unfinished.
    """
    for turn in range(max_turns):
        if deal.is_over or (stop is not None and turn % 4 == 3 and stop()):
            break
        deal = fast_turn(deal, wary=wary)
    return deal
