"""Bots move by themselves: a task plays a bot's turn whenever one is to move."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.models import Game, Move
from games.play import bot_turns
from games.play.create import game_create
from games.play.lobby import game_join, game_start

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("level", [1, 2])
def test_a_game_of_four_bots_runs_to_the_end_by_itself(
    user_factory: Callable[..., Any], deals_seeded: Callable[[int], None], level: int
) -> None:
    bots = [user_factory(is_bot=True, bot_level=level) for _ in range(4)]
    # Two deals: the bots also begin the next deal by themselves. (A whole Remik 51 match
    # of level-1 bots, which seldom go out, took half a minute of the suite.)
    game = game_create(
        owner=bots[0],
        preset="polish51",
        players=4,
        bots=bots[1:],
        days_per_move=1,
        overrides={"match_deals": [2, 2, 2, 2, 2]},
    )

    game_start(game=game, user=bots[0])  # the tasks take it from here

    game.refresh_from_db()
    assert game.deal_number == 2  # Remik 51 has no total that ends a match early
    assert game.status == Game.Status.FINISHED
    assert game.end_reason == "completed"
    assert Move.objects.filter(game=game, user=None).count() == 0  # no timeout needed
    assert game.winners


def test_play_now_against_bots_starts_at_once_and_the_bots_answer(
    user: Any, deals_seeded: Callable[[int], None]
) -> None:
    game = bot_turns.game_play_now(user=user, preset="serbian", bots_count=2, level=2)

    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert [seat.user.profile.is_bot for seat in game.seats.all()] == [False, True, True]
    # Whoever began, the bots have played until it is the person's turn.
    from games.read.selectors import current_deal

    deal = current_deal(game)
    assert deal is not None and deal.to_move == 0


def test_a_stale_bot_task_changes_nothing(user: Any, deals_seeded: Callable[[int], None]) -> None:
    game = bot_turns.game_play_now(user=user, preset="serbian", bots_count=1, level=2)
    game.refresh_from_db()
    assert bot_turns.bot_play(game_pk=game.pk, ply=game.ply - 1) == 0
    assert bot_turns.bot_play(game_pk=game.pk, ply=game.ply) == 0  # the person is to move


def test_a_bot_that_begins_a_game_started_from_the_lobby_moves_at_once(
    user_factory: Callable[..., Any], deals_seeded: Callable[[int], None]
) -> None:
    host = user_factory()
    bots = [user_factory(is_bot=True, bot_level=2) for _ in range(2)]
    guest = user_factory()
    game = game_create(owner=host, preset="serbian", players=4, bots=bots)
    game_join(game=game, user=guest)  # a lobby event at ply 0 first

    game_start(game=game, user=host)

    from games.read.selectors import current_deal

    game.refresh_from_db()
    deal = current_deal(game)
    assert deal is not None
    assert game.seats.get(position=deal.to_move).user.profile.is_bot is False
