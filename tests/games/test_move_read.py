"""What a move reads (``store.lock_for_move``): on PostgreSQL its own statement
(``games.play.move_read``), elsewhere the ORM's query; both give the same models."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import OperationalError, connection, connections, transaction
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from games.models import Game, PlayerSettings, PreMove, Seat
from games.play import move_read, store

pytestmark = pytest.mark.django_db


def _loaded(instance: Any) -> dict[str, Any]:
    """The fields an instance holds (what it would not read again), by name."""
    deferred = instance.get_deferred_fields()
    return {
        field.attname: getattr(instance, field.attname)
        for field in instance._meta.concrete_fields
        if field.attname not in deferred
    }


def _game_with_a_queued_draw_and_settings(started: Any) -> Game:
    game, users = started(players=3)
    seats = list(game.seats.order_by("position"))
    PreMove.objects.create(game=game, seat=seats[2], unless=["7H"])
    PlayerSettings.objects.create(
        user=users[1],
        email_turns=PlayerSettings.EmailTurns.OFF,
        vacation_until=timezone.now() + timedelta(days=3),
        push_turns=True,
    )
    return game


def test_the_statement_reads_what_the_orm_reads(started, django_assert_num_queries):
    if connection.vendor != "postgresql":
        pytest.skip("the statement is PostgreSQL's")
    game = _game_with_a_queued_draw_and_settings(started)
    with transaction.atomic():
        joined = store.read_joined(game.public_id)
        read = move_read.read_locked(connection, game.public_id)
    assert joined is not None and read is not None
    (game_j, deal_j, seats_j), (game_r, deal_r, seats_r) = joined, read

    assert _loaded(game_r) == _loaded(game_j)
    assert deal_j is not None and deal_r is not None
    # The deal's own copy of its deck is for replays: the move does not read it.
    assert deal_r.get_deferred_fields() == {"deck", "card_ids", "reshuffle_seeds"}
    assert _loaded(deal_r) == {k: v for k, v in _loaded(deal_j).items() if k in _loaded(deal_r)}
    assert [seat.position for seat in seats_r] == [0, 1, 2]
    with django_assert_num_queries(0):
        for seat_j, seat_r in zip(seats_j, seats_r, strict=True):
            assert _loaded(seat_r) == _loaded(seat_j)
            assert seat_r.game is game_r and deal_r.game is game_r
            assert _loaded(seat_r.user) == _loaded(seat_j.user)
            assert _loaded(seat_r.user.profile) == _loaded(seat_j.user.profile)
            assert seat_r.user.profile.user is seat_r.user
            assert Seat.premove.is_cached(seat_r)
            assert hasattr(seat_r, "premove") == hasattr(seat_j, "premove")
            assert hasattr(seat_r.user, "play_settings") == hasattr(seat_j.user, "play_settings")
        assert _loaded(seats_r[2].premove) == _loaded(seats_j[2].premove)
        assert seats_r[2].premove.seat is seats_r[2]
        settings_r = seats_r[1].user.play_settings
        assert _loaded(settings_r) == _loaded(seats_j[1].user.play_settings)
        assert settings_r.push_turns is True
        assert settings_r.email_turns == PlayerSettings.EmailTurns.OFF


@pytest.mark.django_db(transaction=True)
def test_the_statement_locks_the_game_row(started):
    if connection.vendor != "postgresql":
        pytest.skip("the statement is PostgreSQL's")
    game, _users = started(players=2)
    other = connections.create_connection("default")
    try:
        with transaction.atomic():
            move_read.read_locked(connection, game.pk)
            with other.cursor() as cursor, pytest.raises(OperationalError, match="lock"):
                cursor.execute(
                    "SELECT 1 FROM games_game WHERE id = %s FOR UPDATE NOWAIT", [game.pk]
                )
    finally:
        other.close()


@pytest.mark.django_db(transaction=True)
def test_the_statement_is_refused_outside_a_transaction(started):
    if connection.vendor != "postgresql":
        pytest.skip("the statement is PostgreSQL's")
    game, _users = started(players=2)
    with pytest.raises(TransactionManagementError, match="transaction"):
        move_read.read_locked(connection, game.pk)


def test_a_game_without_a_first_seat_is_left_to_the_other_read(started):
    if connection.vendor != "postgresql":
        pytest.skip("the statement is PostgreSQL's")
    game, _users = started(players=2)
    with transaction.atomic():
        assert move_read.read_locked(connection, "no-such-game") is None
        locked, row, seats = store.lock_for_move(game.public_id)
    assert locked.pk == game.pk and row is not None and len(seats) == 2
