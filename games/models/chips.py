"""Play chips: balances and the append-only ledger."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q

# Public ids and invite codes: lowercase letters and digits without look-alikes.
from games.models.play import Game


class ChipAccount(models.Model):
    """A person's play chips. The balance is the sum of the account's ledger rows, kept
    here so that it is read without adding them up: ``games.chips`` writes the row and
    the balance in one transaction, with the account row locked."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chip_account"
    )
    balance = models.BigIntegerField(default=0)
    # The last day (UTC) the daily top-up was paid: the account's claim on the day.
    topped_up_on = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(balance__gte=0), name="chip_account_balance_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"chips of {self.user_id}: {self.balance}"


class ChipLedger(models.Model):
    """One movement of chips into or out of an account. Append-only: rows are only ever
    inserted (on PostgreSQL a trigger refuses UPDATE and DELETE). The unique
    constraints make each movement happen once: one starting grant, one top-up a day,
    one stake, payout and refund per game."""

    class Kind(models.TextChoices):
        GRANT = "grant"  # the starting grant, when the account opens
        TOP_UP = "top_up"  # the daily top-up
        STAKE = "stake"  # into a game's pot when it starts (negative)
        PAYOUT = "payout"  # a share of the pot when the game ends
        REFUND = "refund"  # the stake back when a started game is aborted

    # The (account, -id) index below serves the reads by account.
    account = models.ForeignKey(
        ChipAccount, on_delete=models.PROTECT, related_name="ledger", db_index=False
    )
    kind = models.CharField(max_length=8, choices=Kind.choices)
    amount = models.BigIntegerField()  # signed: what the movement added to the balance
    balance_after = models.BigIntegerField()
    game = models.ForeignKey(
        Game, on_delete=models.PROTECT, null=True, blank=True, related_name="chip_movements"
    )
    day = models.DateField(null=True, blank=True)  # the top-up's day
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
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
        return f"{self.kind} {self.amount:+} to {self.account_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ValueError("the chip ledger is append-only: a row is never changed")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        raise ValueError("the chip ledger is append-only: a row is never deleted")
