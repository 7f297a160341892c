"""The chip ledger: every movement is a row, rows are never changed, the balances
always add up to what was granted, and the daily top-up pays once a day."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import DatabaseError, connection, transaction
from django.db.models import Sum
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import tasks
from games.chips import services as chips
from games.engine import parse_action
from games.errors import Conflict
from games.models import ChipAccount, ChipLedger, Game, Seat
from games.play import shuffle
from games.play.act import game_act
from games.play.create import game_create
from games.play.lobby import game_abort, game_join, game_start
from games.play.resign import game_resign
from games.read.replay import game_replay
from tests.chipkit import normal_close_decks, normal_close_turns
from tests.gamekit import current_engine_deal, scripted_deal_source

pytestmark = pytest.mark.django_db

DAY = date(2031, 5, 1)
GRANTS = [ChipLedger.Kind.GRANT, ChipLedger.Kind.TOP_UP]


@contextmanager
def rolled_back() -> Iterator[None]:
    """Run a hypothesis example in a savepoint that is undone after it."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


def granted() -> int:
    return ChipLedger.objects.filter(kind__in=GRANTS).aggregate(s=Sum("amount"))["s"] or 0


def balances() -> int:
    return ChipAccount.objects.aggregate(s=Sum("balance"))["s"] or 0


def in_pots() -> int:
    """Chips staked into games still being played."""
    running = ChipLedger.objects.filter(game__status=Game.Status.ACTIVE)
    return -(running.aggregate(s=Sum("amount"))["s"] or 0)


def assert_the_books_balance() -> None:
    # Each account's balance is the sum of its ledger, and its last row says so too.
    for account in ChipAccount.objects.all():
        rows = ChipLedger.objects.filter(account=account).order_by("id")
        assert account.balance == sum(row.amount for row in rows) >= 0
        last = rows.last()
        assert last is None or last.balance_after == account.balance
    # No chip is made or lost: what was granted is in the balances or in running pots.
    assert balances() + in_pots() == granted()
    # Every finished pot was paid out whole, every aborted one given back whole.
    for game in Game.objects.filter(stake__gt=0).exclude(status=Game.Status.ACTIVE):
        movements = ChipLedger.objects.filter(game=game)
        assert movements.aggregate(s=Sum("amount"))["s"] in (0, None), game.status


def play_to_the_end(game: Game, by_seat: list[Any]) -> None:
    """The round of ``chipkit``'s deal: the starter goes out in their second turn."""
    starter = current_engine_deal(game).to_move
    for offset, text in normal_close_turns(game.players):
        game.refresh_from_db()
        user = by_seat[(starter + offset) % game.players]
        game_act(game=game, user=user, action=parse_action(text), expected_ply=game.ply)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winners == [starter]


def play_game(users: list[Any], players: int, stake: int, ending: str, rng: random.Random) -> None:
    seated = rng.sample(users, players)
    try:
        game = game_create(owner=seated[0], preset="polish51", players=players, stake=stake)
        for user in seated[1:]:
            game_join(game=game, user=user)
        game_start(game=game, user=seated[0])
    except Conflict as error:
        assert error.code == "insufficient_chips"
        return
    game.refresh_from_db()
    by_seat = [seat.user for seat in Seat.objects.filter(game=game).order_by("position")]
    if ending == "abort":
        game_abort(game=game)
    elif ending == "resign":
        for user in by_seat[: players - 1]:
            game.refresh_from_db()
            if game.status == Game.Status.ACTIVE:
                game_resign(game=game, user=user)
    elif ending == "play":
        play_to_the_end(game, by_seat)
    # "running": the stakes stay in the pot


games_ = st.tuples(
    st.just("game"),
    st.integers(2, 4),
    st.integers(0, 700),
    st.sampled_from(["abort", "resign", "play", "running"]),
)
top_ups = st.tuples(st.just("top_up"), st.integers(0, 3))


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(st.one_of(games_, top_ups), min_size=1, max_size=6), seed=st.integers())
def test_after_any_games_the_balances_add_up_to_the_grants(
    steps: list[tuple[Any, ...]],
    seed: int,
    user_factory: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(shuffle, "deal_source", scripted_deal_source(normal_close_decks(seed)))
    rng = random.Random(seed)
    with rolled_back():
        users = [user_factory() for _ in range(5)]
        for step in steps:
            if step[0] == "top_up":
                chips.top_up_daily(day=DAY + timedelta(days=step[1]))
            else:
                _, players, stake, ending = step
                play_game(users, players, stake, ending, rng)
            assert_the_books_balance()
        # Once no game is running, every chip granted is in a balance.
        for game in Game.objects.filter(status=Game.Status.ACTIVE):
            game_abort(game=game)
        assert in_pots() == 0
        assert balances() == granted()


def test_players_who_resigned_share_nothing_of_the_pot(started):
    game, users = started(players=3, preset="polish51", stake=120)
    game_resign(game=game, user=users[0])
    game_resign(game=game, user=users[1])

    game.refresh_from_db()
    assert game.winners == [2]
    rows = ChipLedger.objects.filter(game=game, kind=ChipLedger.Kind.PAYOUT)
    assert [(row.account.user, row.amount) for row in rows] == [(users[2], 360)]
    assert_the_books_balance()


def test_the_ledger_refuses_to_change_or_delete_a_row(user_factory):
    row = ChipLedger.objects.get(account__user=user_factory(), kind=ChipLedger.Kind.GRANT)

    with pytest.raises(ValueError, match="append-only"):
        row.save()
    with pytest.raises(ValueError, match="append-only"):
        row.delete()
    if connection.vendor != "postgresql":
        return
    # The database refuses too, whatever the code does.
    for statement in (
        "UPDATE games_chipledger SET amount = amount + 1 WHERE id = %s",
        "DELETE FROM games_chipledger WHERE id = %s",
    ):
        with (
            pytest.raises(DatabaseError, match="append-only"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(statement, [row.pk])
    assert ChipLedger.objects.filter(pk=row.pk, amount=row.amount).exists()


def test_the_daily_top_up_pays_once_a_day(user_factory, settings):
    people = [user_factory() for _ in range(3)]
    before = {p.pk: p.chip_account.balance for p in people}

    assert chips.top_up_daily(day=DAY) == 3
    assert chips.top_up_daily(day=DAY) == 0  # the same day again: nothing
    assert chips.top_up_daily(day=DAY + timedelta(days=1)) == 3

    for person in people:
        account = ChipAccount.objects.get(user=person)
        assert account.balance == before[person.pk] + 2 * settings.CHIPS_DAILY_TOP_UP
        assert account.topped_up_on == DAY + timedelta(days=1)
    assert_the_books_balance()


def test_the_beat_runs_the_top_up_hourly_and_it_pays_today_once(
    user_factory, settings, monkeypatch
):
    assert settings.CELERY_BEAT_SCHEDULE["chips-top-up"] == {
        "task": "games.tasks.chips_top_up",
        "schedule": 3600.0,
    }
    people = [user_factory() for _ in range(2)]
    # An account opened today has today's top-up in its starting grant.
    assert tasks.chips_top_up() == 0

    tomorrow = timezone.now() + timedelta(days=1)
    monkeypatch.setattr(timezone, "now", lambda: tomorrow)

    assert tasks.chips_top_up() == 2
    assert tasks.chips_top_up() == 0
    assert {a.topped_up_on for a in ChipAccount.objects.filter(user__in=people)} == {
        tomorrow.date()
    }


def test_a_person_without_an_account_gets_one_with_the_top_up(settings):
    # As if made before chips existed: a bulk insert sends no signal, opens no account.
    (person,) = User.objects.bulk_create([User(username="old-timer")])

    chips.top_up_daily(day=DAY)

    account = ChipAccount.objects.get(user__username="old-timer")
    assert account.balance == settings.CHIPS_STARTING_GRANT and account.topped_up_on == DAY
    assert_the_books_balance()


def test_the_top_up_leaves_deleted_accounts_alone(user_factory):
    person = user_factory()
    person.is_active = False
    person.save()

    assert chips.top_up_daily(day=DAY) == 0


def test_amounts_are_settings(user_factory, settings):
    settings.CHIPS_STARTING_GRANT = 50
    settings.CHIPS_DAILY_TOP_UP = 7
    person = user_factory()

    chips.top_up_daily(day=DAY)

    assert ChipAccount.objects.get(user=person).balance == 57


def test_the_seating_draw_is_checked_by_the_replay(started):
    game, _ = started(players=3, preset="polish51")
    assert game_replay(game).ok

    game.seating_draw = {**game.seating_draw, "seats": list(reversed(game.seating_draw["seats"]))}

    assert any("seating draw" in problem for problem in game_replay(game).problems)
