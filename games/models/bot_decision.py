"""A built-in bot's decision waiting out its pause (``games.play.bot_decisions``).

The bot decides as soon as its task runs; the table should see the move only after a
pause a person can follow (``games.play.bot_pause``). Rather than hold a worker for
that pause, the decision is kept here and a second task applies it when the pause is
over. One row per game at most: the bot to move at ``ply``, and what it will play.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.fields import JSONTextField
from games.models.play import Game
from remi_site import formats


class BotDecision(models.Model):
    """What the bot to move at ``ply`` decided, to be applied at ``due_at``. A row whose
    ply is not the game's any more is stale: the game moved on (a person resigned, the
    turn timed out) and it is dropped, never applied."""

    game = models.OneToOneField(
        Game,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="bot_decision",
        verbose_name=_("game"),
    )
    ply = models.PositiveIntegerField(_("move number"))
    # The decision's actions, each as the engine writes it (``Action.to_dict``), in order.
    actions = JSONTextField(_("actions"))
    due_at = models.DateTimeField(_("to be played at"))

    class Meta:
        verbose_name = _("bot decision")
        verbose_name_plural = _("bot decisions")

    def __str__(self) -> str:
        return gettext("Bot decision in game %(game)s at move %(number)s") % {
            "game": self.game.public_id,
            "number": formats.number(self.ply),
        }
