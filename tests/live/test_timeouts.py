"""Deadlines: the sweep applies a timeout once, strikes take a seat out, vacation
pauses a correspondence clock, a live table waits for an absent player."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import tasks
from games.models import Game, Move, Seat
from games.play import timeouts, vacation

pytestmark = pytest.mark.django_db(transaction=True)


def overdue(game: Game, by: timedelta = timedelta(seconds=1)) -> Game:
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - by)
    game.refresh_from_db()
    return game


def to_move(game: Game) -> Seat:
    from games.read.selectors import current_deal

    game.refresh_from_db()
    deal = current_deal(game)
    assert deal is not None
    return game.seats.get(position=deal.to_move)


def test_a_passed_deadline_is_applied_exactly_once(started_game: Callable[..., Game]) -> None:
    game = started_game(2, days_per_move=1)
    assert game.deadline_at is not None
    seat = to_move(game)
    ply = overdue(game).ply

    assert tasks.sweep_deadlines() == 1
    assert tasks.sweep_deadlines() == 0  # the new turn's deadline is in the future
    assert timeouts.timeout_apply(game_pk=game.pk, ply=ply) is None  # the old ply is gone

    game.refresh_from_db()
    server_moves = list(Move.objects.filter(game=game, user=None).values_list("kind", flat=True))
    assert server_moves[-1] == "discard"  # the turn was played to its end
    assert game.ply == ply + len(server_moves)
    seat.refresh_from_db()
    assert seat.strikes == 1
    assert to_move(game).pk != seat.pk
    assert game.deadline_at is not None and game.deadline_at > timezone.now()


def test_a_move_by_the_player_resets_the_strikes(started_game: Callable[..., Game]) -> None:
    from games.play.act import game_act
    from games.read.selectors import current_deal
    from tests.gamekit import greedy_action

    game = started_game(2)
    first = to_move(game)
    overdue(game)
    tasks.sweep_deadlines()
    first.refresh_from_db()
    assert first.strikes == 1
    for _ in range(6):  # the other player's turn, then the first one's again
        game.refresh_from_db()
        seat = to_move(game)
        deal = current_deal(game)
        assert deal is not None
        game_act(game=game, user=seat.user, action=greedy_action(deal), expected_ply=game.ply)
        if seat.pk == first.pk:
            break
    first.refresh_from_db()
    assert first.strikes == 0


def test_three_strikes_in_two_player_correspondence_lose_the_game(
    started_game: Callable[..., Game],
) -> None:
    game = started_game(2)
    sleeper = to_move(game)
    for _ in range(3):
        while to_move(game).pk != sleeper.pk:  # the other player times out too, but 1 < 3
            Seat.objects.filter(game=game).exclude(pk=sleeper.pk).update(strikes=0)
            overdue(game)
            tasks.sweep_deadlines()
        overdue(game)
        assert tasks.sweep_deadlines() == 1
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
    game.refresh_from_db()
    sleeper.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.end_reason == "timeout"
    assert game.winners == [1 - sleeper.position]
    assert sleeper.status == Seat.Status.OUT


def test_three_strikes_in_a_three_player_game_take_the_seat_out_and_play_goes_on(
    started_game: Callable[..., Game],
) -> None:
    game = started_game(3)
    sleeper = to_move(game)
    Seat.objects.filter(pk=sleeper.pk).update(strikes=2)
    overdue(game)
    assert tasks.sweep_deadlines() == 1

    game.refresh_from_db()
    sleeper.refresh_from_db()
    assert sleeper.status == Seat.Status.OUT
    assert game.status == Game.Status.ACTIVE
    assert Move.objects.filter(game=game, kind="resign", user=None).count() == 1
    # The server plays the seat's turns from now on: it is never the one to move.
    for _ in range(4):
        assert to_move(game).pk != sleeper.pk
        Seat.objects.filter(game=game).update(strikes=0)
        overdue(game)
        tasks.sweep_deadlines()
    assert to_move(game).pk != sleeper.pk


def test_vacation_pauses_a_correspondence_deadline(started_game: Callable[..., Game]) -> None:
    game = started_game(2, days_per_move=2)
    seat = to_move(game)
    before = game.deadline_at
    assert before is not None

    state = vacation.vacation_start(user=seat.user, days=5)

    game.refresh_from_db()
    assert game.deadline_at == before + timedelta(days=5)
    assert state.days_left == pytest.approx(14 - 5, abs=0.01)
    later = before + timedelta(days=3)  # the old deadline has passed, the paused one not
    assert timeouts.overdue_games(later) == []
    assert timeouts.timeout_apply(game_pk=game.pk, ply=game.ply, now=later) is None

    vacation.vacation_end(user=seat.user)
    game.refresh_from_db()
    assert game.deadline_at is not None
    assert abs(game.deadline_at - before) < timedelta(seconds=5)
    assert vacation.vacation_state(user=seat.user).days_left == pytest.approx(14, abs=0.01)


def test_a_turn_that_comes_during_a_vacation_starts_its_clock_after_it(
    started_game: Callable[..., Game],
) -> None:
    game = started_game(2, days_per_move=1)
    waiting = [s for s in game.seats.all() if s.pk != to_move(game).pk][0]
    vacation.vacation_start(user=waiting.user, days=3)
    overdue(game)
    tasks.sweep_deadlines()  # the other player's turn ends: now it is the vacationer's

    game.refresh_from_db()
    assert to_move(game).pk == waiting.pk
    assert game.deadline_at is not None
    assert game.deadline_at > timezone.now() + timedelta(days=3, hours=23)


def test_a_live_table_waits_for_an_absent_player_then_goes_on_without_them(
    started_game: Callable[..., Game], settings: Any
) -> None:
    settings.LIVE_ABSENT_WAIT_S = 120
    game = started_game(3, time_control="live", seconds_per_turn=30)
    absent = to_move(game)
    ply = overdue(game).ply

    assert timeouts.timeout_apply(game_pk=game.pk, ply=ply) == "waiting"
    game.refresh_from_db()
    assert game.ply == ply
    assert game.deadline_at is not None
    assert game.deadline_at > timezone.now() + timedelta(seconds=100)

    overdue(game)
    assert timeouts.timeout_apply(game_pk=game.pk, ply=ply) == "out"
    absent.refresh_from_db()
    game.refresh_from_db()
    assert absent.status == Seat.Status.OUT
    assert game.status == Game.Status.ACTIVE
    assert to_move(game).pk != absent.pk
