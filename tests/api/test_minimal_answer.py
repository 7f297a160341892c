"""A move's short answer: with ``Prefer: return=minimal`` (RFC 7240), ``POST /actions``
and ``POST /turn`` answer the moves and where the game stands after them, in the game
view's own fields, instead of the whole game; without it, the whole game as before."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.api.progress_serializers import wants_minimal
from tests.gamekit import SchemaChecker

pytestmark = pytest.mark.django_db

ACTIONS = "/api/v1/games/{game_id}/actions"
TURN = "/api/v1/games/{game_id}/turn"
MINIMAL = {"HTTP_PREFER": "return=minimal"}
PROGRESS_FIELDS = [
    "id",
    "status",
    "ply",
    "deadline_at",
    "turn_ends_at",
    "deal_number",
    "to_move",
    "winners",
    "end_reason",
    "pause",
]


def mover_and_view(
    started: Callable[..., Any], client_for: Callable[[Any], APIClient]
) -> tuple[Any, APIClient, APIClient, dict[str, Any]]:
    game, users = started(2)
    game.refresh_from_db()
    mover = client_for(users[game.to_move])
    other = client_for(users[1 - game.to_move])
    return game, mover, other, mover.get(f"/api/v1/games/{game.public_id}").json()


def a_discard(view: dict[str, Any]) -> str:
    return f"discard {view['deal']['legal']['discards'][0]}"


def test_a_move_that_prefers_minimal_answers_the_move_and_where_the_game_stands(
    started: Callable[..., Any], client_for: Callable[[Any], APIClient]
) -> None:
    game, mover, other, view = mover_and_view(started, client_for)

    answer = mover.post(
        ACTIONS.format(game_id=game.public_id),
        {"action": a_discard(view), "ply": view["ply"]},
        format="json",
        HTTP_IDEMPOTENCY_KEY="minimal-1",
        **MINIMAL,
    )

    assert answer.status_code == 200, answer.json()
    assert answer["Preference-Applied"] == "return=minimal"
    assert "Prefer" in answer["Vary"]
    body = answer.json()
    SchemaChecker(mover).check("POST", ACTIONS, 200, body)
    whole = other.get(f"/api/v1/games/{game.public_id}").json()
    assert list(body["game"]) == PROGRESS_FIELDS
    assert body["game"] == {name: whole[name] for name in PROGRESS_FIELDS}
    assert body["game"]["ply"] == view["ply"] + 1
    assert body["move"]["kind"] == "discard" and body["replayed"] is False


def test_a_move_without_the_preference_answers_the_whole_game(
    started: Callable[..., Any], client_for: Callable[[Any], APIClient]
) -> None:
    game, mover, _other, view = mover_and_view(started, client_for)

    answer = mover.post(
        ACTIONS.format(game_id=game.public_id),
        {"action": a_discard(view), "ply": view["ply"]},
        format="json",
        HTTP_PREFER="return=representation",
    )

    assert answer.status_code == 200, answer.json()
    assert "Preference-Applied" not in answer
    SchemaChecker(mover).check("POST", ACTIONS, 200, answer.json())
    assert answer.json()["game"]["deal"]["hand"]


def test_a_retried_move_that_prefers_minimal_answers_the_first_move_and_the_game_now(
    started: Callable[..., Any], client_for: Callable[[Any], APIClient]
) -> None:
    game, mover, other, view = mover_and_view(started, client_for)
    request = {"action": a_discard(view), "ply": view["ply"]}
    url = ACTIONS.format(game_id=game.public_id)
    first = mover.post(url, request, format="json", HTTP_IDEMPOTENCY_KEY="again", **MINIMAL)

    again = mover.post(url, request, format="json", HTTP_IDEMPOTENCY_KEY="again", **MINIMAL)

    assert again.status_code == 200, again.json()
    assert again["Idempotent-Replayed"] == "true"
    SchemaChecker(mover).check("POST", ACTIONS, 200, again.json())
    assert again.json()["replayed"] is True
    assert again.json()["move"] == first.json()["move"]
    whole = other.get(f"/api/v1/games/{game.public_id}").json()
    assert again.json()["game"] == {name: whole[name] for name in PROGRESS_FIELDS}


def test_a_whole_turn_that_prefers_minimal_answers_its_moves_and_where_the_game_stands(
    started: Callable[..., Any], client_for: Callable[[Any], APIClient]
) -> None:
    game, mover, other, view = mover_and_view(started, client_for)

    answer = mover.post(
        TURN.format(game_id=game.public_id),
        {"actions": [a_discard(view)], "ply": view["ply"]},
        format="json",
        HTTP_PREFER='wait=5, RETURN="minimal"',
    )

    assert answer.status_code == 200, answer.json()
    assert answer["Preference-Applied"] == "return=minimal"
    SchemaChecker(mover).check("POST", TURN, 200, answer.json())
    whole = other.get(f"/api/v1/games/{game.public_id}").json()
    assert answer.json()["game"] == {name: whole[name] for name in PROGRESS_FIELDS}
    assert [move["kind"] for move in answer.json()["moves"]] == ["discard"]


def test_the_short_answer_shows_no_card_but_the_movers_own(
    started: Callable[..., Any], client_for: Callable[[Any], APIClient]
) -> None:
    game, mover, other, view = mover_and_view(started, client_for)
    url = ACTIONS.format(game_id=game.public_id)
    mover.post(url, {"action": a_discard(view), "ply": view["ply"]}, format="json")
    before = other.get(f"/api/v1/games/{game.public_id}").json()

    drawn = other.post(url, {"action": "draw", "ply": before["ply"]}, format="json", **MINIMAL)

    body = drawn.json()
    after = other.get(f"/api/v1/games/{game.public_id}").json()
    own = {(pair["id"], pair["card"]) for pair in after["deal"]["hand"]}
    card = body["move"]["event"]["card"]
    assert (card["id"], card["card"]) in own
    assert "deal" not in body["game"] and "seats" not in body["game"]


@pytest.mark.parametrize(
    ("header", "minimal"),
    [
        (None, False),
        ("", False),
        ("return=minimal", True),
        ("Return = Minimal", True),
        ('return="minimal"', True),
        ("respond-async, return=minimal; extra=1", True),
        ("return=representation", False),
        ("minimal", False),
        ("return-minimal", False),
    ],
)
def test_the_prefer_header_is_read_as_rfc_7240_says(header: str | None, minimal: bool) -> None:
    assert wants_minimal(header) is minimal
