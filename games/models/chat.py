"""The table chat."""

from __future__ import annotations

from django.conf import settings
from django.db import models

# Public ids and invite codes: lowercase letters and digits without look-alikes.
from games.models.play import Game

CHAT_MAX_LENGTH = 300


class ChatMessage(models.Model):
    """A line of a game's table chat, written by ``games.play.chat`` only. Seated players
    write; whoever may see the game reads. Moderators hide a line (never delete it,
    so a report can still be judged); hidden lines are shown to nobody but staff."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_messages"
    )
    ply = models.PositiveIntegerField()  # the game's ply when it was sent
    text = models.CharField(max_length=CHAT_MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["game", "id"], name="chat_game_id")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.game_id} at ply {self.ply}: {self.text[:40]}"
