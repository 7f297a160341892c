"""GET /api/v1/rulesets: the presets with every field."""

from __future__ import annotations

import dataclasses

import pytest

from games.engine import PRESETS, Ruleset
from tests.gamekit import SchemaChecker

pytestmark = pytest.mark.django_db


def test_it_lists_every_preset_with_every_field(api_client):
    response = api_client.get("/api/v1/rulesets")

    assert response.status_code == 200
    body = response.json()
    assert body["next"] is None and body["previous"] is None
    assert [p["name"] for p in body["results"]] == list(PRESETS)
    for preset in body["results"]:
        assert preset["ruleset"] == PRESETS[preset["name"]].to_dict()
        assert set(preset["ruleset"]) == {f.name for f in dataclasses.fields(Ruleset)}
    SchemaChecker(api_client).check("GET", "/api/v1/rulesets", 200, body)


def test_it_only_allows_get(auth_client):
    assert auth_client.post("/api/v1/rulesets", {}).status_code == 405
