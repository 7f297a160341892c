"""Each player's statistics per rule family, counted as games change."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engine_words import preset_display_name


class PlayerStats(models.Model):
    """A player's counters in one rule family (the game's preset). Written only by
    ``games.stats`` in the transaction of the change they count: a game starting, a
    deal ending, a game ending or aborted; ``manage.py rebuild_stats`` recounts them
    from the games. A missing row counts as zeros."""

    # The unique (user, rules) index below serves the reads by user.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,
        verbose_name=_("player"),
    )
    rules = models.CharField(_("rules"), max_length=32)
    # Signed on purpose: an abort takes back what its game added, and a check
    # constraint must never refuse a move because of a statistic.
    games = models.IntegerField(_("games finished"), default=0)
    # a shared first place counts
    wins = models.IntegerField(_("games won"), default=0)
    # resigned, put out
    left_early = models.IntegerField(_("games left early"), default=0)
    playing = models.IntegerField(_("games being played"), default=0)
    # played to a result, in matches not aborted
    deals = models.IntegerField(_("deals played"), default=0)
    deals_won = models.IntegerField(
        _("deals won"), default=0, help_text=_("Deals the player went out in.")
    )
    # of which in one go (a dry hand)
    hands = models.IntegerField(
        _("deals won in one go"),
        default=0,
        help_text=_("Deals won by laying down every card in one turn."),
    )
    deal_points = models.BigIntegerField(
        _("deal points"), default=0, help_text=_("The sum of the player's deal scores.")
    )

    class Meta:
        verbose_name = _("player statistics")
        verbose_name_plural = _("player statistics")
        constraints = [
            models.UniqueConstraint(fields=["user", "rules"], name="player_stats_unique_rules"),
        ]

    def __str__(self) -> str:
        return gettext("Statistics of %(player)s in %(rules)s") % {
            "player": self.user.get_username(),
            "rules": preset_display_name(self.rules),
        }
