"""Hostile or malformed requests: each one a 4xx in the API's one error shape, never a 500.

Each of these was a 500 once (found by fuzzing): NUL bytes in URL ids, crafted
pagination cursors, JSON nested thousands of levels deep, an overlong username at
login, a body over the upload limit. JSON values of the wrong type are refused too
(the API is strict: the schema's types are the only ones taken).
"""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.conf import settings

from accounts.models import Profile
from remi_site.parsers import MAX_JSON_DEPTH
from tests.gamekit import error_of

pytestmark = pytest.mark.django_db


def nested(depth: int) -> str:
    """A JSON array nested ``depth`` levels deep."""
    return "[" * depth + "]" * depth


def post_json(client: Any, url: str, body: str, method: str = "post") -> Any:
    return getattr(client, method)(url, body, content_type="application/json")


# ------------------------------------------------------------------ NUL bytes in the path


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("get", "/api/v1/games/ab%00cd"),
        ("post", "/api/v1/games/ab%00cd/actions"),
        ("get", "/api/v1/users/ana%00"),
        ("post", "/api/v1/invites/%00code/join"),
    ],
)
def test_a_nul_byte_in_an_api_path_is_a_json_404(auth_client, method, url):
    response = getattr(auth_client, method)(url)

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert error_of(response)["code"] == "not_found"


@pytest.mark.parametrize("url", ["/accounts/players/ana%00/", "/games/ab%00cd/"])
def test_a_nul_byte_in_a_page_path_is_the_404_page(client, user, url):
    client.force_login(user)

    response = client.get(url)

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("url", ["/rules/serbian/?rules=%00", "/moderation/report/?user=ana%00"])
def test_a_nul_byte_in_a_page_query_is_the_400_page(client, user, url):
    client.force_login(user)

    response = client.get(url)

    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    assert "The request could not be read" in response.content.decode()


def test_the_400_page_is_in_the_readers_language(client, user):
    Profile.objects.filter(user=user).update(language="pl")
    client.force_login(user)

    response = client.get("/rules/?rules=%00")

    assert response.status_code == 400
    assert "Nie udało się odczytać żądania" in response.content.decode()


def test_a_nul_byte_in_an_api_query_is_a_json_400(auth_client):
    response = auth_client.get("/api/v1/games?status=%00")

    assert response.status_code == 400
    assert error_of(response)["code"] == "bad_request"


def test_an_admin_lists_year_past_any_number_is_the_list_with_its_error_flag(admin_client):
    response = admin_client.get("/admin/games/game/?created_at__year=99999999999999999999")

    assert response.status_code == 302
    assert response["Location"].endswith("?e=1")


def test_a_username_without_a_nul_byte_still_finds_the_player(api_client, user):
    assert api_client.get("/api/v1/users/ana").status_code == 200


# ------------------------------------------------------------------ pagination cursors


def cursor(querystring: str) -> str:
    return base64.b64encode(querystring.encode()).decode()


@pytest.mark.parametrize(
    "value",
    [
        "cD0tMQ==",  # p=-1: decodes, but -1 is no creation time
        cursor("p=2024-02-30 10:00:00+00:00"),  # no such day
        cursor("p=2024-01-01 10:00:00"),  # ours carry their offset
        cursor("o=x"),
        "not base64!",
        "%00",
    ],
)
def test_a_crafted_cursor_is_a_json_400_invalid_cursor(auth_client, value):
    response = auth_client.get("/api/v1/games", {"cursor": value})

    assert response.status_code == 400
    assert error_of(response)["code"] == "invalid_cursor"


def test_the_next_link_of_a_page_still_leads_to_the_next_page(auth_client, user_factory):
    for _ in range(3):
        auth_client.post("/api/v1/games", {"preset": "serbian", "players": 2}, format="json")

    first = auth_client.get("/api/v1/games", {"page_size": 2}).json()
    second = auth_client.get(first["next"]).json()

    assert len(first["results"]) == 2 and len(second["results"]) == 1
    assert second["results"][0]["id"] not in {game["id"] for game in first["results"]}


# ------------------------------------------------------------------ deeply nested JSON


def test_json_ten_thousand_levels_deep_is_a_json_400_naming_the_limit_at_me(auth_client):
    response = post_json(auth_client, "/api/v1/me", nested(10_000), method="patch")

    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "json_too_deep"
    assert str(MAX_JSON_DEPTH) in error["message"]
    assert error["details"] == {"max_depth": MAX_JSON_DEPTH}


def test_json_ten_thousand_levels_deep_is_a_json_400_at_game_actions(started, client_for):
    game, users = started()
    body = '{"ply": 0, "action": ' + nested(10_000) + "}"

    response = post_json(client_for(users[0]), f"/api/v1/games/{game.public_id}/actions", body)

    assert response.status_code == 400
    assert error_of(response)["code"] == "json_too_deep"


def test_json_ten_thousand_levels_deep_is_a_json_400_at_melds_check(started, client_for):
    game, users = started()
    body = '{"melds": ' + nested(10_000) + "}"

    response = post_json(client_for(users[0]), f"/api/v1/games/{game.public_id}/melds/check", body)

    assert response.status_code == 400
    assert error_of(response)["code"] == "json_too_deep"


def test_json_as_deep_as_the_limit_is_parsed_and_judged_by_its_fields(auth_client):
    body = '{"bio": ' + nested(MAX_JSON_DEPTH - 1) + "}"

    response = post_json(auth_client, "/api/v1/me", body, method="patch")

    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "invalid"
    assert set(error["details"]["fields"]) == {"bio"}


def test_brackets_inside_json_strings_do_not_count_as_nesting(auth_client):
    bio = '[[[{{{"\\"' * 40

    response = auth_client.patch("/api/v1/me", {"bio": bio}, format="json")

    assert response.status_code == 200
    assert auth_client.get("/api/v1/users/ana").json()["bio"] == bio


# ------------------------------------------------------------------ login


def test_an_overlong_username_at_login_is_a_400_naming_the_field(api_client):
    response = api_client.post(
        "/api/v1/auth/login", {"username": "a" * 300, "password": "x"}, format="json"
    )

    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "invalid"
    assert set(error["details"]["fields"]) == {"username"}
    assert not AccessAttempt.objects.exists()  # refused before the lockout counts it


def test_an_overlong_username_at_the_login_page_is_the_form_again_naming_the_field(client):
    response = client.post("/accounts/login/", {"username": "a" * 5000, "password": "x"})

    assert response.status_code == 200
    assert "username" in response.context["form"].errors
    assert not AccessAttempt.objects.exists()  # refused before the lockout counts it


# ------------------------------------------------------------------ body size


def test_a_body_over_the_upload_limit_is_a_json_413(auth_client):
    body = json.dumps({"name": "x" * (10 * 1024 * 1024)})

    response = post_json(auth_client, "/api/v1/tokens", body)

    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"
    error = error_of(response)
    assert error["code"] == "payload_too_large"
    assert error["details"] == {"max_bytes": settings.DATA_UPLOAD_MAX_MEMORY_SIZE}


# ------------------------------------------------------------------ strict JSON types


@pytest.mark.parametrize(
    ("url", "body", "field"),
    [
        ("/api/v1/tokens", {"name": "bot", "expires_in_days": "30"}, "expires_in_days"),
        ("/api/v1/tokens", {"name": "bot", "expires_in_days": True}, "expires_in_days"),
        ("/api/v1/tokens", {"name": 7}, "name"),
        ("/api/v1/games", {"preset": "serbian", "players": "2"}, "players"),
        ("/api/v1/games", {"preset": "serbian", "players": 2, "rated": "true"}, "rated"),
        ("/api/v1/games", {"preset": "serbian", "players": 2, "rated": 1}, "rated"),
        ("/api/v1/me/vacation/start", {"days": "2"}, "days"),
    ],
)
def test_a_json_value_of_the_wrong_type_is_a_400_naming_the_field(auth_client, url, body, field):
    response = auth_client.post(url, body, format="json")

    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "invalid"
    assert set(error["details"]["fields"]) == {field}
    assert error["details"]["fields"][field][0].startswith("Expected ")


def test_wrong_types_inside_lists_are_named_by_their_place(started, client_for):
    game, users = started()

    response = client_for(users[0]).post(
        f"/api/v1/games/{game.public_id}/melds/check", {"melds": [[1, "2", 3]]}, format="json"
    )

    assert response.status_code == 400
    fields = error_of(response)["details"]["fields"]
    assert fields == {"melds": {"0": {"1": ["Expected an integer, got a string."]}}}


def test_a_whole_number_written_as_a_float_is_still_an_integer(auth_client):
    response = auth_client.post(
        "/api/v1/tokens", {"name": "bot", "expires_in_days": 30.0}, format="json"
    )

    assert response.status_code == 201


def test_query_parameters_are_text_and_still_parsed(auth_client):
    response = auth_client.get("/api/v1/games", {"mine": "true", "page_size": "5"})

    assert response.status_code == 200


# ------------------------------------------------------------------ a move's body, taken as sent

# A move's usual body (an action and a whole ply) skips the serializer; whatever its
# action holds is then refused by the play command's own reading, as a 400.
ODD_ACTIONS = [
    123,
    True,
    "",
    "fly away",
    [],
    ["discard", "7H"],
    {},
    {"type": 7},
    {"type": "discard"},
    {"type": "discard", "card": ["7H"]},
    {"type": "lay", "melds": "7H 8H 9H"},
    {"type": "lay", "melds": [[None]]},
    "discard \x00",
]


@pytest.mark.parametrize("action", ODD_ACTIONS, ids=repr)
def test_an_odd_action_in_the_usual_body_is_a_4xx_at_actions_and_turn(started, client_for, action):
    game, users = started()
    for path, body in (
        ("actions", {"ply": game.ply, "action": action}),
        ("turn", {"ply": game.ply, "actions": [action]}),
    ):
        for client in (client_for(user) for user in users):  # the seat to move, and not
            response = post_json(client, f"/api/v1/games/{game.public_id}/{path}", json.dumps(body))
            assert 400 <= response.status_code < 500, (path, action, response.content[:200])
            assert error_of(response)["code"]
