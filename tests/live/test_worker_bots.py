"""Four bots play a whole game on a real Celery worker: every bot turn is a task
that goes through Redis (the worker is not eager), and nothing else drives it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from games.models import Game, Move
from games.play.create import game_create
from games.play.lobby import game_start
from remi_site.celery import app as celery_app
from tests.live.worker_kit import Worker, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.fixture
def queued_worker() -> Iterator[Worker]:
    """A real worker whose tasks (and this test's) go through the broker."""
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    worker = Worker()
    worker.env["CELERY_TASK_ALWAYS_EAGER"] = "false"
    try:
        yield worker
    finally:
        worker.kill()
        celery_app.conf.task_always_eager = eager


def test_four_bots_play_a_game_to_the_end_on_a_real_worker(
    user_factory: Callable[..., Any],
    deals_seeded: Callable[[int], None],
    queued_worker: Worker,
) -> None:
    bots = [user_factory(is_bot=True, bot_level=2) for _ in range(4)]
    game = game_create(owner=bots[0], preset="polish51", players=4, bots=bots[1:], days_per_move=1)
    game_start(game=game, user=bots[0])  # the first bot task goes to Redis
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert Move.objects.filter(game=game).count() == 0  # nothing ran here

    queued_worker.start()
    wait_for(lambda: Game.objects.get(pk=game.pk).status != Game.Status.ACTIVE, 240, queued_worker)

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED, queued_worker.log()
    assert game.end_reason == "completed"
    assert game.winners
    assert Move.objects.filter(game=game).count() == game.ply > 10
    assert Move.objects.filter(game=game, user=None).count() == 0  # no timeout needed
    totals = list(game.seats.order_by("position").values_list("total", flat=True))
    assert game.winners == [p for p, total in enumerate(totals) if total == min(totals)]
