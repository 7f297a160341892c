"""What moderators looked at: each showing of a game's hidden cards."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from games.models.play import Deal, Game
from remi_site import formats


class ModerationAccess(models.Model):
    """One look by a moderator at a game's hidden information (every hand, the stock,
    a player's private draws) through the admin. Append-only: written by
    ``games.admin`` when the hidden state is shown, never changed."""

    class What(models.TextChoices):
        DEAL_STATE = "deal_state", _("Every hand and the stock of a deal")
        MOVE_PRIVATE = "move_private", _("What only the mover saw of a move")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="moderation_accesses",
        verbose_name=_("moderator"),
    )
    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        related_name="moderation_accesses",
        verbose_name=_("game"),
    )
    deal = models.ForeignKey(
        Deal, on_delete=models.SET_NULL, null=True, blank=True, verbose_name=_("deal")
    )
    what = models.CharField(_("what was seen"), max_length=32, choices=What.choices)
    path = models.CharField(
        _("page"),
        max_length=255,
        blank=True,
        default="",
        help_text=_("The address of the admin page that showed it."),
    )
    created_at = models.DateTimeField(_("seen at"), auto_now_add=True)

    class Meta:
        verbose_name = _("moderation access")
        verbose_name_plural = _("moderation accesses")
        ordering = ["-created_at", "-id"]
        # Marked for the admin's labels (accounts/admin/permissions.py).
        permissions = [
            (
                "view_hidden_cards",
                gettext_noop("Can see hidden cards (every hand, the stock) in the admin"),
            ),
        ]
        indexes = [models.Index(fields=["game", "-created_at"], name="moderation_game_created")]

    def __str__(self) -> str:
        # One whole text for each thing seen, named as a look (a noun): a Serbian or
        # Polish past tense would say whether a man or a woman looked.
        values = {"moderator": self.user.get_username(), "game": self.game.public_id}
        if self.what == self.What.MOVE_PRIVATE:
            return (
                gettext("Look by %(moderator)s at what only the mover saw in game %(game)s")
                % values
            )
        if self.deal is not None:
            return gettext(
                "Look by %(moderator)s at every hand and the stock of deal %(deal)s "
                "of game %(game)s"
            ) % {**values, "deal": formats.number(self.deal.number)}
        return gettext("Look by %(moderator)s at the hidden cards of game %(game)s") % values
