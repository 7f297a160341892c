"""The built-in bots' ratings from their games against people (``games.bot_ratings``).

Kept apart from ``accounts.Rating``, which the leaderboards and statistics read: a bot's
rating here is computed from finished games after the fact and changes no one else's.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class BotRating(models.Model):
    """A built-in bot's rating in one rule family (the game's preset), from its games
    against people: an openskill Plackett-Luce estimate as ``accounts.Rating`` holds one.
    Written only by ``games.bot_ratings``, with the watermark's row locked."""

    # The unique (user, rules) index below serves the reads by user.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    rules = models.CharField(max_length=32, help_text="The rule family: the game's preset.")
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.IntegerField(help_text="The displayed rating (see games.ratings).")
    games = models.PositiveIntegerField(default=0, help_text="Games against people counted.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "rules"], name="bot_rating_unique_user_rules"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.rules} {self.rating}"


class BotRatingWatermark(models.Model):
    """The last finished game the bots' ratings have looked at, in finish order (its
    ``finished_at`` and id): one row, locked by each run, so that a game is counted once
    even when two runs meet."""

    last_finished_at = models.DateTimeField(null=True, blank=True)
    last_game_id = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"bot ratings counted up to game {self.last_game_id}"
