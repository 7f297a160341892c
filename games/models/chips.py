"""Play chips: balances and the append-only ledger."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.models.play import Game
from remi_site import formats


class ChipAccount(models.Model):
    """A person's play chips. The balance is the sum of the account's ledger rows, kept
    here so that it is read without adding them up: ``games.chips`` writes the row and
    the balance in one transaction, with the account row locked."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="chip_account",
        verbose_name=_("player"),
    )
    balance = models.BigIntegerField(_("balance"), default=0)
    # The last day (UTC) the daily top-up was paid: the account's claim on the day.
    topped_up_on = models.DateField(
        _("last daily top-up"), null=True, blank=True, help_text=_("The day, in UTC.")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("chip account")
        verbose_name_plural = _("chip accounts")
        constraints = [
            models.CheckConstraint(
                condition=Q(balance__gte=0), name="chip_account_balance_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return gettext("Chips of %(player)s: %(balance)s") % {
            "player": self.user.get_username(),
            "balance": formats.number(self.balance),
        }


class ChipLedger(models.Model):
    """One movement of chips into or out of an account. Append-only: rows are only ever
    inserted (on PostgreSQL a trigger refuses UPDATE and DELETE). The unique
    constraints make each movement happen once: one starting grant, one top-up a day,
    one stake, payout and refund per game."""

    class Kind(models.TextChoices):
        # the starting grant, when the account opens
        GRANT = "grant", pgettext_lazy("chip movement", "Starting grant")
        TOP_UP = "top_up", pgettext_lazy("chip movement", "Daily top-up")
        # into a game's pot when it starts (negative)
        STAKE = "stake", pgettext_lazy("chip movement", "Stake")
        # a share of the pot when the game ends
        PAYOUT = "payout", pgettext_lazy("chip movement", "Winnings")
        # the stake back when a started game is aborted
        REFUND = "refund", pgettext_lazy("chip movement", "Stake back")

    # The (account, -id) index below serves the reads by account.
    account = models.ForeignKey(
        ChipAccount,
        on_delete=models.PROTECT,
        related_name="ledger",
        db_index=False,
        verbose_name=_("chip account"),
    )
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    amount = models.BigIntegerField(
        _("amount"), help_text=_("What the movement added to the balance (negative: took).")
    )
    balance_after = models.BigIntegerField(_("balance after"))
    game = models.ForeignKey(
        Game,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="chip_movements",
        verbose_name=_("game"),
    )
    day = models.DateField(_("day of the top-up"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("chip movement")
        verbose_name_plural = _("chip movements")
        constraints = [
            models.UniqueConstraint(
                fields=["account"], condition=Q(kind="grant"), name="chip_ledger_one_grant"
            ),
            models.UniqueConstraint(
                fields=["account", "day"],
                condition=Q(kind="top_up"),
                name="chip_ledger_one_top_up_a_day",
            ),
            models.UniqueConstraint(
                fields=["account", "game", "kind"],
                condition=Q(game__isnull=False),
                name="chip_ledger_once_per_game",
            ),
            models.CheckConstraint(condition=~Q(amount=0), name="chip_ledger_amount_not_zero"),
        ]
        indexes = [
            # An account's ledger, newest first (the paginated API).
            models.Index(fields=["account", "-id"], name="chip_ledger_account"),
        ]

    def __str__(self) -> str:
        return gettext("%(kind)s for %(player)s: %(amount)s") % {
            "kind": self.get_kind_display(),
            "amount": formats.signed(self.amount),
            "player": self.account.user.get_username(),
        }

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ValueError("the chip ledger is append-only: a row is never changed")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        raise ValueError("the chip ledger is append-only: a row is never deleted")
