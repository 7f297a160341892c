"""Random legal play: the property tests' driver and the "Random" bot's brain.

Every action is drawn uniformly from ``deal.legal_actions()``. A deal always
ends: each turn ends with a discard, and the stock can be refilled only
``ruleset.max_reshuffles`` times before the deal is void.
"""

from __future__ import annotations

import random

from .actions import Action
from .deal import Deal
from .match import Match

__all__ = ["play_out", "play_out_match", "random_action"]


def random_action(deal: Deal, rng: random.Random) -> Action:
    """A uniformly random legal action of the player to move."""
    actions = deal.legal_actions()
    if not actions:
        raise ValueError("the deal is over: there is nothing to play")
    return rng.choice(actions)


def play_out(deal: Deal, rng: random.Random) -> Deal:
    """The finished deal after random legal play from ``deal``."""
    while not deal.is_over:
        deal = deal.apply(random_action(deal, rng))
    return deal


def play_out_match(match: Match, rng: random.Random) -> Match:
    """The finished match after random legal play, dealing new deals with ``rng``."""
    while not match.is_over:
        if match.deal.is_over:
            match = match.next_deal(rng)
        else:
            match = match.apply(random_action(match.deal, rng))
    return match
