"""The bot interface: what a bot is given, what it returns, and its budget."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from games.engine import Action, Ruleset
from games.engine.view import SeatView

from .memory import BotMemory

__all__ = ["Bot", "Budget", "Observation"]


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything a bot may know when it is to move: its seat's view and memory.

    There is no path from here to another hand, the stock or the deck order:
    ``view`` is the engine's per-seat view, ``memory`` holds public events only.
    """

    view: SeatView
    memory: BotMemory | None
    ruleset: Ruleset

    @property
    def seat(self) -> int:
        assert self.view.seat is not None
        return self.view.seat


@dataclass(frozen=True, slots=True)
class Budget:
    """How much thinking a turn may use.

    ``simulations`` caps the search of the expert (deterministic: tests and
    benches use it); ``time_limit_s`` is a wall-clock limit measured with
    ``clock`` (the platform's default is 2 s). A bot stops at whichever comes
    first; levels 1 to 3 use neither (they are fast by construction).
    """

    time_limit_s: float | None = 2.0
    simulations: int | None = None
    clock: Callable[[], float] = field(default=time.perf_counter, compare=False)

    def deadline(self) -> float | None:
        """The clock reading at which to stop, started now."""
        return None if self.time_limit_s is None else self.clock() + self.time_limit_s


class Bot(Protocol):
    """A bot level. ``decide`` returns the next actions of its turn, in order.

    The list ends with a discard (the turn is over), or with a draw from the
    stock / an undo of a take (the drawn card is not known yet: call again
    with the new view). The actions are legal in order for the seat.
    """

    level: int
    name: str

    def decide(self, obs: Observation, rng: random.Random, budget: Budget) -> list[Action]: ...
