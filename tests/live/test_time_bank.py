"""A live turn with a time bank times out only once the bank is used up, and exactly
once: by the eager sweep, and by a real worker."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta

import pytest
from django.db.models import F
from django.utils import timezone

from games import tasks
from games.live import presence, publisher
from games.models import AbsentWait, Game, Move, Seat
from games.play import timeouts
from games.read.selectors import current_deal
from tests.live.worker_kit import Worker, later_sweeps_ran, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def to_move(game: Game) -> Seat:
    game.refresh_from_db()
    deal = current_deal(game)
    assert deal is not None
    return game.seats.get(position=deal.to_move)


def age_turn(game: Game, seconds: float) -> None:
    by = timedelta(seconds=seconds)
    Game.objects.filter(pk=game.pk).update(
        turn_started_at=F("turn_started_at") - by, deadline_at=F("deadline_at") - by
    )
    game.refresh_from_db()


@pytest.fixture
def everyone_connected() -> Iterator[Callable[[Game], None]]:
    """``connect(game)``: every player of ``game`` is at the table (presence)."""
    marked: list[tuple[int, str]] = []

    def connect(game: Game) -> None:
        for user_id in game.seats.values_list("user_id", flat=True):
            presence.presence_touch(user_id=user_id, channel="bank", games=[game.public_id])
            marked.append((user_id, game.public_id))

    yield connect
    for user_id, game_id in marked:
        presence.presence_drop(user_id=user_id, channel="bank", games=[game_id])


def test_the_sweep_waits_for_the_bank_then_times_out_once(
    started_game: Callable[..., Game], everyone_connected: Callable[[Game], None]
) -> None:
    game = started_game(2, time_control="live", seconds_per_turn=30, time_bank_s=30)
    everyone_connected(game)
    seat = to_move(game)
    ply = game.ply

    age_turn(game, 45)  # past the turn's own 30 s, 15 s into the bank
    assert tasks.sweep_deadlines() == 0
    assert Game.objects.get(pk=game.pk).ply == ply

    age_turn(game, 16)  # the bank is used up
    assert tasks.sweep_deadlines() == 1
    assert tasks.sweep_deadlines() == 0
    assert timeouts.timeout_apply(game_pk=game.pk, ply=ply) is None

    seat.refresh_from_db()
    assert seat.strikes == 1 and seat.time_bank_used_ms == 30_000
    game.refresh_from_db()
    assert Move.objects.filter(game=game, user=None).count() == game.ply - ply
    # The other player's turn comes with their own whole bank.
    assert to_move(game).pk != seat.pk
    assert game.deadline_at - game.turn_started_at == timedelta(seconds=60)


def test_an_absent_player_is_waited_for_only_after_their_bank(
    started_game: Callable[..., Game],
) -> None:
    game = started_game(2, time_control="live", seconds_per_turn=30, time_bank_s=60)
    ply = game.ply
    age_turn(game, 80)  # in the bank: not overdue
    assert tasks.sweep_deadlines() == 0
    assert not AbsentWait.objects.filter(game=game).exists()
    age_turn(game, 11)
    assert timeouts.timeout_apply(game_pk=game.pk, ply=ply) == "waiting"
    assert AbsentWait.objects.get(game=game, ply=ply).stage == "waiting"


@pytest.mark.slow
def test_a_real_worker_times_out_a_turn_once_after_the_bank(
    started_game: Callable[..., Game], everyone_connected: Callable[[Game], None]
) -> None:
    game = started_game(2, time_control="live", seconds_per_turn=10, time_bank_s=3)
    everyone_connected(game)
    seat = to_move(game)
    start_ply = game.ply
    assert game.deadline_at is not None
    deadline = game.deadline_at
    assert deadline - game.turn_started_at == timedelta(seconds=13)

    worker = Worker()
    worker.start()
    try:
        wait_for(lambda: Game.objects.get(pk=game.pk).ply > start_ply, 60, worker)
        timed_out_at = timezone.now()
        later_sweeps_ran(started_game, worker)  # none may apply it again
    finally:
        worker.kill()

    assert timed_out_at >= deadline
    game.refresh_from_db()
    server_moves = list(Move.objects.filter(game=game, user=None).order_by("ply"))
    assert len(server_moves) == game.ply - start_ply
    assert all(move.created_at >= deadline for move in server_moves)
    assert [m.kind for m in server_moves][-1] == "discard"
    seat.refresh_from_db()
    assert seat.strikes == 1 and seat.time_bank_used_ms == 3_000
    assert sorted(Seat.objects.filter(game=game).values_list("strikes", flat=True)) == [0, 1]


def test_the_turn_event_carries_the_bank(
    started_game: Callable[..., Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.play.act import game_act
    from tests.gamekit import greedy_action

    game = started_game(2, time_control="live", seconds_per_turn=30, time_bank_s=120)
    sent: list[dict[str, object]] = []
    monkeypatch.setattr(
        publisher,
        "_publish",
        lambda messages, private, live: sent.extend(m for _, m in messages),
    )
    mover = to_move(game)
    deal = current_deal(game)
    assert deal is not None
    game_act(game=game, user=mover.user, action=greedy_action(deal), expected_ply=game.ply)

    turns = [m["event"] for m in sent if m["event"]["type"] == "turn"]  # type: ignore[index]
    assert len(turns) == 1
    turn = turns[0]
    game.refresh_from_db()
    assert turn["seat"] == to_move(game).position
    assert turn["time_bank_remaining_s"] == 120
    assert turn["deadline_at"] == game.deadline_at.isoformat()
    ends = game.turn_started_at + timedelta(seconds=30)
    assert turn["turn_ends_at"] == ends.isoformat()
