"""Every seat carries its game's end (``Seat.game_ended_at``): null in the lobby and
while the game runs, the game's ``finished_at`` from the transaction that finishes or
aborts it; the existing rows get it from the migration; and the lists that read it
(recent games, the finished tab, the header's count) show what the games say."""

from __future__ import annotations

import importlib
import re
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps
from django.utils import timezone

from games import stats
from games.models import Game, Seat
from games.play.lobby import game_abort
from games.play.resign import game_resign
from games.read import queue
from tests.accounts.account_kit import finished_game, web_client

pytestmark = pytest.mark.django_db

DELETE_API = "/api/v1/me/delete"
migration = importlib.import_module("games.migrations.0015_seat_game_end")


def ends_of(game: Game) -> set[Any]:
    return set(Seat.objects.filter(game=game).values_list("game_ended_at", flat=True))


def test_seats_in_the_lobby_and_in_a_running_game_have_no_end(lobby: Any, started: Any) -> None:
    waiting, _ = lobby(3, seated=2)
    running, _ = started(2)

    assert ends_of(waiting) == {None}
    assert ends_of(running) == {None}


def test_finishing_a_game_stamps_every_seat_with_the_games_end(started: Any) -> None:
    game = finished_game(started, players=3, winner=2)

    assert game.finished_at is not None
    assert ends_of(game) == {game.finished_at}


def test_a_resignation_that_leaves_others_playing_ends_no_seat(started: Any) -> None:
    game, users = started(3)

    game_resign(game=game, user=users[0])
    assert ends_of(game) == {None}
    game_resign(game=game, user=users[1])

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert ends_of(game) == {game.finished_at}


def test_aborting_a_lobby_stamps_every_seat(lobby: Any) -> None:
    game, users = lobby(3, seated=2)

    game_abort(game=game, user=users[0])

    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.finished_at is not None
    assert ends_of(game) == {game.finished_at}


def test_a_deleted_accounts_games_end_on_every_seat(
    started: Any, lobby: Any, client_for: Any, password: str
) -> None:
    running, (gone, other) = started(2)
    hosted, _ = lobby(2, seated=1)
    Game.objects.filter(pk=hosted.pk).update(owner=gone)
    Seat.objects.filter(game=hosted).update(user=gone)

    response = client_for(gone).post(DELETE_API, {"password": password})

    assert response.status_code == 204, response.content
    for game in (running, hosted):
        game.refresh_from_db()
        assert game.is_over
        assert ends_of(game) == {game.finished_at}


def test_the_migration_gives_the_existing_seats_of_ended_games_their_end(
    started: Any, lobby: Any
) -> None:
    finished = finished_game(started)
    aborted, users = lobby(2)
    game_abort(game=aborted, user=users[0])
    running, _ = started(2)
    Seat.objects.update(game_ended_at=None)  # as the rows were before the column

    migration.seats_game_ended(apps, None)

    for game in (finished, aborted):
        game.refresh_from_db()
        assert ends_of(game) == {game.finished_at}
    assert ends_of(running) == {None}


def _ended_at(game: Game, when: Any) -> None:
    Game.objects.filter(pk=game.pk).update(finished_at=when)
    Seat.objects.filter(game=game).update(game_ended_at=when)


def test_recent_games_are_the_latest_finished_and_skip_aborted_ones(
    started: Any, lobby: Any, user_factory: Any
) -> None:
    now = timezone.now()
    me = user_factory()
    games = []
    for days in (3, 1, 2):
        game = finished_game(started)
        Seat.objects.filter(game=game, position=0).update(user=me)
        _ended_at(game, now - timedelta(days=days))
        games.append(game)
    aborted, users = lobby(2)
    game_abort(game=aborted, user=users[0])
    Seat.objects.filter(game=aborted, position=1).update(user=me)
    running, _ = started(2)
    Seat.objects.filter(game=running, position=1).update(user=me)

    recent = stats.recent_games(me, limit=2)

    assert [entry["id"] for entry in recent] == [games[1].public_id, games[2].public_id]
    assert all(entry["won"] for entry in recent)


def test_the_finished_tab_lists_the_most_recently_ended_first(
    started: Any, user_factory: Any
) -> None:
    now = timezone.now()
    me = user_factory()
    games = []
    for days in (2, 5, 1):
        game = finished_game(started)
        Seat.objects.filter(game=game, position=1).update(user=me)
        _ended_at(game, now - timedelta(days=days))
        games.append(game)
    running, _ = started(2)
    Seat.objects.filter(game=running, position=0).update(user=me)

    page = web_client(me).get("/games/?status=finished")

    assert page.status_code == 200
    shown = [
        found
        for found in re.findall(r"/games/([\w-]+)/", page.content.decode())
        if found in {game.public_id for game in (*games, running)}
    ]
    order = list(dict.fromkeys(shown))
    assert order == [games[2].public_id, games[0].public_id, games[1].public_id]


def test_the_header_count_leaves_out_ended_games(started: Any, user_factory: Any) -> None:
    me = user_factory()
    waiting, _ = started(2)
    Seat.objects.filter(game=waiting, position=waiting.to_move).update(user=me)
    over = finished_game(started)
    Game.objects.filter(pk=over.pk).update(to_move=0)
    Seat.objects.filter(game=over, position=0).update(user=me)

    assert queue.my_turn_count(me) == 1
    assert queue.next_game_id(me) == waiting.public_id
