"""Reads of play chips: balances, an account's ledger, a game's pot."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as AuthUser
from django.db.models import QuerySet

from games.chips.services import MAX_STAKE, daily_top_up, starting_grant
from games.models import ChipAccount, ChipLedger, Game, Seat

User = AuthUser | AnonymousUser


def chips_of(*, user: User) -> dict[str, Any]:
    """A person's balance (null before their account opens: it opens with their first
    game, or with the next daily top-up) and the site's amounts."""
    account = ChipAccount.objects.filter(user_id=user.pk).first() if user.is_authenticated else None
    return {
        "balance": None if account is None else account.balance,
        "topped_up_on": None if account is None else account.topped_up_on,
        "starting_grant": starting_grant(),
        "daily_top_up": daily_top_up(),
        "max_stake": MAX_STAKE,
    }


def balance_of(*, user: Any) -> int | None:
    """The balance of ``user``'s account; None before it opens."""
    return ChipAccount.objects.filter(user_id=user.pk).values_list("balance", flat=True).first()


def ledger_of(*, user: AuthUser) -> QuerySet[ChipLedger]:
    """The user's chip movements, newest first."""
    return (
        ChipLedger.objects.filter(account__user_id=user.pk).select_related("game").order_by("-id")
    )


def ledger_entry(row: ChipLedger) -> dict[str, Any]:
    return {
        "id": row.pk,
        "kind": row.kind,
        "amount": row.amount,
        "balance_after": row.balance_after,
        "game": row.game.public_id if row.game is not None else None,
        "day": row.day,
        "created_at": row.created_at,
    }


def game_chips(*, game: Game, seats: Sequence[Seat]) -> dict[str, Any]:
    """A game's stake and pot as everyone at the table sees them: the chips in the pot
    (0 until the stakes are taken at the start), what each seat received when the game
    ended, whether an abort gave the stakes back, and each seat's balance. A game
    without a stake costs no query."""
    if not game.stake:
        return {"stake": 0, "pot": 0, "payouts": None, "refunded": False, "balances": None}
    position = {seat.user_id: seat.position for seat in seats}
    pot = 0
    payouts = [0] * len(seats)
    refunded = False
    rows = ChipLedger.objects.filter(game=game).values_list("account__user_id", "kind", "amount")
    for user_id, kind, amount in rows:
        if kind == ChipLedger.Kind.STAKE:
            pot -= amount
        elif kind == ChipLedger.Kind.PAYOUT and user_id in position:
            payouts[position[user_id]] += amount
        elif kind == ChipLedger.Kind.REFUND:
            refunded = True
    balances = dict(
        ChipAccount.objects.filter(user_id__in=position).values_list("user_id", "balance")
    )
    return {
        "stake": game.stake,
        "pot": pot,
        "payouts": payouts if game.status == Game.Status.FINISHED and pot else None,
        "refunded": refunded,
        "balances": [balances.get(seat.user_id) for seat in seats],
    }
