"""Reading the others' hands from what they threw and what they let go by.

A player keeps the cards that work together and throws the one that works
with nothing; a player who draws from the stock did not want the top discard.
So a hand that holds a close partner of a card its owner recently threw or
declined (the same rank in another suit, or the same suit a rank or two
away) is less likely than one that does not. ``discards_read`` turns that
into a likelihood for a dealt hand, and ``hands_read`` combines it with
``laid_what_it_could`` into the ``plausible`` test the worlds are dealt with
(each test passes a hand with its likelihood, so a likely hand is kept more
often than an unlikely one, and none is ruled out for good).

The evidence fades with age: only each player's last ``recent`` throws and
declines count, since the hand they were made from has changed since.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from games.engine import Card

from .base import Observation
from .planning import rank_gap
from .world import laid_what_it_could

__all__ = ["discards_read", "hands_read"]

# How much less likely a hand is for each close partner of a card thrown or declined:
# a set partner (same rank) or a run neighbour (a rank away), and a run card two away.
CLOSE = 0.55
NEAR = 0.8


def discards_read(obs: Observation, *, recent: int = 4) -> Callable[[int, list[Card]], float]:
    """``likelihood(seat, hand)``: 1.0 for a hand its owner's throws say nothing against."""
    memory = obs.memory
    evidence: list[list[Card]] = [[] for _ in obs.view.hand_counts]
    if memory is not None:
        for seat in memory.opponents():
            record = memory.records[seat]
            shed = [*record.discarded[-recent:], *record.declined[-recent:]]
            evidence[seat] = [card for card in shed if not card.is_joker]

    def likelihood(seat: int, hand: list[Card]) -> float:
        return _likelihood(evidence[seat], hand)

    return likelihood


def _likelihood(shed: Sequence[Card], hand: Sequence[Card]) -> float:
    weight = 1.0
    for thrown in shed:
        for card in hand:
            if card.is_joker or card == thrown:
                continue
            if card.rank == thrown.rank:
                weight *= CLOSE
            elif card.suit is thrown.suit:
                gap = rank_gap(card.rank, thrown.rank)
                if gap == 1:
                    weight *= CLOSE
                elif gap == 2:
                    weight *= NEAR
    return weight


def hands_read(obs: Observation, *, leak: float = 0.1) -> Callable[[int, list[Card]], bool]:
    """A ``plausible`` test: laid what it could (``laid_what_it_could``), and kept what it threw
    nothing close to (``discards_read``), each passed with its likelihood.

    Deterministic for a given observation: its own random numbers are seeded by it.
    """
    laid = laid_what_it_could(obs, leak=leak)
    read = discards_read(obs)
    view = obs.view
    draws = random.Random(len(view.discard) * 7919 + view.stock_count * 31 + 1)

    def plausible(seat: int, hand: list[Card]) -> bool:
        return draws.random() < read(seat, hand) and laid(seat, hand)

    return plausible
