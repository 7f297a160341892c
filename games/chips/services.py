"""Every write of play chips.

A movement is a ledger row and the account's new balance, written together with the
account row locked (``SELECT ... FOR UPDATE``); a balance never goes below zero (a
check constraint says so too). Accounts are locked in user id order, after the game
row when a game is involved, so that two transactions never wait on each other in a
circle. The ledger's unique constraints make each movement happen once, whatever
retries or a second worker do.

The amounts are settings: ``CHIPS_STARTING_GRANT`` (a new account's chips) and
``CHIPS_DAILY_TOP_UP`` (added to every active account once a day, UTC, by the beat's
``games.tasks.chips_top_up``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine.pot import PotSplit, split_pot
from games.errors import Conflict, InvalidRequest
from games.models import ChipAccount, ChipLedger, Game, Seat

# The largest stake a game may ask of each player.
MAX_STAKE = 100_000
# Accounts topped up per transaction by the daily top-up.
TOP_UP_BATCH = 500

Kind = ChipLedger.Kind


def starting_grant() -> int:
    return int(settings.CHIPS_STARTING_GRANT)


def daily_top_up() -> int:
    return int(settings.CHIPS_DAILY_TOP_UP)


# ------------------------------------------------------------------ accounts


def account_open(*, user: User, today: date | None = None) -> ChipAccount:
    """The user's chip account; a new one opens with the starting grant (which stands
    for the day's top-up too). Idempotent: of two transactions opening one account,
    the second finds the first's."""
    found = ChipAccount.objects.filter(user=user).first()
    if found is not None:
        return found
    grant = starting_grant()
    try:
        with transaction.atomic():
            account = ChipAccount.objects.create(
                user=user, balance=grant, topped_up_on=today or timezone.now().date()
            )
            if grant:
                ChipLedger.objects.create(
                    account=account, kind=Kind.GRANT, amount=grant, balance_after=grant
                )
    except IntegrityError:
        return ChipAccount.objects.get(user=user)
    return account


def _accounts_locked(users: Iterable[User]) -> dict[int, ChipAccount]:
    """The users' accounts (opened if missing) by user id, locked in user id order."""
    people = {user.pk: user for user in users}
    opened = set(ChipAccount.objects.filter(user_id__in=people).values_list("user_id", flat=True))
    for user_id, user in people.items():
        if user_id not in opened:
            account_open(user=user)
    locked = ChipAccount.objects.select_for_update().filter(user_id__in=people).order_by("user_id")
    return {account.user_id: account for account in locked}


def _move(
    account: ChipAccount,
    *,
    kind: str,
    amount: int,
    game: Game | None = None,
    day: date | None = None,
) -> ChipLedger:
    """Add ``amount`` (signed) to the locked ``account`` and log it."""
    balance = account.balance + amount
    if balance < 0:
        raise Conflict(
            ngettext(
                "%(user)s has %(balance)s chip, %(value)s are needed",
                "%(user)s has %(balance)s chips, %(value)s are needed",
                account.balance,
            )
            % {"user": account.user, "balance": account.balance, "value": -amount},
            code="insufficient_chips",
            details={"balance": account.balance, "needed": -amount},
        )
    account.balance = balance
    account.save(update_fields=["balance"])
    return ChipLedger.objects.create(
        account=account, kind=kind, amount=amount, balance_after=balance, game=game, day=day
    )


# ------------------------------------------------------------------ a game's stakes


def stake_check(stake: int) -> int:
    """``stake`` if a game may ask it of each player, else ``InvalidRequest``."""
    if isinstance(stake, bool) or not isinstance(stake, int) or not 0 <= stake <= MAX_STAKE:
        raise InvalidRequest(
            _("the stake must be a whole number of chips from 0 to %(max_stake)s")
            % {"max_stake": MAX_STAKE},
            code="invalid_stake",
        )
    return stake


def stake_affordable(*, users: Sequence[User], stake: int) -> None:
    """``Conflict`` (``insufficient_chips``) naming the first of ``users`` whose balance
    cannot cover ``stake``: checked when a seat is taken, so that a game in the lobby
    is not held up by a player who could never pay. (The stakes are only taken when
    the game starts: a balance may have been spent by then, and is checked again.)"""
    if not stake:
        return
    for user in users:
        account = account_open(user=user)
        if account.balance < stake:
            raise Conflict(
                ngettext(
                    "%(value)s has %(balance)s chip: not enough for the stake of %(stake)s",
                    "%(value)s has %(balance)s chips: not enough for the stake of %(stake)s",
                    account.balance,
                )
                % {"value": user.get_username(), "balance": account.balance, "stake": stake},
                code="insufficient_chips",
                details={"username": user.get_username(), "balance": account.balance},
            )


def stakes_take(*, game: Game, seats: Sequence[Seat]) -> int:
    """Every seat puts the stake into the pot (the game is starting). Returns the pot.
    ``Conflict`` (``insufficient_chips``, with the seat) if a balance falls short: the
    caller's transaction then undoes the stakes already taken.

    The caller holds the game's row lock."""
    if not game.stake:
        return 0
    accounts = _accounts_locked(seat.user for seat in seats)
    for seat in seats:
        account = accounts[seat.user_id]
        if account.balance < game.stake:
            raise Conflict(
                _("%(value)s has %(balance)s chips: not enough for the stake of %(stake)s")
                % {
                    "value": seat.user.get_username(),
                    "balance": account.balance,
                    "stake": game.stake,
                },
                code="insufficient_chips",
                details={"seat": seat.position, "balance": account.balance},
            )
        _move(account, kind=Kind.STAKE, amount=-game.stake, game=game)
    return game.stake * len(seats)


def _staked(game: Game) -> dict[int, int]:
    """What each user put into the game's pot, by user id."""
    rows = ChipLedger.objects.filter(game=game, kind=Kind.STAKE).values_list(
        "account__user_id", "amount"
    )
    return {user_id: -amount for user_id, amount in rows}


def pot_settle(*, game: Game, seats: Sequence[Seat]) -> PotSplit | None:
    """The game has ended with ``game.winners``: split its pot by the seats' totals
    (``games.engine.pot``: the winners at least 75 %, the others below 50 points the
    rest, by how far below). A seat that is out shares nothing. None when there was
    no pot. A game that ended without a winner gives the stakes back.

    The caller holds the game's row lock."""
    if not game.stake:
        return None
    pot = sum(_staked(game).values())
    if not pot:
        return None
    if not game.winners:
        stakes_refund(game=game)
        return None
    split = split_pot(
        pot,
        [seat.total for seat in seats],
        game.winners,
        in_game=[seat.status != Seat.Status.OUT for seat in seats],
    )
    accounts = _accounts_locked(seat.user for seat in seats)
    for seat, chips in zip(seats, split.payouts, strict=True):
        if chips:
            _move(accounts[seat.user_id], kind=Kind.PAYOUT, amount=chips, game=game)
    return split


def stakes_refund(*, game: Game) -> int:
    """Give every stake of the game back (it was aborted). Returns the chips refunded;
    a game whose stakes were never taken, or were refunded already, refunds nothing.

    The caller holds the game's row lock."""
    if not game.stake:
        return 0
    if ChipLedger.objects.filter(game=game, kind__in=[Kind.REFUND, Kind.PAYOUT]).exists():
        return 0
    staked = _staked(game)
    if not staked:
        return 0
    users = User.objects.filter(pk__in=staked)
    accounts = _accounts_locked(users)
    for user_id, chips in sorted(staked.items()):
        _move(accounts[user_id], kind=Kind.REFUND, amount=chips, game=game)
    return sum(staked.values())


# ------------------------------------------------------------------ the daily top-up


def top_up_daily(*, day: date, batch: int = TOP_UP_BATCH) -> int:
    """Add the daily top-up to every active person's account not yet topped up on
    ``day``; people without an account get one (the starting grant stands for the
    day's top-up). Returns the accounts topped up.

    Idempotent per day: an account's ``topped_up_on`` is its claim on the day, taken
    under its row lock, and the ledger holds one top-up per account and day. Accounts
    another transaction holds locked are skipped; the next run (beat runs this hourly)
    tops them up. One transaction per ``batch`` accounts."""
    for user in User.objects.filter(is_active=True, chip_account__isnull=True).iterator():
        account_open(user=user, today=day)
    amount = daily_top_up()
    if amount <= 0:
        return 0
    paid = 0
    due = Q(topped_up_on__isnull=True) | Q(topped_up_on__lt=day)
    while True:
        with transaction.atomic():
            accounts = list(
                ChipAccount.objects.select_for_update(skip_locked=True, of=("self",))
                .filter(due, user__is_active=True)
                .order_by("pk")[:batch]
            )
            if not accounts:
                return paid
            rows = []
            for account in accounts:
                account.balance += amount
                account.topped_up_on = day
                rows.append(
                    ChipLedger(
                        account=account,
                        kind=Kind.TOP_UP,
                        amount=amount,
                        balance_after=account.balance,
                        day=day,
                    )
                )
            ChipAccount.objects.bulk_update(accounts, ["balance", "topped_up_on"])
            ChipLedger.objects.bulk_create(rows)
        paid += len(accounts)
