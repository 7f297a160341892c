"""POST /games/{id}/resign."""

from __future__ import annotations

import pytest

from tests.gamekit import SchemaChecker, error_of, table_create

pytestmark = pytest.mark.django_db
RESIGN = "/api/v1/games/{game_id}/resign"


def test_resigning_a_two_player_game_hands_the_others_the_win(players, deals_seeded):
    table = table_create(players(2), preset="serbian")

    response = table.clients[0].post(table.url("/resign"))

    assert response.status_code == 200
    view = response.json()
    assert view["status"] == "finished" and view["winners"] == [1]
    assert view["end_reason"] == "resigned" and view["seats"][0]["status"] == "out"
    SchemaChecker(table.clients[0]).check("POST", RESIGN, 200, view)
    again = table.clients[0].post(table.url("/resign"))
    assert again.status_code == 409 and error_of(again)["code"] == "game_not_active"


def test_in_a_four_player_game_the_others_play_on(players, deals_seeded):
    table = table_create(players(4), preset="polish51")

    response = table.clients[2].post(table.url("/resign"))

    view = response.json()
    assert view["status"] == "active"
    assert [s["status"] for s in view["seats"]] == ["active", "active", "out", "active"]
    assert view["can"]["resign"] is False and view["can"]["act"] == []
    table.play_turns(check_every=40)  # the server plays seat 2's turns to the end
    assert 2 not in table.game.winners


def test_outsiders_and_lobbies_cannot_resign(players, client_for, user_factory, deals_seeded):
    table = table_create(players(2), preset="serbian")
    host = table.clients[0]
    lobby = host.post("/api/v1/games", {"preset": "serbian", "players": 2}, format="json").json()

    outsider = client_for(user_factory()).post(table.url("/resign"))
    early = host.post(f"/api/v1/games/{lobby['id']}/resign")

    assert outsider.status_code == 403 and error_of(outsider)["code"] == "not_a_player"
    assert early.status_code == 409 and error_of(early)["code"] == "game_not_active"
