"""The page views behind the browser UI (no browser needed): who may open which page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.play.bot_turns import game_play_now
from games.play.create import game_create
from games.play.lobby import game_join, game_start

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/play/", "/games/", "/games/abcdefghjkmn/"])
def test_pages_ask_for_a_login(client: Any, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 302
    assert response.url.startswith("/accounts/login/")


def test_the_lobby_offers_the_bots(client: Any, user: Any, bots: list[Any]) -> None:
    client.force_login(user)
    response = client.get("/play/")
    assert response.status_code == 200
    page = response.content.decode()
    for bot in bots:
        assert f'value="{bot.username}"' in page
    assert "js/lobby.js" in page


def test_my_games_lists_only_mine_by_status(client: Any, user_factory: Callable[..., Any]) -> None:
    ana, bob, cara = user_factory(username="ana"), user_factory(), user_factory()
    waiting = game_create(owner=ana, preset="serbian", players=2)
    playing = game_create(owner=bob, preset="polish51", players=2)
    game_join(game=playing, user=ana)
    game_start(game=playing, user=bob)
    others = game_create(owner=cara, preset="macedonian", players=2)
    client.force_login(ana)

    active = client.get("/games/").content.decode()
    assert f"/games/{playing.public_id}/" in active
    assert f"/games/{waiting.public_id}/" not in active
    assert "Polish Remik 51" in active
    lobby = client.get("/games/?status=lobby").content.decode()
    assert f"/games/{waiting.public_id}/" in lobby
    assert f"/games/{others.public_id}/" not in lobby + active


def test_my_games_in_the_lobby_tab_lists_the_newest_first(
    client: Any, user_factory: Callable[..., Any]
) -> None:
    ana = user_factory(username="ana")
    older = game_create(owner=ana, preset="serbian", players=2)
    newer = game_create(owner=ana, preset="macedonian", players=2)
    client.force_login(ana)

    page = client.get("/games/?status=lobby").content.decode()

    assert page.index(f"/games/{newer.public_id}/") < page.index(f"/games/{older.public_id}/")


def test_my_games_calls_a_game_against_bots_by_its_name(
    client: Any, user: Any, bots: list[Any]
) -> None:
    game = game_play_now(user=user, preset="serbian", bots_count=1, level=2)
    client.force_login(user)

    page = client.get("/games/").content.decode()

    assert f"/games/{game.public_id}/" in page
    assert "against bots" in page
    assert "private" not in page


def test_the_table_of_a_public_game_is_open_to_any_player(
    client: Any, user_factory: Callable[..., Any]
) -> None:
    game = game_create(owner=user_factory(), preset="serbian", players=2)
    client.force_login(user_factory())
    response = client.get(f"/games/{game.public_id}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert f'data-game-id="{game.public_id}"' in page
    assert "js/table/main.js" in page


def test_a_private_game_is_found_only_by_its_players_or_with_its_invite(
    client: Any, user_factory: Callable[..., Any]
) -> None:
    host = user_factory()
    game = game_create(owner=host, preset="serbian", players=2, visibility="private")
    client.force_login(user_factory())
    assert client.get(f"/games/{game.public_id}/").status_code == 404
    invited = client.get(f"/games/{game.public_id}/?invite={game.invite_code}")
    assert invited.status_code == 200
    assert f'data-invite="{game.invite_code}"' in invited.content.decode()
    client.force_login(host)
    assert client.get(f"/games/{game.public_id}/").status_code == 200


def test_an_unknown_game_is_not_found(client: Any, user: Any) -> None:
    client.force_login(user)
    assert client.get("/games/nosuchgame00/").status_code == 404
