"""How long a built-in bot waits before its move shows, when a person is at the table.

A person follows the table: a reply in a few milliseconds reads as a glitch, and a long
wait on an obvious draw as a stall. ``bot_pause_s`` is the pause a decision deserves,
counted from when the turn came to the bot: short for a forced or obvious action (the
draw at the start of a turn, the one card left to throw), longer for what the table has
to read (a lay-down, by its cards; a lay-off; a discard chosen among many), with a
little jitter seeded by the game and the ply so that the same turn waits the same. The
time the bot already spent (the queued task and its thinking) is taken off by
``remaining_pause_s``: a slow decision adds no wait of its own. Nothing here waits: the
decision is kept for what is left of its pause and played by a later task
(``games.play.bot_decisions``).

The bounds are settings (``BOT_PAUSE_MIN_S``, ``BOT_PAUSE_MAX_S``, docs/bots.md); a
table with no person at it waits nothing, and the tests set both bounds to 0.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings

from games.engine import Action
from games.engine.actions import Discard, LayDown, LayOff, SwapJoker, TakeDiscard

# Seconds a person needs beyond the shortest pause to follow each kind of action.
TAKE_S = 0.5  # the discard taken: the table sees which card
LAY_DOWN_S = 0.6  # a lay-down, plus its cards one by one
LAID_CARD_S = 0.1
LAY_OFF_S = 0.3  # each card put on a meld on the table
SWAP_S = 0.4  # a joker swapped out
CHOSEN_DISCARD_S = 0.3  # a discard picked among several cards, plus a little per card
DISCARD_CHOICE_S = 0.04
JITTER = 0.2  # up to this fraction more or less, so that moves do not tick like a clock

# The seed's tag: the jitter of a (game, ply) is its own, apart from any other draw.
_SEED_TAG = 0x50A5E


@dataclass(frozen=True, slots=True)
class PauseBounds:
    """The shortest and the longest pause, in seconds (``min_s <= max_s``)."""

    min_s: float
    max_s: float

    @classmethod
    def from_settings(cls) -> PauseBounds:
        low = max(0.0, float(settings.BOT_PAUSE_MIN_S))
        return cls(min_s=low, max_s=max(low, float(settings.BOT_PAUSE_MAX_S)))


def bot_pause_s(
    actions: Sequence[Action], *, hand_size: int, bounds: PauseBounds, seed: int
) -> float:
    """The pause, in seconds from the turn coming to the bot, before ``actions`` show.

    ``hand_size`` is the bot's hand when it decided (a discard from a hand of one card
    is forced); ``seed`` makes the jitter repeatable (``pause_seed``)."""
    extra = 0.0
    for action in actions:
        if isinstance(action, TakeDiscard):
            extra += TAKE_S
        elif isinstance(action, LayDown):
            extra += LAY_DOWN_S + LAID_CARD_S * sum(len(meld) for meld in action.melds)
        elif isinstance(action, LayOff):
            extra += LAY_OFF_S
        elif isinstance(action, SwapJoker):
            extra += SWAP_S
        elif isinstance(action, Discard) and hand_size > 1:
            extra += CHOSEN_DISCARD_S + DISCARD_CHOICE_S * min(hand_size, 15)
    if extra:
        extra *= 1.0 + random.Random(seed).uniform(-JITTER, JITTER)
    return min(bounds.max_s, bounds.min_s + extra)


def pause_seed(game_pk: int, ply: int) -> int:
    """The jitter's seed for the bot's decision at ``ply`` of a game."""
    return hash((_SEED_TAG, game_pk, ply)) & 0xFFFFFFFF


def remaining_pause_s(pause_s: float, *, spent_s: float) -> float:
    """What is left of ``pause_s`` once ``spent_s`` has passed since the turn came."""
    return max(0.0, pause_s - max(0.0, spent_s))
