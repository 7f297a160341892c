"""What moderators looked at: each showing of a game's hidden cards."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy

# Public ids and invite codes: lowercase letters and digits without look-alikes.
from games.models.play import Deal, Game


class ModerationAccess(models.Model):
    """One look by a moderator at a game's hidden information (every hand, the stock,
    a player's private draws) through the admin. Append-only: written by
    ``games.admin`` when the hidden state is shown, never changed."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="moderation_accesses"
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moderation_accesses")
    deal = models.ForeignKey(Deal, on_delete=models.SET_NULL, null=True, blank=True)
    what = models.CharField(max_length=32)  # "deal_state", "move_private"
    path = models.CharField(max_length=255, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = gettext_lazy("moderation access")
        verbose_name_plural = gettext_lazy("moderation accesses")
        ordering = ["-created_at", "-id"]
        permissions = [
            ("view_hidden_cards", "Can see hidden cards (every hand, the stock) in the admin"),
        ]
        indexes = [models.Index(fields=["game", "-created_at"], name="moderation_game_created")]

    def __str__(self) -> str:
        return f"{self.user_id} saw {self.what} of {self.game_id}"
