"""A bot's pause costs a real worker no time: with one worker process, the bot decides,
keeps its decision, and the worker runs another task while the pause runs; the move
shows when the pause is over (the second task, queued with a countdown)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import tasks
from games.models import BotDecision, Game, Move
from games.play.bot_turns import game_play_now
from remi_site.celery import app as celery_app
from tests.live.worker_kit import Worker, wait_for
from tests.turn_kit import person_draws_and_throws

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

# What must be left of the pause when the test sees the decision kept.
WINDOW = timedelta(seconds=1.5)


@pytest.fixture
def paused_worker() -> Iterator[Worker]:
    """One worker process, no beat, every task through Redis. Its shortest pause is 2 s;
    here (the tests' settings) it is 0, so the bot's task for a move made here is queued
    at once and keeps its decision for the whole pause: a window wide enough for another
    task to run in it on a loaded machine."""
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    worker = Worker()
    worker.beat = False
    worker.env.update(
        CELERY_TASK_ALWAYS_EAGER="false", TEST_BOT_PAUSE_MIN_S="2", TEST_BOT_PAUSE_MAX_S="4"
    )
    try:
        worker.start()
        yield worker
    finally:
        worker.kill()
        celery_app.conf.task_always_eager = eager


def test_a_worker_runs_other_tasks_while_a_bot_s_decision_waits_out_its_pause(
    user: Any,
    started_game: Callable[..., Game],
    paused_worker: Worker,
) -> None:
    game = game_play_now(user=user, preset="serbian", bots_count=1, level=1)
    witness = started_game(2, days_per_move=1)
    Game.objects.filter(pk=witness.pk).update(deadline_at=timezone.now())

    # The person's turn (the publisher queues the bot's task through Redis), then the
    # bot's, until the bot keeps its first decision for the whole pause (one whose pause
    # had passed by the time it was made, as the first task of a fresh worker's may, is
    # played at once; its next decisions are queued by the worker, 2 s after the move).
    decision = None
    for _ in range(10):
        poll(lambda: Game.objects.get(pk=game.pk).to_move == 0, 60, paused_worker)
        turn = Game.objects.get(pk=game.pk).ply
        person_draws_and_throws(game, user)
        decision = poll(lambda t=turn: _kept_or_person_to_move(game, t + 2), 60, paused_worker)
        if isinstance(decision, BotDecision) and decision.due_at - timezone.now() > WINDOW:
            break
        decision = None
    assert decision is not None, "the bot kept no decision for its whole pause in ten turns"
    tasks.sweep_deadlines.delay()  # the witness: another task, while the pause runs

    wait_for(lambda: Game.objects.get(pk=witness.pk).ply > witness.ply, 60, paused_worker)
    wait_for(lambda: Game.objects.get(pk=game.pk).ply > decision.ply, 60, paused_worker)
    witnessed = Move.objects.filter(game=witness).latest("ply").created_at
    played = Move.objects.filter(game=game, ply__gt=decision.ply).order_by("ply")
    first = played[0]
    assert [move.payload for move in played[: len(decision.actions)]] == decision.actions
    timing = (
        f"witness at {witnessed.isoformat()}, decision due at {decision.due_at.isoformat()},"
        f" played at {first.created_at.isoformat()}"
    )
    assert witnessed < decision.due_at, f"the worker was busy during the pause: {timing}"
    assert first.created_at >= decision.due_at, f"the move showed before its pause: {timing}"


def _kept_or_person_to_move(game: Game, after_ply: int) -> BotDecision | bool:
    """The bot's kept decision, or whether the person is to move again after the bot."""
    decision = BotDecision.objects.filter(game=game).first()
    if decision is not None:
        return decision
    now = Game.objects.get(pk=game.pk)
    return now.to_move == 0 and now.ply > after_ply


def poll(condition: Callable[[], Any], timeout: float, worker: Worker) -> Any:
    """``condition()``'s first true answer, asked every 20 ms until ``timeout``."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        answer = condition()
        if answer:
            return answer
        time.sleep(0.02)
    raise AssertionError(f"timed out; worker log:\n{worker.log()}")
