"""House rules before anyone joins: a preset that leaves scoring to the players says so
(`scoring_by_agreement`), a game created with its scores as house rules keeps them,
and the open-game list and the game view show every rule that differs from the preset."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import PRESETS
from tests.gamekit import SchemaChecker, error_of

pytestmark = pytest.mark.django_db

SCORES = {
    "normal_close": {"winner": -30, "multiplier": 1, "bonus": 0, "unopened": 100},
    "dry_hand_close": {"winner": -60, "multiplier": 3, "bonus": 0, "unopened": None},
    "joker_close_doubles": False,
}


def create(client: Any, **body: Any) -> Any:
    body = {"preset": "macedonian", "players": 2, **body}
    return client.post("/api/v1/games", body, format="json")


def test_only_the_macedonian_preset_leaves_its_scoring_to_the_players(players: Any) -> None:
    (client,) = players(1)

    page = client.get("/api/v1/rulesets").json()

    presets = page["results"] if isinstance(page, dict) else page
    agreed = {preset["name"]: preset["scoring_by_agreement"] for preset in presets}
    assert agreed == {
        "macedonian": True,
        "serbian": False,
        "serbian_old_remi": False,
        "polish51": False,
    }


def test_a_games_scoring_house_rules_are_listed_before_anyone_joins(players: Any) -> None:
    host, guest = players(2)
    created = create(host, overrides=SCORES)
    assert created.status_code == 201, created.json()
    game = created.json()

    listed = guest.get("/api/v1/games?status=open").json()["results"]
    (entry,) = [item for item in listed if item["id"] == game["id"]]
    rules = {rule["name"]: rule for rule in entry["house_rules"]}
    assert set(rules) == {"normal_close", "dry_hand_close", "joker_close_doubles"}
    assert rules["normal_close"]["game"] == "winner -30, others ×1, never opened 100"
    assert rules["normal_close"]["preset"] == "winner -20, others ×1"
    assert rules["joker_close_doubles"]["game"] == "no"
    assert all(rule["meaning"] for rule in entry["house_rules"])
    checker = SchemaChecker(guest)
    checker.check("GET", "/api/v1/games", 200, guest.get("/api/v1/games?status=open").json())

    view = guest.get(f"/api/v1/games/{game['id']}").json()
    assert {rule["name"] for rule in view["house_rules"]} == set(rules)
    checker.check("GET", "/api/v1/games/{game_id}", 200, view)


def test_a_game_by_the_book_has_no_house_rules(players: Any) -> None:
    host, guest = players(2)
    game = create(host, preset="serbian").json()

    listed = guest.get("/api/v1/games?status=open").json()["results"]

    assert next(item for item in listed if item["id"] == game["id"])["house_rules"] == []
    assert game["house_rules"] == []


def test_lists_of_running_games_leave_the_ruleset_in_the_database(players: Any) -> None:
    host, guest = players(2)
    game = create(host, overrides=SCORES).json()
    guest.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    host.post(f"/api/v1/games/{game['id']}/start")

    running = host.get("/api/v1/games?status=active&mine=true").json()["results"]

    assert running[0]["house_rules"] is None


def test_scores_out_of_the_engines_range_are_refused_with_its_reason(players: Any) -> None:
    (host,) = players(1)
    row = {**SCORES["dry_hand_close"], "multiplier": 99}

    refused = create(host, overrides={"dry_hand_close": row})

    assert refused.status_code == 400
    error = error_of(refused)
    assert error["code"] == "invalid_ruleset" and "dry_hand_close.multiplier" in error["message"]
    assert PRESETS["macedonian"].dry_hand_close.multiplier == 2
