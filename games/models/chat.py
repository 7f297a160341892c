"""The table chat."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models.play import Game
from remi_site import formats

CHAT_MAX_LENGTH = 300


class ChatMessage(models.Model):
    """A line of a game's table chat, written by ``games.play.chat`` only. Seated players
    write; whoever may see the game reads. Moderators hide a line (never delete it,
    so a report can still be judged); hidden lines are shown to nobody but staff."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="chat_messages", verbose_name=_("game")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="chat_messages",
        verbose_name=_("player"),
    )
    ply = models.PositiveIntegerField(
        _("move number"), help_text=_("The number of moves logged in the game when it was sent.")
    )
    text = models.CharField(_("text"), max_length=CHAT_MAX_LENGTH)
    created_at = models.DateTimeField(_("sent at"), auto_now_add=True)
    hidden_at = models.DateTimeField(_("hidden at"), null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("hidden by"),
    )

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["id"]
        indexes = [models.Index(fields=["game", "id"], name="chat_game_id")]

    def __str__(self) -> str:
        return gettext("%(player)s in game %(game)s at move %(number)s: %(text)s") % {
            "player": self.user.get_username(),
            "game": self.game.public_id,
            "number": formats.number(self.ply),
            "text": self.text[:40],
        }
