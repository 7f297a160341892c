"""A built-in bot's pause before its move shows: the policy as a pure function, and the
bot's task waiting what is left of it when a person is at the table (the wait is seen,
not waited: the sleeper is replaced)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings

from games.engine.actions import Discard, DrawStock, LayDown, LayOff, TakeDiscard
from games.engine.cards import Card
from games.models import Game
from games.play import bot_pause
from games.play.bot_pause import PauseBounds, bot_pause_s, remaining_pause_s
from games.play.bot_turns import game_play_now

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


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    seen: list[float] = []
    monkeypatch.setattr(bot_pause, "sleep", seen.append)
    return seen


@pytest.mark.django_db(transaction=True)
@override_settings(BOT_PAUSE_MIN_S=0.4, BOT_PAUSE_MAX_S=2.5)
def test_a_bot_facing_a_person_waits_its_pause_less_the_time_spent(
    user: Any, deals_seeded: Any, waits: list[float]
) -> None:
    # The bot of a two-seat game begins one deal in two: play until it has moved.
    game = game_play_now(user=user, preset="macedonian", bots_count=1, level=2)
    game.refresh_from_db()
    if game.ply == 0:
        _person_draws_and_throws(game, user)
    assert waits, "the bot moved without any pause"
    assert all(0 < wait <= 2.5 for wait in waits)


@pytest.mark.django_db(transaction=True)
@override_settings(BOT_PAUSE_MIN_S=0.4, BOT_PAUSE_MAX_S=2.5)
def test_bots_without_a_person_at_the_table_do_not_wait(
    user: Any, deals_seeded: Any, waits: list[float]
) -> None:
    from games.play.resign import game_resign

    game = game_play_now(user=user, preset="macedonian", bots_count=2, level=2)
    waits.clear()
    resigned_at = game_resign(game=game, user=user).ply
    game.refresh_from_db()
    assert game.ply > resigned_at  # the two bots played on (here to the game's end)
    assert waits == []


def _person_draws_and_throws(game: Game, user: Any) -> None:
    """The person plays one turn (a draw if due, then the last card of their hand)."""
    from games.models import Deal
    from games.play.act import game_act

    for _ in range(2):
        game.refresh_from_db()
        row = Deal.objects.get(game=game, number=game.deal_number)
        view = row.restore(game.engine_ruleset()).view(game.to_move)
        assert view.hand is not None
        if "discard" in view.actions:
            action = {"type": "discard", "card": str(view.hand[-1][1])}
        else:
            action = {"type": "draw"}
        game_act(game=game, user=user, action=action, expected_ply=game.ply)
        if action["type"] == "discard":
            return
