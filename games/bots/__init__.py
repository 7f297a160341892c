"""Remi bots: four levels, pure Python on top of the engine (no Django here).

The ladder (``BOT_LEVELS``):

1. **Random**: random legal play that still opens and goes out when it can.
2. **Greedy**: the exact solver: opens as soon as it can, lays off everything,
   takes the discard only when it improves its best partition, discards its
   highest-penalty unusable card.
3. **Careful**: adds card counting, opponent reading, discard safety and
   the timing of a "hand".
4. **Expert**: determinised search (sampled worlds, the others' hands read
   from their play; rollouts) over the careful bot's candidate turns, within
   a deadline.

Fairness is structural: a bot is handed an ``Observation`` holding the
engine's ``SeatView`` for its seat and a ``BotMemory`` of the public events
it was shown; nothing it receives leads to another hand, the stock or the
deck order.

The platform's entry point is ``decide``; a Celery task calls it like this::

    from games import bots

    deal = row.restore(game.engine_ruleset())   # server side only
    view = deal.view(seat)                      # all the bot may see
    memory = bots.BotMemory.from_events(        # the deal's public log, as this seat saw it
        seat,
        deal.num_players,
        [move.private if move.seat_id == my_seat_id and move.private else move.public
         for move in moves_of_this_deal],
        initial_discard=first_view.discard,     # the polish51 upcard; () elsewhere
    )
    for action in bots.decide(level, view, memory, ruleset, rng=random.Random(),
                              time_budget_s=2.0):
        game_act(..., action=action)            # through the same service as a human

``decide`` returns the next actions of the bot's turn, in order. The list
ends either with a ``Discard`` (the turn is over) or with a ``DrawStock`` /
``UndoTake`` (the drawn card is not known yet): apply those, then call
``decide`` again with the new view (the memory fed with the new events).
Call it at the start of a turn (or right after such a draw) and apply the
whole list: the plan is one piece.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import Action, Ruleset
from games.engine.view import SeatView

from .base import Bot, Budget, Observation
from .careful import CarefulBot
from .expert import ExpertBot
from .greedy import GreedyBot
from .memory import BotMemory
from .random_bot import RandomBot

__all__ = [
    "BOT_LEVELS",
    "Bot",
    "BotMemory",
    "Budget",
    "CarefulBot",
    "ExpertBot",
    "GreedyBot",
    "Observation",
    "RandomBot",
    "decide",
    "make_bot",
]

BOT_LEVELS: dict[int, type[Bot]] = {
    1: RandomBot,
    2: GreedyBot,
    3: CarefulBot,
    4: ExpertBot,
}


def make_bot(level: int, **options: Any) -> Bot:
    """A bot of ``level`` (1-4); ``options`` go to its constructor."""
    try:
        factory = BOT_LEVELS[level]
    except KeyError:
        raise ValueError(f"no bot level {level!r}: levels are 1 to 4") from None
    return factory(**options)


def decide(
    level: int,
    view: SeatView,
    memory: BotMemory | None,
    ruleset: Ruleset,
    rng: random.Random,
    time_budget_s: float | None = 2.0,
    *,
    simulations: int | None = None,
) -> list[Action]:
    """The next actions of a bot of ``level`` playing ``view.seat``.

    ``view`` is ``deal.view(seat)`` with the bot to move; ``memory`` the
    seat's memory of this deal's public events (``None``: play without it,
    levels 3-4 then know less); ``ruleset`` the game's ruleset;
    ``time_budget_s`` the wall-clock limit per call (only level 4 uses it;
    levels 1-3 answer in milliseconds); ``simulations`` optionally caps level
    4's rollouts (for reproducible play). Raises ``ValueError`` if the seat
    is not to move.
    """
    if view.seat is None or view.to_move != view.seat or view.phase == "over":
        raise ValueError("decide() needs the view of the seat that is to move")
    bot = make_bot(level)
    obs = Observation(view=view, memory=memory, ruleset=ruleset)
    return bot.decide(obs, rng, Budget(time_limit_s=time_budget_s, simulations=simulations))
