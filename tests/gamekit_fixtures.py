"""Game fixtures for the whole suite (a plugin of tests/conftest.py): seeded deals,
lobbies and started games, players with API clients, and the replay check that every
test which touches the database gets."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.play import shuffle
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from tests.gamekit import assert_every_game_replays, seeded_deal_source, seeded_seating_source


@pytest.fixture
def deals_seeded(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    """``deals_seeded(seed)``: from now on every deal is shuffled, and every seating
    draw (Remik 51) drawn, from ``seed``."""

    def seed(value: int) -> None:
        monkeypatch.setattr(shuffle, "deal_source", seeded_deal_source(value))
        monkeypatch.setattr(shuffle, "seating_source", seeded_seating_source(value))

    seed(0)
    return seed


@pytest.fixture(autouse=True)
def every_game_replays(request: pytest.FixtureRequest) -> Iterator[None]:
    """After each test: every game in the database replays exactly from its deck orders
    and move log to the stored snapshots, results and totals.

    It opens the test's database access itself, so that its check runs before the
    test's transaction is rolled back (or its tables flushed). Tests that use no
    database (the engine's, the bots') are left alone."""
    marker = request.node.get_closest_marker("django_db")
    fixtures = set(request.fixturenames)
    if marker is None and not fixtures & {"db", "transactional_db", "live_server"}:
        yield
        return
    transactional = (marker is not None and marker.kwargs.get("transaction", False)) or bool(
        fixtures & {"transactional_db", "live_server"}
    )
    request.getfixturevalue("transactional_db" if transactional else "db")
    yield
    assert_every_game_replays()


@pytest.fixture
def players(
    user_factory: Callable[..., Any], client_for: Callable[[Any], APIClient]
) -> Callable[[int], list[APIClient]]:
    """``players(n)``: n new users, each with an API client (``client.user``)."""

    def make(count: int) -> list[APIClient]:
        return [client_for(user_factory()) for _ in range(count)]

    return make


@pytest.fixture
def spectator(
    user_factory: Callable[..., Any], client_for: Callable[[Any], APIClient]
) -> APIClient:
    return client_for(user_factory(username="watcher"))


@pytest.fixture
def lobby(user_factory: Callable[..., Any]) -> Callable[..., tuple[Any, list[Any]]]:
    """``lobby(players=2, preset="serbian", seated=None, **create)``: a game in the lobby
    created by a new host, with ``seated`` (default: all) seats taken by new users.
    Returns ``(game, users)``."""
    from games.models import Game

    def make(
        players: int = 2, preset: str = "serbian", seated: int | None = None, **create: Any
    ) -> tuple[Game, list[Any]]:
        users = [user_factory() for _ in range(players)]
        game = game_create(owner=users[0], preset=preset, players=players, **create)
        for user in users[1 : seated if seated is not None else players]:
            game_join(game=game, user=user, invite_code=game.invite_code or None)
        return game, users

    return make


@pytest.fixture
def started(
    lobby: Callable[..., tuple[Any, list[Any]]], deals_seeded: Callable[[int], None]
) -> Callable[..., tuple[Any, list[Any]]]:
    """``started(players=2, preset="serbian", **create)``: a started game (seeded deal).
    Returns ``(game, users_by_seat)``."""

    def make(players: int = 2, preset: str = "serbian", **create: Any) -> tuple[Any, list[Any]]:
        game, users = lobby(players, preset, **create)
        game = game_start(game=game, user=users[0])
        # Rules that seat the players by drawn cards may have moved them.
        by_id = {user.pk: user for user in users}
        return game, [by_id[seat.user_id] for seat in game.seats.order_by("position")]

    return make


@pytest.fixture
def quick_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every serbian deal from now on is one the starter ends in their first turn
    (``gamekit.quick_actions``): a dry hand, -280 for them, 400 for the others."""
    from tests.gamekit import quick_deal_source

    monkeypatch.setattr(shuffle, "deal_source", quick_deal_source())
