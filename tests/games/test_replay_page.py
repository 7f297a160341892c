"""The replay page of a finished game: found as its table is, linked from the table and
from the history; a game not finished has none (its table is shown instead)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.models import Game
from games.play.act import game_act
from tests.gamekit import current_engine_deal, quick_actions

pytestmark = pytest.mark.django_db


def finished(game: Game, users: list[Any]) -> Game:
    while game.status == Game.Status.ACTIVE:
        starter = current_engine_deal(game).to_move
        for action in quick_actions():
            game_act(game=game, user=users[starter], action=action, expected_ply=game.ply)
            game.refresh_from_db()
    return game


def test_a_finished_public_game_has_a_replay_page(started: Any, quick_deals: None) -> None:
    game, users = started(2)
    game = finished(game, users)

    page = Client().get(f"/games/{game.public_id}/replay/")

    assert page.status_code == 200
    html = page.content.decode()
    assert f'data-api="/api/v1/games/{game.public_id}/replay"' in html
    assert "js/replay.js" in html


def test_a_game_being_played_sends_the_replay_page_to_its_table(started: Any) -> None:
    game, _users = started(2)

    page = Client().get(f"/games/{game.public_id}/replay/")

    assert page.status_code == 302 and page["Location"] == f"/games/{game.public_id}/"


def test_a_private_games_replay_is_for_its_players(
    started: Any, quick_deals: None, client: Client, user_factory: Any
) -> None:
    game, users = started(2, visibility="private")
    game = finished(game, users)
    url = f"/games/{game.public_id}/replay/"
    client.force_login(user_factory())
    player = Client()
    player.force_login(users[0])

    assert client.get(url).status_code == 404
    assert Client().get(url).status_code == 302  # a visitor is asked to log in
    assert player.get(url).status_code == 200


def test_the_history_links_a_finished_games_replay(started: Any, quick_deals: None) -> None:
    game, users = started(2)
    game = finished(game, users)
    player = Client()
    player.force_login(users[0])

    html = player.get("/history/").content.decode()

    assert f'href="/games/{game.public_id}/replay/"' in html
