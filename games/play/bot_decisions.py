"""A built-in bot's decision kept while its pause runs (``games.models.BotDecision``).

The bot's task decides at once and, when the table should see the move only later
(``games.play.bot_pause``), keeps the decision here and ends: a second task applies it
when the pause is over (``bot_turns.bot_apply``). No worker waits the pause out.

The row is keyed by the game and names the ply it was decided at, so every seam comes
to the same two checks, made where the decision is applied: the game must still be at
that ply (a person resigned, the turn timed out, another task moved first: the row is
stale and dropped), and the row goes in the transaction of the moves it plays (a second
apply of the same decision finds the ply moved on). A task lost with Redis or with a
killed worker leaves the row: the bot sweep queues the bot's task again, which finds
its decision kept and due, and plays it without deciding again.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from games.engine import Action
from games.models import BotDecision


def keep(*, game_pk: int, ply: int, actions: Sequence[Action], due_at: datetime) -> None:
    """Keep the decision of the bot to move at ``ply`` (replacing any older one)."""
    BotDecision.objects.bulk_create(
        [
            BotDecision(
                game_id=game_pk,
                ply=ply,
                actions=[action.to_dict() for action in actions],
                due_at=due_at,
            )
        ],
        update_conflicts=True,
        unique_fields=["game"],
        update_fields=["ply", "actions", "due_at"],
    )


def kept(*, game_pk: int, ply: int) -> BotDecision | None:
    """The decision kept for the bot to move at ``ply``, if any."""
    return BotDecision.objects.filter(game_id=game_pk, ply=ply).first()


def forget(*, game_pk: int, ply: int) -> None:
    """Drop the decision kept for ``ply`` (played, or stale: the game moved on)."""
    BotDecision.objects.filter(game_id=game_pk, ply=ply).delete()
