"""What a move reads (``store.lock_for_move``): on PostgreSQL its own statement
(``games.play.move_read``), elsewhere the ORM's query; both give the same models."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import OperationalError, connection, connections, transaction
from django.db.models.signals import post_init
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from games.engine import DrawStock
from games.models import Deal, Game, PlayerSettings, PreMove, Seat
from games.play import move_read, store
from games.play.act import game_act
from tests.gamekit import greedy_action

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


def test_the_instances_are_loaded_rows_without_their_left_out_fields(started):
    if connection.vendor != "postgresql":
        pytest.skip("the statement is PostgreSQL's")
    game = _game_with_a_queued_draw_and_settings(started)
    with transaction.atomic():
        locked, deal, seats = move_read.read_locked(connection, game.public_id)
    assert deal is not None
    for instance in (locked, deal, *seats, *(seat.user for seat in seats)):
        assert instance._state.adding is False and instance._state.db == "default"
    # Left out: deferred, read on demand as ``from_db`` leaves them.
    assert "deck" in deal.get_deferred_fields()
    assert deal.deck == Deal.objects.get(pk=deal.pk).deck
    # A foreign key set on a loaded row behaves as on any other.
    seat = seats[0]
    seat.user_id = seats[1].user_id
    assert seat.user == seats[1].user


def test_a_model_with_an_init_signal_receiver_is_made_through_its_init(started, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("the statement is PostgreSQL's")
    game, _users = started(players=2)
    seen: list[Any] = []

    def receiver(sender: Any, instance: Any, **kwargs: Any) -> None:
        seen.append(instance)

    post_init.connect(receiver, sender=Game)
    monkeypatch.setattr(move_read, "_statements", {})  # built again, with the receiver
    try:
        with transaction.atomic():
            locked, _deal, _seats = move_read.read_locked(connection, game.pk)
    finally:
        post_init.disconnect(receiver, sender=Game)
    assert seen == [locked]


def _to_move(game: Game) -> tuple[Any, Any]:
    row = Deal.objects.get(game=game, number=game.deal_number)
    deal = row.restore(game.engine_ruleset())
    return deal, DrawStock() if not deal.drawn else greedy_action(deal)


def test_the_next_move_takes_the_engine_deal_its_snapshot_was_saved_from(started):
    if connection.vendor != "postgresql":
        pytest.skip("the statement is PostgreSQL's")
    game, users = started(players=2, preset="serbian")
    deal, action = _to_move(game)
    game_act(game=game.public_id, user=users[deal.to_move], action=action, expected_ply=game.ply)
    game.refresh_from_db()
    with transaction.atomic():
        locked, row, _seats = store.lock_for_move(game.public_id)
        assert row is not None
        restored = store.restore(locked, row)
        assert restored is store._SAVED_DEALS[row.pk][1]
        assert restored.to_dict(with_ruleset=False) == row.state
        # Its state replaced: built from it.
        row.state = dict(row.state)
        assert store.restore(locked, row) is not restored


def test_a_snapshot_saved_elsewhere_is_built_from_its_text(started):
    if connection.vendor != "postgresql":
        pytest.skip("the statement is PostgreSQL's")
    game, users = started(players=2, preset="serbian")
    deal, action = _to_move(game)
    game_act(game=game.public_id, user=users[deal.to_move], action=action, expected_ply=game.ply)
    row = Deal.objects.get(game=game, number=game.deal_number)
    saved = store._SAVED_DEALS[row.pk][1]
    # Another process saved the next snapshot (written here past this process's store).
    after = saved.apply(saved.legal_actions()[0])
    Deal.objects.filter(pk=row.pk).update(state=after.to_dict(with_ruleset=False))
    with transaction.atomic():
        locked, read, _seats = store.lock_for_move(game.public_id)
        assert read is not None
        restored = store.restore(locked, read)
    assert restored is not saved and restored is not after
    assert restored.to_dict() == after.to_dict()
    # (The snapshot as the move log has it, for the replay every test's games pass.)
    Deal.objects.filter(pk=row.pk).update(state=saved.to_dict(with_ruleset=False))


def test_a_rolled_back_move_leaves_no_deal_taken_for_the_stored_one(started):
    if connection.vendor != "postgresql":
        pytest.skip("the statement is PostgreSQL's")
    game, users = started(players=2, preset="serbian")
    deal, action = _to_move(game)

    class RolledBack(Exception):
        pass

    with pytest.raises(RolledBack), transaction.atomic():
        game_act(game=game.public_id, user=users[deal.to_move], action=action, expected_ply=0)
        raise RolledBack
    with transaction.atomic():
        locked, row, _seats = store.lock_for_move(game.public_id)
        assert row is not None
        restored = store.restore(locked, row)
    assert restored.to_dict() == deal.to_dict()
