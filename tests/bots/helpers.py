"""Helpers for the bot tests: observations of hand-made positions, and full deals."""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.bots import Budget, make_bot
from games.bots.arena import DealRecord, play_deal
from games.bots.base import Bot, Observation
from games.bots.memory import BotMemory
from games.engine import Action, Deal, Ruleset
from tests.engine.helpers import MACEDONIAN, position

FAST = Budget(time_limit_s=None, simulations=12)


def observe(deal: Deal, seat: int | None = None, memory: BotMemory | None = None) -> Observation:
    """The observation of the seat to move (or ``seat``) in ``deal``."""
    seat = deal.to_move if seat is None else seat
    view = deal.view(seat)
    return Observation(view, memory if memory is not None else BotMemory.start(view), deal.ruleset)


def decide(bot: Bot, deal: Deal, *, seed: int = 0, budget: Budget = FAST) -> list[Action]:
    return bot.decide(observe(deal), random.Random(seed), budget)


def feeding_position(ruleset: Ruleset = MACEDONIAN) -> Deal:
    """Seat 0 to discard; 9H, its highest-penalty loose card, feeds seat 1's table run.

    Seat 1 has opened with 6-7-8 of hearts and could take the 9H and lay it off.
    """
    return position(
        ruleset,
        "2S 3S 4S 9H 8C 5D",
        "2C 5S 9D QC JD",
        table=[(1, "6H 7H 8H")],
        stock="3D 4D",
        drawn=True,
    )


def texts(actions: Sequence[Action]) -> list[str]:
    return [str(action) for action in actions]


def play(deal: Deal, levels: Sequence[int], *, seed: int = 0, budget: Budget = FAST) -> DealRecord:
    bots = [make_bot(level) for level in levels]
    rngs = [random.Random(f"{seed}:{seat}") for seat in range(len(levels))]
    return play_deal(deal, bots, rngs=rngs, budget=budget)


def opened_macedonian_position(discard: str = "") -> Deal:
    """Both seats have opened; seat 0 to play with several sensible discards (an
    expert has candidates to search; seat 1's hand is hidden from seat 0)."""
    return position(
        MACEDONIAN,
        "7H 8H 2C 5S KD QS JC 3D 9D",
        "2H 3C 5C 6D 7D 8D 9S",
        opened=[0, 1],
        table=[(1, "2D 3D 4D"), (0, "AS 2S 3S 4S")],
        stock="KH QH 4C 6C 7C 8C 9C 10C",
        discard=discard,
        drawn=True,
    )
