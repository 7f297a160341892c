"""A deal's review: each turn, what was played and what the exact solver would have
laid, computed once after the deal ends (``games.review``) and read by
``games.read.reviews``, which decides who sees which turns."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.fields import JSONTextField
from games.models.play import Deal
from remi_site import formats


class DealReview(models.Model):
    """The turns of one ended deal as ``games.review.analysis`` judged them. It names
    seats by position, like the move log: a deleted player's turns stay with the game,
    shown under the anonymised account, as their moves do."""

    deal = models.OneToOneField(
        Deal, on_delete=models.CASCADE, related_name="review", verbose_name=_("deal")
    )
    # A list of turns (games.review.analysis.TurnReview.to_dict), read and written whole.
    turns = JSONTextField(_("turns"))
    # Turns the solver's budget left unexamined (games.review.compute): shown as such.
    unexamined = models.PositiveIntegerField(_("turns not examined"), default=0)
    computed_at = models.DateTimeField(_("computed at"))
    compute_ms = models.PositiveIntegerField(_("computing time, in milliseconds"), default=0)

    class Meta:
        verbose_name = _("deal review")
        verbose_name_plural = _("deal reviews")

    def __str__(self) -> str:
        return gettext("Review of deal %(number)s of game %(game)s") % {
            "number": formats.number(self.deal.number),
            "game": self.deal.game.public_id,
        }
