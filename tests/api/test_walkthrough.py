"""docs/walkthrough.md, the API played step by step."""

from __future__ import annotations

import uuid

import pytest

pytestmark = pytest.mark.django_db


def test_the_walkthrough_plays_a_game(auth_client, bots, deals_seeded):
    assert auth_client.get("/api/v1/rulesets").status_code == 200
    created = auth_client.post(
        "/api/v1/games",
        {
            "preset": "serbian",
            "players": 2,
            "bots": ["greedy-goran"],
            "overrides": {"hand_needs_51": False},
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    game = created.json()["id"]
    assert created.json()["can"]["start"] is True

    started = auth_client.post(f"/api/v1/games/{game}/start")
    assert started.status_code == 200, started.json()
    view = auth_client.get(f"/api/v1/games/{game}").json()
    assert view["you"] == 0 and view["to_move"] == 0 and view["deal"]["phase"] == "play"
    assert "discard" in view["can"]["act"]

    card = view["deal"]["hand"][-1]["card"]
    body = {"action": {"type": "discard", "card": card}, "ply": view["ply"]}
    key = str(uuid.uuid4())
    moved = auth_client.post(
        f"/api/v1/games/{game}/actions", body, format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    assert moved.status_code == 200, moved.json()
    assert moved.json()["move"]["kind"] == "discard"
    retried = auth_client.post(
        f"/api/v1/games/{game}/actions", body, format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    assert retried.json()["replayed"] is True

    assert auth_client.get(f"/api/v1/games/{game}/moves?after=0").status_code == 200
    assert auth_client.post(f"/api/v1/games/{game}/resign").status_code == 200
