"""A bot's turn whose queued task was lost (a Redis restart, a killed worker) is found by
the bot sweep and played by the bot itself: no timeout, no strike."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.utils import timezone

from games import tasks
from games.engine import Discard, DrawStock
from games.models import Game, Move
from games.play import bot_turns
from games.play.act import game_act
from games.read.selectors import current_deal

pytestmark = pytest.mark.django_db(transaction=True)


def _hand_the_turn_to_the_bot_and_lose_its_task(user: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    game = bot_turns.game_play_now(
        user=user, preset="serbian", bots_count=1, level=2, time_control="correspondence"
    )
    game.refresh_from_db()
    with monkeypatch.context() as lost:
        lost.setattr(tasks.bot_move, "apply_async", lambda *args, **kwargs: None)
        if current_deal(game).view(0).phase == "draw":
            game_act(game=game, user=user, action=DrawStock(), expected_ply=game.ply)
            game.refresh_from_db()
        view = current_deal(game).view(0)
        card = view.must_return or view.hand[0][1]
        game_act(game=game, user=user, action=Discard(card), expected_ply=game.ply)
    game.refresh_from_db()
    return game


def _stalled_since(game: Game, seconds: float) -> None:
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(seconds=seconds))


def test_a_turn_handed_to_a_bot_is_marked_and_a_turn_handed_back_is_not(
    user: Any, deals_seeded: Callable[[int], None]
) -> None:
    game = bot_turns.game_play_now(user=user, preset="serbian", bots_count=1, level=2)

    game.refresh_from_db()

    # The bot has played (eagerly, in the tests) until it is the person's turn.
    assert current_deal(game).to_move == 0
    assert game.bot_to_move is False


def test_the_sweep_plays_a_bot_turn_whose_task_was_lost(
    user: Any, deals_seeded: Callable[[int], None], monkeypatch: pytest.MonkeyPatch, settings
) -> None:
    game = _hand_the_turn_to_the_bot_and_lose_its_task(user, monkeypatch)
    assert game.bot_to_move is True
    stalled_ply = game.ply
    _stalled_since(game, settings.BOT_STALL_S + 1)

    assert tasks.sweep_stalled_bot_turns() == 1

    game.refresh_from_db()
    assert game.ply > stalled_ply
    assert current_deal(game).to_move == 0
    bot_moves = Move.objects.filter(game=game, ply__gt=stalled_ply)
    assert bot_moves.exists()
    assert not bot_moves.filter(user=None).exists(), "a timeout played the bot's turn"
    assert list(game.seats.values_list("strikes", flat=True)) == [0, 0]


def test_a_bot_turn_younger_than_the_stall_limit_is_left_alone(
    user: Any, deals_seeded: Callable[[int], None], monkeypatch: pytest.MonkeyPatch, settings
) -> None:
    game = _hand_the_turn_to_the_bot_and_lose_its_task(user, monkeypatch)
    _stalled_since(game, settings.BOT_STALL_S / 2)

    assert tasks.sweep_stalled_bot_turns() == 0
    game.refresh_from_db()
    assert game.bot_to_move is True


def test_a_stalled_turn_is_queued_again_once_per_stall_period(
    user: Any, deals_seeded: Callable[[int], None], monkeypatch: pytest.MonkeyPatch, settings
) -> None:
    game = _hand_the_turn_to_the_bot_and_lose_its_task(user, monkeypatch)
    _stalled_since(game, settings.BOT_STALL_S + 1)
    queued: list[tuple[int, int]] = []
    monkeypatch.setattr(tasks.bot_move, "delay", lambda *args: queued.append(args))

    first = tasks.sweep_stalled_bot_turns()
    second = tasks.sweep_stalled_bot_turns()

    assert (first, second) == (1, 0)
    assert queued == [(game.pk, game.ply)]


def test_a_persons_turn_is_never_swept(
    user: Any, deals_seeded: Callable[[int], None], settings
) -> None:
    game = bot_turns.game_play_now(
        user=user, preset="serbian", bots_count=1, level=2, time_control="correspondence"
    )
    _stalled_since(game, 7 * 86400)

    assert tasks.sweep_stalled_bot_turns() == 0


def test_the_stall_query_can_use_its_partial_index(settings) -> None:
    stalled = Game.objects.filter(
        status=Game.Status.ACTIVE,
        bot_to_move=True,
        updated_at__lte=timezone.now() - timedelta(seconds=settings.BOT_STALL_S),
    ).order_by("updated_at")
    with transaction.atomic(), connection.cursor() as cursor:
        # The test tables are tiny: forbid the sequential scan to see the index fit.
        cursor.execute("SET LOCAL enable_seqscan = off")
        plan = stalled.explain()

    assert "game_bot_to_move" in plan
