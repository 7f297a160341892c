"""Bots playing deals against each other, exactly as the platform would run them.

Each bot sees only ``deal.view(seat)`` and a memory fed with the events its
seat was shown. Used by the tests and by ``bench/bots.py``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from games.engine import Action, Deal, DealResult, Discard

from .base import Bot, Budget, Observation
from .memory import BotMemory

__all__ = ["DealRecord", "play_deal"]


@dataclass(slots=True)
class DealRecord:
    """A finished deal and how long each seat thought about each of its turns."""

    deal: Deal
    turn_seconds: list[list[float]] = field(default_factory=list)
    decisions: int = 0
    actions: list[tuple[int, Action]] = field(default_factory=list)  # (seat, action), in order

    @property
    def result(self) -> DealResult:
        result = self.deal.result()
        assert result is not None
        return result


def play_deal(
    deal: Deal,
    bots: Sequence[Bot],
    *,
    rngs: Sequence[random.Random],
    budget: Budget | Sequence[Budget],
    clock: Callable[[], float] = time.perf_counter,
    max_decisions: int = 5_000,
    before_decision: Callable[[Deal], None] | None = None,
) -> DealRecord:
    """Play ``deal`` to its end with ``bots[seat]`` in each seat.

    ``budget`` is one for all seats or one per seat. Every action a bot
    returns is applied with ``deal.apply``: an illegal one raises the
    engine's ``IllegalAction``. ``before_decision`` is called with the real
    deal before every decision: a bench's way to measure what knowing it
    would be worth (no bot is ever given it).
    """
    ruleset = deal.ruleset
    budgets = [budget] * deal.num_players if isinstance(budget, Budget) else list(budget)
    memories = [BotMemory.start(deal.view(seat)) for seat in range(deal.num_players)]
    record = DealRecord(deal, [[] for _ in bots])
    turn_time = 0.0
    while not deal.is_over:
        if record.decisions >= max_decisions:
            raise RuntimeError("the bots did not finish the deal")
        seat = deal.to_move
        obs = Observation(deal.view(seat), memories[seat], ruleset)
        if before_decision is not None:
            before_decision(deal)
        started = clock()
        actions = bots[seat].decide(obs, rngs[seat], budgets[seat])
        turn_time += clock() - started
        record.decisions += 1
        if not actions:
            raise RuntimeError(f"bot {bots[seat].name} returned no action")
        for action in actions:
            if deal.is_over or deal.to_move != seat:
                raise RuntimeError(f"bot {bots[seat].name} played on after its turn: {action}")
            deal = deal.apply(action)
            record.actions.append((seat, action))
            event = deal.last_event
            assert event is not None
            for other, memory in enumerate(memories):
                memory.observe(event.for_seat(other))
        if isinstance(actions[-1], Discard):
            record.turn_seconds[seat].append(turn_time)
            turn_time = 0.0
    record.deal = deal
    return record
