"""A real Celery worker (with its beat) against Redis and the test database."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Move, Seat
from tests.live.worker_kit import Worker, later_sweeps_ran, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.fixture
def worker() -> Iterator[Worker]:
    process = Worker()
    try:
        yield process
    finally:
        process.kill()


def test_a_real_worker_applies_a_deadline_once_and_again_after_a_restart(
    started_game: Callable[..., Game], worker: Worker
) -> None:
    game = started_game(2, days_per_move=1)
    start_ply = game.ply
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))

    worker.start()
    wait_for(lambda: Game.objects.get(pk=game.pk).ply > start_ply, 60, worker)
    later_sweeps_ran(started_game, worker)  # none may apply it again
    game.refresh_from_db()
    assert sorted(Seat.objects.filter(game=game).values_list("strikes", flat=True)) == [0, 1]
    first_timeout_ply = game.ply
    assert Move.objects.filter(game=game, user=None).count() == first_timeout_ply - start_ply

    # Killed while waiting for the next deadline: a new worker still enforces it.
    worker.kill()
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    worker.start()
    wait_for(lambda: Game.objects.get(pk=game.pk).ply > first_timeout_ply, 60, worker)
    later_sweeps_ran(started_game, worker, times=1)
    assert sorted(Seat.objects.filter(game=game).values_list("strikes", flat=True)) == [1, 1]
