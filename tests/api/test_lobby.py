"""POST /games/{id}/join, /leave, /start, /abort."""

from __future__ import annotations

import pytest

from games.models import Game, Seat
from tests.gamekit import SchemaChecker, error_of

pytestmark = pytest.mark.django_db


def url(game_id: str, action: str) -> str:
    return f"/api/v1/games/{game_id}/{action}"


def new_game(client, **body):
    body = {"preset": "serbian", "players": 2, **body}
    return client.post("/api/v1/games", body, format="json").json()


def test_join_start_and_play_positions(players):
    host, guest = players(2)
    game = new_game(host)

    joined = guest.post(url(game["id"], "join"), {}, format="json")
    started = host.post(url(game["id"], "start"))

    assert joined.status_code == 200 and joined.json()["you"] == 1
    assert started.status_code == 200
    view = started.json()
    assert view["status"] == "active" and view["deal_number"] == 1 and view["you"] == 0
    assert len(view["deal"]["hand"]) == 15  # serbian: the starter (seat 0) gets 15
    checker = SchemaChecker(host)
    checker.check("POST", "/api/v1/games/{game_id}/join", 200, joined.json())
    checker.check("POST", "/api/v1/games/{game_id}/start", 200, view)


def test_a_private_game_is_joined_with_its_invite_code(players):
    host, guest = players(2)
    game = new_game(host, visibility="private")

    without = guest.post(url(game["id"], "join"), {}, format="json")
    wrong = guest.post(url(game["id"], "join"), {"invite_code": "nope"}, format="json")
    right = guest.post(url(game["id"], "join"), {"invite_code": game["invite_code"]}, format="json")

    assert without.status_code == wrong.status_code == 404
    assert right.status_code == 200 and right.json()["invite_code"] == game["invite_code"]


def test_join_errors(players):
    host, guest, late = players(3)
    game = new_game(host)
    guest.post(url(game["id"], "join"), {}, format="json")

    full = late.post(url(game["id"], "join"), {}, format="json")
    unknown = late.post(url("nosuchgame00", "join"), {}, format="json")

    assert full.status_code == 409 and error_of(full)["code"] == "game_full"
    assert unknown.status_code == 404
    SchemaChecker(late).check("POST", "/api/v1/games/{game_id}/join", 409, full.json())


def test_start_errors(players):
    host, guest = players(2)
    game = new_game(host)

    early = host.post(url(game["id"], "start"))
    guest.post(url(game["id"], "join"), {}, format="json")
    not_host = guest.post(url(game["id"], "start"))
    host.post(url(game["id"], "start"))
    twice = host.post(url(game["id"], "start"))

    assert early.status_code == 409 and error_of(early)["code"] == "not_enough_players"
    assert not_host.status_code == 403 and error_of(not_host)["code"] == "not_host"
    assert twice.status_code == 409 and error_of(twice)["code"] == "game_not_in_lobby"


def test_leave_frees_a_lobby_seat(players):
    host, guest = players(2)
    game = new_game(host)
    guest.post(url(game["id"], "join"), {}, format="json")

    response = guest.post(url(game["id"], "leave"))

    assert response.status_code == 204
    assert Seat.objects.filter(game__public_id=game["id"]).count() == 1
    SchemaChecker(guest).check("POST", "/api/v1/games/{game_id}/leave", 204, None)


def test_leaving_and_rejoining_a_running_game_keeps_the_score(players, quick_deals):
    host, guest = players(2)
    game = new_game(host)
    guest.post(url(game["id"], "join"), {}, format="json")
    host.post(url(game["id"], "start"))
    from tests.gamekit import quick_actions

    for ply, action in enumerate(quick_actions()):
        body = {"action": action.to_dict(), "ply": ply}
        assert host.post(url(game["id"], "actions"), body, format="json").status_code == 200

    left = guest.post(url(game["id"], "leave"))
    away = guest.get(f"/api/v1/games/{game['id']}").json()
    back = guest.post(url(game["id"], "join"), {}, format="json").json()

    assert left.status_code == 204
    assert away["seats"][1]["status"] == "left" and away["seats"][1]["total"] == 400
    assert away["can"]["join"] is True
    assert back["seats"][1]["status"] == "active" and back["seats"][1]["total"] == 400


def test_leave_errors(players):
    host, outsider = players(2)
    game = new_game(host)

    response = outsider.post(url(game["id"], "leave"))

    assert response.status_code == 403 and error_of(response)["code"] == "not_a_player"


def test_the_host_aborts_the_lobby(players):
    host, guest = players(2)
    game = new_game(host)

    refused = guest.post(url(game["id"], "abort"))
    aborted = host.post(url(game["id"], "abort"))
    again = host.post(url(game["id"], "abort"))

    assert refused.status_code == 403 and error_of(refused)["code"] == "not_host"
    assert aborted.status_code == 200 and aborted.json()["status"] == "aborted"
    assert again.status_code == 409 and error_of(again)["code"] == "game_over"
    assert Game.objects.get(public_id=game["id"]).status == Game.Status.ABORTED
