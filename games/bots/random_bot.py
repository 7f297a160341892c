"""Level 1, "Random": random legal play that still opens and goes out when it can."""

from __future__ import annotations

import random

from games.engine import Action, Deal, Discard, DrawStock, LayDown, UndoTake

from .base import Budget, Observation
from .planning import lines
from .world import imagine

__all__ = ["RandomBot", "random_turn"]


class RandomBot:
    level = 1
    name = "random"

    def decide(self, obs: Observation, rng: random.Random, budget: Budget) -> list[Action]:
        return random_turn(imagine(obs, rng), rng)


def random_turn(deal: Deal, rng: random.Random) -> list[Action]:
    """Random legal actions for the mover, up to a stock draw or the end of the turn.

    Before anything random it checks whether the hand can go out (and does)
    and, if it has not opened, whether it can open (and does).
    """
    seat = deal.to_move
    actions: list[Action] = []
    if not deal.drawn:
        action = rng.choice(deal.legal_actions())
        if isinstance(action, DrawStock):
            return [action]
        actions.append(action)
        deal = deal.apply(action)
    out = [line for line in lines(deal) if line.goes_out]
    if out:
        return [*actions, *rng.choice(out).actions]
    if not deal.has_opened(seat):
        openings = [a for a in deal.legal_actions() if isinstance(a, LayDown)]
        if openings:
            actions.append(openings[0])
            deal = deal.apply(openings[0])
    while True:
        # Undoing a take is a convenience of the serbian UI, not a move: never chosen.
        action = rng.choice([a for a in deal.legal_actions() if not isinstance(a, UndoTake)])
        actions.append(action)
        if isinstance(action, Discard):
            return actions
        deal = deal.apply(action)
