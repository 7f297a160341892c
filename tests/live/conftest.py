"""Fixtures of the live-play tests: games with seeded deals (websocket clients: ws_kit.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.models import Game
from games.play.create import game_create
from games.play.lobby import game_join, game_start


@pytest.fixture
def started_game(
    user_factory: Callable[..., Any],
    deals_seeded: Callable[[int], None],
) -> Callable[..., Game]:
    """``started_game(players=2, **create_options)``: a started game of new users."""

    def make(players: int = 2, *, users: list[Any] | None = None, **options: Any) -> Game:
        users = users or [user_factory() for _ in range(players)]
        options.setdefault("preset", "serbian")
        game = game_create(owner=users[0], players=players, **options)
        for other in users[1:]:
            game_join(game=game, user=other, invite_code=game.invite_code)
        return game_start(game=game, user=users[0])

    return make
