"""Fixtures of the moderation tests: staff clients with and without the moderator
role, and rated games to play, abandon and forfeit."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from accounts.moderation.roles import MODERATOR_GROUP
from games.models import Game
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from tests.gamekit import everyone_moves
from tests.user_kit import logged_in


@pytest.fixture
def staff_factory(user_factory: Callable[..., Any]) -> Callable[..., Any]:
    """``staff_factory(moderator=True)``: a staff account, in the moderator group or not."""

    def make(moderator: bool = True, **fields: Any) -> Any:
        person = user_factory(**fields)
        person.is_staff = True
        person.save()
        if moderator:
            person.groups.add(Group.objects.get(name=MODERATOR_GROUP))
        return person

    return make


@pytest.fixture
def moderator(staff_factory: Callable[..., Any]) -> Any:
    return staff_factory(username="mod", display_name="Mod")


@pytest.fixture
def moderator_client(moderator: Any) -> Client:
    """The admin, as a staff member of the moderator group."""
    return logged_in(moderator)


@pytest.fixture
def rated_game(
    user_factory: Callable[..., Any], deals_seeded: Callable[[int], None]
) -> Callable[..., tuple[Game, list[Any]]]:
    """``rated_game(players=2, users=None, moved=True)``: a started rated serbian game;
    with ``moved`` every player has made a move (long enough to rate). Returns the game
    and its users by seat."""

    def make(
        players: int = 2, users: list[Any] | None = None, moved: bool = True
    ) -> tuple[Game, list[Any]]:
        users = users or [user_factory() for _ in range(players)]
        game = game_create(owner=users[0], preset="serbian", players=players, rated=True)
        for other in users[1:]:
            game_join(game=game, user=other)
        game = game_start(game=game, user=users[0])
        by_seat = [seat.user for seat in game.seats.select_related("user").order_by("position")]
        if moved:
            game = everyone_moves(game, by_seat)
        return game, by_seat

    return make
