"""Level 2, "Greedy": the exact solver, used without a thought for tomorrow.

It opens as soon as it can (the most valuable opening), lays down and lays
off everything it can, takes the discard only when that card improves its
best partition (and, where an unopened taker must open at once, only when
it can), and discards its highest-penalty card that does not meld.
"""

from __future__ import annotations

import random

from games.engine import (
    Action,
    Card,
    Deal,
    DiscardTake,
    DrawStock,
    TakeDiscard,
    card_penalty,
    opening_for_turn,
)

from .base import Budget, Observation
from .planning import Line, deadwood, lines, may_lay, may_take
from .world import imagine

__all__ = ["GreedyBot", "greedy_draw", "greedy_play", "greedy_turn"]


class GreedyBot:
    level = 2
    name = "greedy"

    def decide(self, obs: Observation, rng: random.Random, budget: Budget) -> list[Action]:
        return greedy_turn(imagine(obs, rng))


def greedy_turn(deal: Deal) -> list[Action]:
    """The greedy actions for the mover from here: a stock draw, or the rest of the turn."""
    if deal.drawn:
        return greedy_play(deal)
    if greedy_draw(deal):
        return [TakeDiscard(), *greedy_play(deal.apply(TakeDiscard()))]
    return [DrawStock()]


def greedy_draw(deal: Deal) -> bool:
    """Take the top discard? Only if it melds (or lays off) and lowers the deadwood."""
    if not may_take(deal):
        return False
    top = deal.discard_top
    assert top is not None
    ruleset = deal.ruleset
    seat = deal.to_move
    hand = list(deal.hand(seat))
    opened = deal.has_opened(seat)
    if not opened and ruleset.discard_take is DiscardTake.ANYONE_MUST_OPEN:
        return may_lay(deal) and bool(opening_for_turn([*hand, top], ruleset))
    table = [meld.meld for meld in deal.table] if opened else []
    return deadwood([*hand, top], ruleset, table) < deadwood(hand, ruleset, table)


def greedy_play(deal: Deal) -> list[Action]:
    """Lay what can be laid, then discard the highest-penalty card that does not meld."""
    return list(best_greedy_line(deal).actions)


def best_greedy_line(deal: Deal) -> Line:
    found = lines(deal)
    if not found:  # cannot happen in a dealt game: a discard is always legal
        raise ValueError("no way to end the turn")
    seat = deal.to_move
    ruleset = deal.ruleset

    def key(line: Line) -> tuple[int, int, bool, int, int]:
        score = line.score_for(seat)
        return (
            0 if line.goes_out else 1,
            score if score is not None else 0,
            _keeps_joker_badly(line.discard),
            line.left_penalty,
            -card_penalty(line.discard, ruleset),
        )

    return min(found, key=key)


def _keeps_joker_badly(card: Card) -> bool:
    """Throwing a joker away (not to go out) is never the greedy choice."""
    return card.is_joker
