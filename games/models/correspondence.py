"""The correspondence day: notes, a queued draw and extra time."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.models.play import Game, Seat
from remi_site import formats

# A player's private aids at one table: a note, a queued draw, a request for more time.
# Written by games.play.notes, games.play.premoves and games.play.extra_time.

NOTE_MAX_LENGTH = 2000


class Note(models.Model):
    """A player's private note on one game: shown to its author only, never in any
    answer or event of the game itself (only ``/games/{id}/note`` reads it)."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="+", verbose_name=_("game")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("player"),
    )
    text = models.TextField(_("text"), max_length=NOTE_MAX_LENGTH)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("private note")
        verbose_name_plural = _("private notes")
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="note_unique_user"),
        ]

    def __str__(self) -> str:
        return gettext("Note of %(player)s on game %(game)s") % {
            "player": self.user.get_username(),
            "game": self.game.public_id,
        }


class PreMove(models.Model):
    """A correspondence player's queued draw from the stock at their next turn, unless
    the top of the discard pile is one of ``unless`` (card texts: then the turn waits
    for them). Private to the player; applied (or dropped) by ``games.play.premoves``
    when the turn arrives, one turn only."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="+", verbose_name=_("game")
    )
    seat = models.OneToOneField(
        Seat, on_delete=models.CASCADE, related_name="premove", verbose_name=_("seat")
    )
    unless = models.JSONField(
        _("unless the top of the discard pile is"),
        default=list,
        blank=True,
        help_text=_("Then the turn waits for the player."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("queued draw")
        verbose_name_plural = _("queued draws")

    def __str__(self) -> str:
        return gettext("Queued draw of %(player)s in game %(game)s") % {
            "player": self.seat.user.get_username(),
            "game": self.game.public_id,
        }


EXTRA_TIME_MAX_DAYS = 7


class ExtraTimeRequest(models.Model):
    """A player asks the others at a correspondence table for more days on their turn;
    any other player still in the game grants or declines it. Granting moves the
    current deadline while it is still the asker's turn. One request waits at a time."""

    class Status(models.TextChoices):
        PENDING = "pending", pgettext_lazy("extra time", "Waiting for an answer")
        GRANTED = "granted", pgettext_lazy("extra time", "Granted")
        DECLINED = "declined", pgettext_lazy("extra time", "Declined")
        # the turn passed before an answer
        EXPIRED = "expired", pgettext_lazy("extra time", "The turn passed first")

    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        related_name="extra_time_requests",
        verbose_name=_("game"),
    )
    seat = models.ForeignKey(
        Seat, on_delete=models.CASCADE, related_name="+", verbose_name=_("seat")
    )
    days = models.PositiveSmallIntegerField(_("days asked for"))
    # the game's ply when asked: the turn it is for
    ply = models.PositiveIntegerField(
        _("move number"), help_text=_("The number of moves logged when it was asked for.")
    )
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.PENDING
    )
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("answered by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)

    class Meta:
        verbose_name = _("request for more time")
        verbose_name_plural = _("requests for more time")
        constraints = [
            models.UniqueConstraint(
                fields=["game"],
                condition=Q(status="pending"),
                name="extra_time_one_pending",
            ),
            models.CheckConstraint(
                condition=Q(days__gte=1, days__lte=EXTRA_TIME_MAX_DAYS),
                name="extra_time_days_range",
            ),
        ]

    def __str__(self) -> str:
        return ngettext(
            "%(player)s asks for %(days)s more day in game %(game)s (%(status)s)",
            "%(player)s asks for %(days)s more days in game %(game)s (%(status)s)",
            self.days,
        ) % {
            "player": self.seat.user.get_username(),
            "days": formats.number(self.days),
            "game": self.game.public_id,
            "status": self.get_status_display(),
        }
