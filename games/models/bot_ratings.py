"""The built-in bots' ratings from their games against people (``games.bot_ratings``).

Kept apart from ``accounts.Rating``, which the leaderboards and statistics read: a bot's
rating here is computed from finished games after the fact and changes no one else's.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engine_words import preset_display_name
from remi_site import formats


class BotRating(models.Model):
    """A built-in bot's rating in one rule family (the game's preset), from its games
    against people: an openskill Plackett-Luce estimate as ``accounts.Rating`` holds one.
    Written only by ``games.bot_ratings``, with the watermark's row locked."""

    # The unique (user, rules) index below serves the reads by user.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,
        verbose_name=_("bot"),
    )
    rules = models.CharField(
        _("rules"), max_length=32, help_text=_("The rule family: the games' preset.")
    )
    # An openskill estimate: its mean and its uncertainty.
    mu = models.FloatField(_("skill estimate (μ)"))
    sigma = models.FloatField(_("uncertainty (σ)"))
    # The displayed rating (see games.ratings).
    rating = models.IntegerField(
        _("rating"), help_text=_("The rating shown, from the estimate and its uncertainty.")
    )
    games = models.PositiveIntegerField(
        _("games"), default=0, help_text=_("Games against people counted.")
    )
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("bot rating")
        verbose_name_plural = _("bot ratings")
        constraints = [
            models.UniqueConstraint(fields=["user", "rules"], name="bot_rating_unique_user_rules"),
        ]

    def __str__(self) -> str:
        return gettext("%(bot)s in %(rules)s: %(rating)s") % {
            "bot": self.user.get_username(),
            "rules": preset_display_name(self.rules),
            "rating": formats.rating(self.rating),
        }


class BotRatingWatermark(models.Model):
    """The last finished game the bots' ratings have looked at, in finish order (its
    ``finished_at`` and id): one row, locked by each run, so that a game is counted once
    even when two runs meet."""

    last_finished_at = models.DateTimeField(
        _("last game counted finished at"), null=True, blank=True
    )
    last_game_id = models.BigIntegerField(_("ID of the last game counted"), default=0)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("progress of the bot ratings")
        verbose_name_plural = _("progress of the bot ratings")

    def __str__(self) -> str:
        return gettext("Bot ratings counted up to the game with ID %(id)s") % {
            "id": self.last_game_id
        }
