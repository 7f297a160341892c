"""Push services that accept the connection and never answer hold up nothing else:
pushes have their own Celery queue and worker, so on real workers (through Redis,
not eager) a bots' game keeps moving and a deadline is applied within seconds while
every push worker process hangs on a silent push service."""

from __future__ import annotations

import secrets
import subprocess
import sys
from collections.abc import Callable, Iterator
from datetime import timedelta
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from django.test import override_settings
from django.utils import timezone

from games import tasks
from games.models import Game, Move
from games.play.create import game_create
from games.play.lobby import game_start
from remi_site.celery import app as celery_app
from tests.games.push_kit import browser_keys, silent_listener
from tests.live.worker_kit import ROOT, Worker, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

# Longer than the whole test: a push that is waiting stays waiting.
HANG_S = "600"


class PushWorker(Worker):
    """``celery -A remi_site worker -Q push``, as the embedded run command starts it."""

    def start(self) -> None:
        log = open(Path(self.var_dir) / "worker.log", "ab")  # noqa: SIM115
        self.process = subprocess.Popen(
            [
                *(sys.executable, "-m", "celery", "-A", "remi_site", "worker"),
                *("-Q", "push", "-c", "2", "--without-gossip", "--without-mingle"),
                *("-n", "push@%h", "-l", "WARNING"),
            ],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def through_redis(worker: Worker) -> Worker:
    worker.env.update(
        CELERY_TASK_ALWAYS_EAGER="false",
        PUSH_ALLOW_LOCAL_ENDPOINTS="true",
        PUSH_TIMEOUT_S=HANG_S,
        PUSH_NOTICE_BUDGET_S=HANG_S,
    )
    return worker


@pytest.fixture
def workers() -> Iterator[tuple[Worker, Worker]]:
    """The main worker (with beat) and the push worker; this test's tasks go through
    Redis too."""
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    main, pushes = through_redis(Worker()), through_redis(PushWorker())
    try:
        yield main, pushes
    finally:
        pushes.kill()
        main.kill()
        celery_app.conf.task_always_eager = eager
        with celery_app.connection_for_write() as connection:
            connection.default_channel.queue_purge("push")  # the pushes never sent


def test_pushes_that_never_get_an_answer_delay_no_bot_move_and_no_deadline(
    user_factory: Callable[..., Any],
    client_for: Callable[[Any], Any],
    started_game: Callable[..., Game],
    workers: tuple[Worker, Worker],
) -> None:
    main, pushes = workers
    with silent_listener() as (port, accepted):
        # A player with ten browsers, every one on a push service that never answers.
        player = user_factory()
        client = client_for(player)
        with override_settings(PUSH_ALLOW_LOCAL_ENDPOINTS=True):
            for number in range(10):
                subscription = {
                    "endpoint": f"http://127.0.0.1:{port}/push/{number}",
                    "keys": browser_keys(),
                }
                created = client.post("/api/v1/me/push-subscriptions", subscription, format="json")
                assert created.status_code == 201, created.json()
        settings_patch = client.patch(
            "/api/v1/me/notifications", {"push_challenges": True}, format="json"
        )
        assert settings_patch.status_code == 200
        pushes.start()
        main.start()
        run = secrets.token_hex(4)  # a challenge is told once: new ids each run
        for number in range(20):  # twenty challenges, each a push to ten silent browsers
            tasks.challenge_notice.delay(player.pk, "Jova", "/play/", "", f"{run}-{number}")
        # Pushes are now waiting on the silent push service.
        wait_for(lambda: len(accepted) >= 1, 60, pushes)

        bots = [user_factory(is_bot=True, bot_level=1) for _ in range(4)]
        game = game_create(
            owner=bots[0], preset="polish51", players=4, bots=bots[1:], days_per_move=1
        )
        game_start(game=game, user=bots[0])
        overdue = started_game(2, days_per_move=1)
        Game.objects.filter(pk=overdue.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))

        wait_for(lambda: Game.objects.get(pk=game.pk).ply >= 12, 120, main)
        wait_for(lambda: Game.objects.get(pk=overdue.pk).ply > overdue.ply, 60, main)
        still_waiting = len(accepted)

    assert still_waiting >= 2, pushes.log()  # both push worker processes held
    times = list(
        Move.objects.filter(game=game).order_by("ply").values_list("created_at", flat=True)
    )
    gaps = [(later - earlier).total_seconds() for earlier, later in pairwise(times)]
    assert max(gaps) < 15, gaps  # a push held for HANG_S would show here
