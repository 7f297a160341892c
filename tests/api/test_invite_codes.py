"""A private game with a wrong invite code answers exactly as a game that does not
exist, on the page and over the API: the same status and the same body."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from games.models import Game, Seat
from games.play.create import game_create

pytestmark = pytest.mark.django_db

UNKNOWN_ID = "zzzzzzzzzzzz"


@pytest.fixture
def private_lobby(user_factory: Callable[..., Any]) -> Game:
    host = user_factory(username="host")
    return game_create(owner=host, preset="serbian", players=3, visibility="private")


def page(client: Client, game_id: str, invite: str) -> tuple[int, str]:
    response = client.get(f"/games/{game_id}/", {"invite": invite})
    # The CSRF token changes with each response; nothing else may differ.
    body = re.sub(r'(csrf[\w-]*" (?:content|value)=")[^"]+', r"\1-", response.content.decode())
    return response.status_code, body.replace(game_id, "<id>")


def test_the_page_with_a_wrong_code_is_the_page_of_an_unknown_game(
    private_lobby: Game, user_factory: Callable[..., Any]
) -> None:
    browser = Client()
    browser.force_login(user_factory(username="guesser"))

    wrong = page(browser, private_lobby.public_id, "not-the-code")
    unknown = page(browser, UNKNOWN_ID, "not-the-code")
    right = page(browser, private_lobby.public_id, private_lobby.invite_code)

    assert wrong[0] == unknown[0] == 404
    assert wrong[1] == unknown[1]
    assert "data-game-id" not in wrong[1]
    assert right[0] == 200 and "data-game-id" in right[1]


def test_joining_with_a_wrong_code_is_answered_as_an_unknown_game(
    private_lobby: Game, user_factory: Callable[..., Any], client_for: Callable[[Any], Any]
) -> None:
    api = client_for(user_factory(username="guesser"))
    body = {"invite_code": "not-the-code"}

    wrong = api.post(f"/api/v1/games/{private_lobby.public_id}/join", body, format="json")
    unknown = api.post(f"/api/v1/games/{UNKNOWN_ID}/join", body, format="json")

    assert wrong.status_code == unknown.status_code == 404
    assert wrong.json() == unknown.json()
    assert not Seat.objects.filter(game=private_lobby, user=api.user).exists()
    right = api.post(
        f"/api/v1/games/{private_lobby.public_id}/join",
        {"invite_code": private_lobby.invite_code},
        format="json",
    )
    assert right.status_code == 200


def test_a_rated_private_game_with_a_wrong_code_says_nothing_of_its_terms(
    user_factory: Callable[..., Any], client_for: Callable[[Any], Any]
) -> None:
    host = user_factory(username="host")
    rated = game_create(owner=host, preset="serbian", players=2, visibility="private", rated=True)
    robot = client_for(user_factory(username="robo"))
    assert robot.post("/api/v1/me/bot").status_code == 200
    body = {"invite_code": "not-the-code"}

    wrong = robot.post(f"/api/v1/games/{rated.public_id}/join", body, format="json")
    unknown = robot.post(f"/api/v1/games/{UNKNOWN_ID}/join", body, format="json")

    # Not "bots_rated_vs_humans": that would tell a rated private game exists there.
    assert wrong.status_code == unknown.status_code == 404
    assert wrong.json() == unknown.json()
