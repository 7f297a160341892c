"""A built-in bot's pause before its move shows: the policy as a pure function, and the
bot's decision kept for what is left of it when a person is at the table, played by a
second task (no worker sleeps: ``time.sleep`` fails here). The seams: a task run twice,
a decision gone stale, a task lost. A real worker: tests/live/test_worker_bot_pause.py."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.test import override_settings
from django.utils import timezone

from games import bots, tasks
from games.engine.actions import Discard, DrawStock, LayDown, LayOff, TakeDiscard
from games.engine.cards import Card
from games.models import BotDecision, Game, Move
from games.play import bot_pause, bot_turns
from games.play.bot_pause import PauseBounds, bot_pause_s, remaining_pause_s
from games.play.bot_turns import game_play_now
from games.play.resign import game_resign
from tests.turn_kit import person_draws_and_throws

BOUNDS = PauseBounds(min_s=0.4, max_s=2.5)
NO_JITTER_SEEDS = range(20)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(card) for card in text.split())


def test_a_draw_at_the_start_of_a_turn_waits_the_shortest_pause() -> None:
    assert bot_pause_s([DrawStock()], hand_size=14, bounds=BOUNDS, seed=1) == BOUNDS.min_s


def test_the_one_card_left_to_throw_waits_the_shortest_pause() -> None:
    discard = [Discard(Card.parse("7H"))]
    assert bot_pause_s(discard, hand_size=1, bounds=BOUNDS, seed=1) == BOUNDS.min_s


def test_a_discard_chosen_among_many_waits_longer_than_a_forced_one() -> None:
    chosen = bot_pause_s([Discard(Card.parse("7H"))], hand_size=12, bounds=BOUNDS, seed=3)
    assert BOUNDS.min_s < chosen < BOUNDS.max_s


def test_a_lay_down_waits_longer_the_more_cards_the_table_has_to_read() -> None:
    small = [LayDown([cards("7H 8H 9H")]), Discard(Card.parse("2C"))]
    large = [LayDown([cards("7H 8H 9H"), cards("10S 10D 10C"), cards("JS QS KS")])]
    large_turn = [*large, LayOff(Card.parse("6H"), 0, "low"), Discard(Card.parse("2C"))]
    for seed in NO_JITTER_SEEDS:
        short = bot_pause_s(small, hand_size=8, bounds=BOUNDS, seed=seed)
        long = bot_pause_s(large_turn, hand_size=8, bounds=PauseBounds(0.4, 60.0), seed=seed)
        assert short < long


def test_the_pause_never_leaves_its_bounds() -> None:
    laid = LayDown([cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")])
    offs = [LayOff(Card.parse(card), 1) for card in ("5S", "6S", "7S")]
    huge = [TakeDiscard(), laid, *offs, Discard(Card.parse("2C"))]
    for seed in NO_JITTER_SEEDS:
        assert bot_pause_s(huge, hand_size=14, bounds=BOUNDS, seed=seed) == BOUNDS.max_s
    nothing = PauseBounds(min_s=0.0, max_s=0.0)
    assert bot_pause_s(huge, hand_size=14, bounds=nothing, seed=1) == 0.0


def test_the_jitter_is_the_same_for_the_same_seed_and_varies_between_seeds() -> None:
    turn = [LayDown([cards("7H 8H 9H")]), Discard(Card.parse("2C"))]
    wide = PauseBounds(0.4, 60.0)
    pauses = {bot_pause_s(turn, hand_size=8, bounds=wide, seed=seed) for seed in range(10)}
    assert len(pauses) > 1
    again = bot_pause_s(turn, hand_size=8, bounds=wide, seed=4)
    assert again == bot_pause_s(turn, hand_size=8, bounds=wide, seed=4)
    assert max(pauses) - min(pauses) <= 2 * bot_pause.JITTER * max(pauses)


def test_the_time_already_spent_is_taken_off_the_pause() -> None:
    assert remaining_pause_s(1.5, spent_s=0.4) == pytest.approx(1.1)
    assert remaining_pause_s(1.5, spent_s=2.0) == 0.0


PAUSED = override_settings(BOT_PAUSE_MIN_S=0.4, BOT_PAUSE_MAX_S=2.5)


@pytest.fixture
def no_sleep(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker that sleeps fails the test."""

    def refuse(seconds: float) -> None:
        raise AssertionError(f"a worker slept {seconds} s")

    monkeypatch.setattr(time, "sleep", refuse)


@pytest.fixture
def countdowns(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The countdown of every ``bot_move_apply`` queued; each then runs at once, as the
    tests' eager tasks do."""
    seen: list[float] = []
    task = tasks.bot_move_apply

    def queued(args: tuple[int, int], countdown: float = 0.0, **options: Any) -> None:
        seen.append(countdown)
        task.apply(args)

    monkeypatch.setattr(task, "apply_async", queued)
    return seen


@pytest.mark.django_db(transaction=True)
@PAUSED
def test_a_bot_facing_a_person_keeps_its_decision_for_its_pause_and_no_worker_sleeps(
    user: Any, deals_seeded: Any, no_sleep: None, countdowns: list[float]
) -> None:
    # The bot of a two-seat game begins one deal in two: play until it has moved.
    game = game_play_now(user=user, preset="macedonian", bots_count=1, level=2)
    game.refresh_from_db()
    if game.ply == 0:
        person_draws_and_throws(game, user)
    game.refresh_from_db()
    assert game.to_move == 0, "the bot did not play its turn"
    assert countdowns, "the bot played with no pause"
    assert all(0 < wait <= 2.5 for wait in countdowns)
    assert not BotDecision.objects.filter(game=game).exists(), "a played decision stayed"


@pytest.mark.django_db(transaction=True)
@PAUSED
def test_bots_without_a_person_at_the_table_keep_no_decision(
    user: Any,
    deals_seeded: Any,
    no_sleep: None,
    countdowns: list[float],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = game_play_now(user=user, preset="macedonian", bots_count=2, level=2)
    countdowns.clear()
    # Forty of the bots' turns say enough; the rest of the match is not queued.
    turns = tasks.bot_move.apply_async
    queued = itertools.count()
    monkeypatch.setattr(
        tasks.bot_move,
        "apply_async",
        lambda *args, **kwargs: turns(*args, **kwargs) if next(queued) < 40 else None,
    )
    resigned_at = game_resign(game=game, user=user).ply
    game.refresh_from_db()
    assert game.ply > resigned_at + 10  # the two bots played on, with no pause
    assert countdowns == []
    assert not BotDecision.objects.filter(game=game).exists()


@pytest.fixture
def bot_to_move(user: Any, deals_seeded: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Game]:
    """A game where the bot is to move with a person at the table, its task not queued
    (each step below is called by the test)."""
    with override_settings(BOT_PAUSE_MIN_S=0.4, BOT_PAUSE_MAX_S=2.5):
        game = game_play_now(user=user, preset="serbian", bots_count=1, level=2)
        game.refresh_from_db()
        with monkeypatch.context() as lost:
            lost.setattr(tasks.bot_move, "apply_async", lambda *args, **kwargs: None)
            person_draws_and_throws(game, user)
        game.refresh_from_db()
        assert game.to_move == 1 and game.bot_to_move
        yield game


def _bot_moves(game: Game, after_ply: int) -> int:
    return Move.objects.filter(game=game, ply__gt=after_ply, seat__position=1).count()


@pytest.mark.django_db(transaction=True)
def test_a_kept_decision_is_played_once_even_if_its_tasks_run_twice(
    bot_to_move: Game, no_sleep: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, ply = bot_to_move, bot_to_move.ply
    # Only this decision: the bot's next one (after a draw) is not queued.
    monkeypatch.setattr(tasks.bot_move, "apply_async", lambda *args, **kwargs: None)
    turn = bot_turns.bot_decide(game_pk=game.pk, ply=ply)
    assert 0 < turn.apply_in_s <= 2.5 and turn.ply == 0
    kept = BotDecision.objects.get(game=game)
    assert kept.ply == ply and kept.actions
    assert Game.objects.get(pk=game.pk).ply == ply, "the move showed before its pause"

    # The deciding task again (a duplicate): the same decision, not a new one.
    monkeypatch.setattr(bots, "decide", _must_not_decide)
    again = bot_turns.bot_decide(game_pk=game.pk, ply=ply)
    assert 0 < again.apply_in_s <= turn.apply_in_s and again.ply == 0

    played = tasks.bot_move_apply(game.pk, ply)
    assert played > ply
    assert tasks.bot_move_apply(game.pk, ply) == 0
    assert _bot_moves(game, ply) == len(kept.actions)
    logged = Move.objects.filter(game=game, ply__gt=ply).order_by("ply")
    assert [move.payload for move in logged] == kept.actions
    assert not BotDecision.objects.filter(game=game).exists()


@pytest.mark.django_db(transaction=True)
def test_a_decision_gone_stale_is_dropped_unplayed(bot_to_move: Game, no_sleep: None) -> None:
    game, ply = bot_to_move, bot_to_move.ply
    assert bot_turns.bot_decide(game_pk=game.pk, ply=ply).apply_in_s > 0
    person = game.seats.get(position=0).user
    resigned_at = game_resign(game=game, user=person).ply

    assert tasks.bot_move_apply(game.pk, ply) == 0
    assert Game.objects.get(pk=game.pk).ply == resigned_at
    assert _bot_moves(game, ply) == 0
    assert not BotDecision.objects.filter(game=game).exists()


@pytest.mark.django_db(transaction=True)
def test_a_kept_decision_whose_task_was_lost_is_played_by_the_bot_sweep_as_decided(
    bot_to_move: Game, no_sleep: None, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    game, ply = bot_to_move, bot_to_move.ply
    assert bot_turns.bot_decide(game_pk=game.pk, ply=ply).apply_in_s > 0
    kept = BotDecision.objects.get(game=game).actions
    # Its apply task is lost (Redis, a killed worker): the turn stalls.
    stalled = timezone.now() - timedelta(seconds=settings.BOT_STALL_S + 1)
    Game.objects.filter(pk=game.pk).update(updated_at=stalled)
    BotDecision.objects.filter(game=game).update(due_at=stalled)
    monkeypatch.setattr(bots, "decide", _must_not_decide)

    assert tasks.sweep_stalled_bot_turns() == 1

    logged = Move.objects.filter(game=game, ply__gt=ply).order_by("ply")[: len(kept)]
    assert [move.payload for move in logged] == kept


@pytest.mark.django_db(transaction=True)
def test_an_apply_finding_no_kept_decision_decides_again_and_plays(
    bot_to_move: Game, no_sleep: None
) -> None:
    game, ply = bot_to_move, bot_to_move.ply
    assert not BotDecision.objects.filter(game=game).exists()
    assert tasks.bot_move_apply(game.pk, ply) > ply
    assert _bot_moves(game, ply) >= 1


def _must_not_decide(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("the bot decided again")
