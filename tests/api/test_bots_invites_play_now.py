"""GET /bots, POST /games/play-now, POST /invites/{code}/join, the my_turn filter."""

from __future__ import annotations

import pytest

from tests.gamekit import SchemaChecker, current_engine_deal, error_of

pytestmark = pytest.mark.django_db


def test_the_bots_are_listed_weakest_first(api_client, bots):
    response = api_client.get("/api/v1/bots")

    assert response.status_code == 200
    body = response.json()
    assert [b["username"] for b in body["results"]] == [bot.username for bot in bots]
    assert [b["bot_level"] for b in body["results"]] == [1, 2, 3, 4]
    SchemaChecker(api_client).check("GET", "/api/v1/bots", 200, body)


def test_play_now_starts_a_game_against_bots(auth_client, bots, deals_seeded):
    response = auth_client.post(
        "/api/v1/games/play-now", {"preset": "polish51", "bots": 2, "level": 3}, format="json"
    )

    assert response.status_code == 201, response.json()
    view = response.json()
    # Remik 51 seats the table by drawn cards: the person may sit anywhere.
    assert view["status"] == "active" and view["you"] in (0, 1, 2)
    assert [s["user"]["is_bot"] for s in view["seats"]].count(False) == 1
    assert not view["seats"][view["you"]]["user"]["is_bot"]
    assert view["time_control"]["kind"] == "live"
    SchemaChecker(auth_client).check("POST", "/api/v1/games/play-now", 201, view)
    bad = auth_client.post("/api/v1/games/play-now", {"preset": "serbian", "bots": 4})
    assert bad.status_code == 400 and error_of(bad)["code"] == "invalid"


def test_a_private_game_is_joined_by_its_code_alone(players):
    host, guest, late = players(3)
    game = host.post(
        "/api/v1/games", {"preset": "serbian", "players": 2, "visibility": "private"}
    ).json()

    joined = guest.post(f"/api/v1/invites/{game['invite_code']}/join")
    full = late.post(f"/api/v1/invites/{game['invite_code']}/join")
    unknown = late.post("/api/v1/invites/nosuchcode/join")

    assert joined.status_code == 200 and joined.json()["id"] == game["id"]
    assert joined.json()["you"] == 1
    assert full.status_code == 409 and error_of(full)["code"] == "game_full"
    assert unknown.status_code == 404 and error_of(unknown)["code"] == "not_found"
    SchemaChecker(guest).check("POST", "/api/v1/invites/{invite_code}/join", 200, joined.json())


def test_my_turn_lists_the_games_waiting_for_me(started, client_for):
    first, users = started(players=2, preset="polish51")
    second, _ = started(players=2, preset="polish51")  # other people's game
    mover = current_engine_deal(first).to_move
    me = users[mover]
    waiting = users[1 - mover]

    mine = client_for(me).get("/api/v1/games?status=my_turn").json()["results"]
    theirs = client_for(waiting).get("/api/v1/games?status=my_turn").json()["results"]
    listed = client_for(me).get("/api/v1/games?mine=true").json()["results"]

    assert [g["id"] for g in mine] == [first.public_id]
    assert theirs == []
    assert listed[0]["to_move"] == mover
    assert second.public_id not in [g["id"] for g in mine]
