"""What the OpenAPI schema (/api/schema/) says matches what the server does, for what a
generated client or a bot author meets first: a stale move's ``details.current_ply``,
a move's text form, a live turn's bounds, the two 401 codes, a challenge's default time
control; docs/api.md tells of ``/hint``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Game

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
REQUESTS_WITH_A_TURN = ["GameCreateRequest", "PlayNowRequest", "ChallengeCreateRequest"]


@pytest.fixture
def schema(api_client: APIClient) -> dict[str, Any]:
    answer = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert answer.status_code == 200
    document: dict[str, Any] = answer.json()
    return document


def components(schema: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = schema["components"]["schemas"]
    return found


def operation(schema: dict[str, Any], path: str, method: str) -> dict[str, Any]:
    found: dict[str, Any] = schema["paths"][path][method]
    return found


# ------------------------------------------------------------------ a stale move


def test_a_stale_move_answers_the_current_ply_the_schema_names(
    schema: dict[str, Any], started: Callable[..., Any], client_for: Callable[[Any], APIClient]
) -> None:
    game, users = started(2)
    mover = client_for(users[game.to_move])

    answer = mover.post(
        f"/api/v1/games/{game.public_id}/actions",
        {"action": "draw", "ply": game.ply + 5},
        format="json",
    )

    details = components(schema)["ErrorDetail"]["properties"]["details"]["description"]
    assert "`current_ply`" in details and "`ply`" not in details
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "stale_ply"
    assert answer.json()["error"]["details"] == {"current_ply": game.ply}


# ------------------------------------------------------------------ a move's text form


def test_a_move_may_be_an_object_or_its_text_form_in_the_schema_and_on_the_server(
    schema: dict[str, Any], started: Callable[..., Any], client_for: Callable[[Any], APIClient]
) -> None:
    action = components(schema)["ActRequest"]["properties"]["action"]
    kinds = [member.get("type") or member.get("$ref") for member in action["oneOf"]]
    game, users = started(2)
    game.refresh_from_db()
    mover = client_for(users[game.to_move])
    view = mover.get(f"/api/v1/games/{game.public_id}").json()
    legal = view["deal"]["legal"]
    text = "draw" if legal["draw"] else f"discard {legal['discards'][0]}"

    answer = mover.post(
        f"/api/v1/games/{game.public_id}/actions",
        {"action": text, "ply": view["ply"]},
        format="json",
    )

    assert kinds == ["string", "#/components/schemas/ActionRequest"]
    assert action["oneOf"][0]["example"] == "discard 5C"
    assert answer.status_code == 200, answer.json()
    assert answer.json()["move"]["kind"] == text.split()[0]


# ------------------------------------------------------------------ a live turn's bounds


@pytest.mark.parametrize("name", REQUESTS_WITH_A_TURN)
def test_the_schema_bounds_a_live_turn_from_10_to_3600_seconds(
    schema: dict[str, Any], name: str
) -> None:
    seconds = components(schema)[name]["properties"]["seconds_per_turn"]

    assert (seconds["minimum"], seconds["maximum"], seconds["nullable"]) == (10, 3600, True)


@pytest.mark.parametrize(("seconds", "status"), [(9, 400), (10, 201), (3600, 201), (3601, 400)])
def test_the_server_holds_a_live_turn_to_the_bounds_the_schema_states(
    client_for: Callable[[Any], APIClient],
    user_factory: Callable[..., Any],
    seconds: int,
    status: int,
) -> None:
    host = client_for(user_factory())

    answer = host.post(
        "/api/v1/games",
        {"preset": "serbian", "players": 2, "time_control": "live", "seconds_per_turn": seconds},
        format="json",
    )

    assert answer.status_code == status, answer.json()
    if status == 400:
        assert answer.json()["error"]["code"] == "invalid_time_control"


# ------------------------------------------------------------------ 401


def test_a_revoked_token_answers_401_authentication_failed_as_the_schema_lists(
    schema: dict[str, Any],
    user_factory: Callable[..., Any],
    client_for: Callable[[Any], APIClient],
) -> None:
    user = user_factory()
    revoked, keeper = client_for(user), client_for(user)
    tokens = keeper.get("/api/v1/tokens").json()["results"]
    oldest = min(tokens, key=lambda token: token["created"])

    gone = keeper.delete(f"/api/v1/tokens/{oldest['id']}")
    with_it = revoked.get("/api/v1/me")
    wrong = APIClient()
    wrong.credentials(HTTP_AUTHORIZATION="Bearer remi_not-a-token")
    with_a_wrong_one = wrong.get("/api/v1/me")
    without = APIClient().get("/api/v1/me")

    assert gone.status_code == 204
    assert with_it.status_code == with_a_wrong_one.status_code == without.status_code == 401
    assert with_it.json()["error"]["code"] == "authentication_failed"
    assert with_a_wrong_one.json()["error"]["code"] == "authentication_failed"
    assert without.json()["error"]["code"] == "not_authenticated"
    listed = operation(schema, "/api/v1/me", "get")["responses"]["401"]["description"]
    act = operation(schema, "/api/v1/games/{game_id}/actions", "post")
    assert "`authentication_failed`" in listed and "`not_authenticated`" in listed
    assert act["responses"]["401"]["description"] == listed


# ------------------------------------------------------------------ challenges


def test_a_challenge_is_correspondence_unless_it_says_otherwise_as_the_schema_states(
    schema: dict[str, Any],
    user_factory: Callable[..., Any],
    client_for: Callable[[Any], APIClient],
) -> None:
    challenger = client_for(user_factory())
    other = user_factory()
    kind = components(schema)["ChallengeCreateRequest"]["properties"]["time_control"]

    made = challenger.post(
        "/api/v1/challenges", {"to": other.username, "preset": "serbian"}, format="json"
    )

    assert kind["default"] == "correspondence" and "`correspondence`" in kind["description"]
    assert made.status_code == 201, made.json()
    assert made.json()["time_control"]["kind"] == Game.TimeControl.CORRESPONDENCE
    assert made.json()["time_control"]["days_per_move"] == 3


# ------------------------------------------------------------------ the docs


def test_docs_api_md_tells_of_the_hint_and_what_a_bot_must_do_between_deals() -> None:
    text = (ROOT / "docs" / "api.md").read_text()

    assert "POST /api/v1/games/{id}/hint" in text
    assert "POST /api/v1/games/{id}/ready" in text and "bot account" in text
    assert "authentication_failed" in text and "view.legal" in text
