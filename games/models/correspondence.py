"""The correspondence day: notes, a queued draw and extra time."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

# Public ids and invite codes: lowercase letters and digits without look-alikes.
from games.models.play import Game, Seat

# A player's private aids at one table: a note, a queued draw, a request for more time.
# Written by games.play.notes, games.play.premoves and games.play.extra_time.

NOTE_MAX_LENGTH = 2000


class Note(models.Model):
    """A player's private note on one game: shown to its author only, never in any
    answer or event of the game itself (only ``/games/{id}/note`` reads it)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.TextField(max_length=NOTE_MAX_LENGTH)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="note_unique_user"),
        ]

    def __str__(self) -> str:
        return f"note of {self.user_id} on {self.game_id}"


class PreMove(models.Model):
    """A correspondence player's queued draw from the stock at their next turn, unless
    the top of the discard pile is one of ``unless`` (card texts: then the turn waits
    for them). Private to the player; applied (or dropped) by ``games.play.premoves``
    when the turn arrives, one turn only."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="premove")
    unless = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"queued draw of seat {self.seat_id} in {self.game_id}"


EXTRA_TIME_MAX_DAYS = 7


class ExtraTimeRequest(models.Model):
    """A player asks the others at a correspondence table for more days on their turn;
    any other player still in the game grants or declines it. Granting moves the
    current deadline while it is still the asker's turn. One request waits at a time."""

    class Status(models.TextChoices):
        PENDING = "pending"
        GRANTED = "granted"
        DECLINED = "declined"
        EXPIRED = "expired"  # the turn passed before an answer

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="extra_time_requests")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    days = models.PositiveSmallIntegerField()
    ply = models.PositiveIntegerField()  # the game's ply when asked: the turn it is for
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
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
        return f"{self.days} more day(s) for seat {self.seat_id} in {self.game_id} ({self.status})"
