"""Each player's statistics per rule family, counted as games change."""

from __future__ import annotations

from django.conf import settings
from django.db import models

# Public ids and invite codes: lowercase letters and digits without look-alikes.


class PlayerStats(models.Model):
    """A player's counters in one rule family (the game's preset). Written only by
    ``games.stats`` in the transaction of the change they count: a game starting, a
    deal ending, a game ending or aborted; ``manage.py rebuild_stats`` recounts them
    from the games. A missing row counts as zeros."""

    # The unique (user, rules) index below serves the reads by user.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    rules = models.CharField(max_length=32)
    # Signed on purpose: an abort takes back what its game added, and a check
    # constraint must never refuse a move because of a statistic.
    games = models.IntegerField(default=0)  # finished matches
    wins = models.IntegerField(default=0)  # finished matches won (a shared first place counts)
    left_early = models.IntegerField(default=0)  # finished matches left (resigned, put out)
    playing = models.IntegerField(default=0)  # matches under way
    deals = models.IntegerField(default=0)  # deals played to a result, in matches not aborted
    deals_won = models.IntegerField(default=0)  # deals the player went out in
    hands = models.IntegerField(default=0)  # of which in one go (a dry hand)
    deal_points = models.BigIntegerField(default=0)  # the sum of the player's deal scores

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "rules"], name="player_stats_unique_rules"),
        ]

    def __str__(self) -> str:
        return f"statistics of {self.user_id} in {self.rules}"
