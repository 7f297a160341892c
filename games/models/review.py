"""A deal's review: each turn, what was played and what the exact solver would have
laid, computed once after the deal ends (``games.review``) and read by
``games.read.reviews``, which decides who sees which turns."""

from __future__ import annotations

from django.db import models

from games.fields import JSONTextField
from games.models.play import Deal


class DealReview(models.Model):
    """The turns of one ended deal as ``games.review.analysis`` judged them. It names
    seats by position, like the move log: a deleted player's turns stay with the game,
    shown under the anonymised account, as their moves do."""

    deal = models.OneToOneField(Deal, on_delete=models.CASCADE, related_name="review")
    # A list of turns (games.review.analysis.TurnReview.to_dict), read and written whole.
    turns = JSONTextField()
    # Turns the solver's budget left unexamined (games.review.compute): shown as such.
    unexamined = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField()
    compute_ms = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"review of deal {self.deal_id}"
