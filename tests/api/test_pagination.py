"""One pagination for every list of the API: the envelope, ``page_size`` 1 to 100, the
cursors, and the same 400s everywhere (remi_site/pagination.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.challenges import services as challenges
from games.play import chat
from games.play.act import game_act
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from tests.gamekit import SchemaChecker, current_engine_deal, error_of, greedy_action, read_all

pytestmark = pytest.mark.django_db

# Every list endpoint: (path to ask, the path as the schema names it).
LISTS = [
    ("/api/v1/games", "/api/v1/games"),
    ("/api/v1/games?status=open", "/api/v1/games"),
    ("/api/v1/rulesets", "/api/v1/rulesets"),
    ("/api/v1/bots", "/api/v1/bots"),
    ("/api/v1/tokens", "/api/v1/tokens"),
    ("/api/v1/leaderboard?rules=serbian", "/api/v1/leaderboard"),
    ("/api/v1/challenges", "/api/v1/challenges"),
    ("/api/v1/challenges/open", "/api/v1/challenges/open"),
    ("/api/v1/games/{game}/moves", "/api/v1/games/{game_id}/moves"),
    ("/api/v1/games/{game}/chat", "/api/v1/games/{game_id}/chat"),
    ("/api/v1/reports", "/api/v1/reports"),
]


@pytest.fixture
def busy_game(
    user: Any, user_factory: Callable[..., Any], deals_seeded: Callable[[int], None]
) -> str:
    """A running public game of ``user``'s with moves and chat lines."""
    other = user_factory()
    game = game_create(owner=user, preset="polish51", players=2)
    game_join(game=game, user=other)
    game = game_start(game=game, user=user)
    for text in ("one", "two", "three"):
        chat.post_message(game=game, user=user, text=text)
    return str(game.public_id)


def url(path: str, game: str) -> str:
    return path.replace("{game}", game)


@pytest.mark.parametrize(("path", "schema_path"), LISTS)
def test_every_list_answers_the_one_envelope(
    auth_client: APIClient, busy_game: str, bots: list[Any], path: str, schema_path: str
) -> None:
    response = auth_client.get(url(path, busy_game))

    assert response.status_code == 200, response.json()
    body = response.json()
    assert {"next", "previous", "results"} <= set(body)
    assert isinstance(body["results"], list)
    SchemaChecker(auth_client).check("GET", schema_path, 200, body)


@pytest.mark.parametrize(("path", "schema_path"), LISTS)
@pytest.mark.parametrize("size", ["0", "101", "-3", "ten", ""])
def test_every_list_refuses_a_page_size_outside_1_to_100(
    auth_client: APIClient, busy_game: str, path: str, schema_path: str, size: str
) -> None:
    joiner = "&" if "?" in path else "?"

    response = auth_client.get(f"{url(path, busy_game)}{joiner}page_size={size}")

    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "invalid"
    assert list(error["details"]["fields"]) == ["page_size"]
    SchemaChecker(auth_client).check("GET", schema_path, 400, response.json())


@pytest.mark.parametrize(("path", "schema_path"), LISTS)
@pytest.mark.parametrize("cursor", ["not-a-cursor", "cD0yMDIwLTAxLTAx", "cj0xJnA9eA=="])
def test_every_list_answers_a_foreign_cursor_with_a_json_400(
    auth_client: APIClient, busy_game: str, path: str, schema_path: str, cursor: str
) -> None:
    joiner = "&" if "?" in path else "?"

    response = auth_client.get(f"{url(path, busy_game)}{joiner}cursor={cursor}")

    assert response.status_code == 400, response.content
    assert error_of(response)["code"] == "invalid_cursor"
    SchemaChecker(auth_client).check("GET", schema_path, 400, response.json())


def test_the_schema_documents_the_cursor_and_page_size_of_every_list(
    api_client: APIClient, db: None
) -> None:
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    paths = schema.json()["paths"]

    for _path, schema_path in LISTS:
        operation = paths[schema_path]["get"]
        names = {parameter["name"]: parameter for parameter in operation["parameters"]}
        assert {"cursor", "page_size"} <= set(names), schema_path
        assert "1 to 100" in names["page_size"]["description"], schema_path
        assert "invalid_cursor" in operation["responses"]["400"]["description"], schema_path


def test_following_next_reads_every_game_once_and_previous_goes_back(
    auth_client: APIClient, user: Any
) -> None:
    made = [game_create(owner=user, preset="serbian", players=2).public_id for _ in range(5)]

    first = auth_client.get("/api/v1/games?mine=true&page_size=2").json()
    second = auth_client.get(first["next"]).json()
    third = auth_client.get(second["next"]).json()

    pages = [first, second, third]
    assert [len(page["results"]) for page in pages] == [2, 2, 1]
    assert [game["id"] for page in pages for game in page["results"]] == made[::-1]
    assert first["previous"] is None and third["next"] is None
    assert auth_client.get(third["previous"]).json()["results"] == second["results"]


def test_a_page_stays_stable_when_games_are_created_meanwhile(
    auth_client: APIClient, user: Any
) -> None:
    for _ in range(3):
        game_create(owner=user, preset="serbian", players=2)
    first = auth_client.get("/api/v1/games?mine=true&page_size=2").json()
    game_create(owner=user, preset="serbian", players=2)  # newest: before the first page

    second = auth_client.get(first["next"]).json()

    assert len(second["results"]) == 1
    seen = {game["id"] for game in first["results"]}
    assert second["results"][0]["id"] not in seen


def test_the_move_log_is_read_forward_from_after(
    auth_client: APIClient, user: Any, user_factory: Callable[..., Any], deals_seeded: Any
) -> None:
    other = user_factory()
    game = game_create(owner=user, preset="polish51", players=2)
    game_join(game=game, user=other)
    game = game_start(game=game, user=user)
    for _ in range(7):
        deal = current_engine_deal(game)
        mover = game.seats.get(position=deal.to_move).user
        game_act(game=game, user=mover, action=greedy_action(deal), expected_ply=game.ply)
        game.refresh_from_db()
    path = f"/api/v1/games/{game.public_id}/moves"

    whole = read_all(auth_client, f"{path}?page_size=3")
    later = auth_client.get(f"{path}?after=5").json()

    assert [entry["ply"] for entry in whole["results"]] == list(range(1, 8))
    assert [entry["ply"] for entry in later["results"]] == [6, 7]
    assert later["next"] is None and later["previous"] is None and later["ply"] == 7


def test_the_chat_is_read_forward_in_pages(auth_client: APIClient, busy_game: str) -> None:
    path = f"/api/v1/games/{busy_game}/chat"

    first = auth_client.get(f"{path}?page_size=2").json()
    rest = auth_client.get(first["next"]).json()

    assert [line["text"] for line in first["results"]] == ["one", "two"]
    assert [line["text"] for line in rest["results"]] == ["three"]
    assert rest["next"] is None and first["previous"] is None


def test_tokens_and_challenges_page_newest_first(
    auth_client: APIClient,
    user: Any,
    user_factory: Callable[..., Any],
    token_factory: Callable[..., Any],
) -> None:
    for name in ("a", "b", "c"):
        token_factory(user, name=name)
    for _ in range(3):
        challenges.challenge_create(challenger=user, destination=user_factory(), preset="serbian")

    tokens = read_all(auth_client, "/api/v1/tokens?page_size=2")
    sent = read_all(auth_client, "/api/v1/challenges?direction=out&page_size=2")

    assert [token["name"] for token in tokens["results"]] == ["c", "b", "a", "test"]
    assert len(sent["results"]) == 3
    created = [challenge["created_at"] for challenge in sent["results"]]
    assert created == sorted(created, reverse=True)


def test_a_short_catalogue_pages_too(api_client: APIClient, bots: list[Any]) -> None:
    first = api_client.get("/api/v1/bots?page_size=3").json()
    rest = api_client.get(first["next"]).json()

    assert [bot["bot_level"] for bot in first["results"]] == [1, 2, 3]
    assert [bot["bot_level"] for bot in rest["results"]] == [4]
    assert api_client.get(rest["previous"]).json()["results"] == first["results"]
