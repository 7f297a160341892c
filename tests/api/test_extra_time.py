"""Extra time on one correspondence turn: asked by the player to move, granted or
declined by another player; a grant moves the deadline."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from games.engine import Discard
from games.play.act import game_act
from tests.gamekit import current_engine_deal, error_of

pytestmark = pytest.mark.django_db


def _url(game: Any, suffix: str = "") -> str:
    return f"/api/v1/games/{game.public_id}/extra-time{suffix}"


def test_granting_moves_the_deadline(started: Any, client_for: Any) -> None:
    game, users = started(2)
    asker, other = client_for(users[game.to_move]), client_for(users[1 - game.to_move])
    before = game.deadline_at

    asked = asker.post(_url(game), {"days": 3})
    granted = other.post(_url(game, f"/{asked.json()['id']}/grant"))

    assert asked.status_code == 201 and asked.json()["status"] == "pending"
    assert granted.status_code == 200 and granted.json()["status"] == "granted"
    game.refresh_from_db()
    assert game.deadline_at == before + timedelta(days=3)
    assert other.get(f"/api/v1/games/{game.public_id}").json()["deadline_at"] is not None


def test_declining_leaves_the_deadline(started: Any, client_for: Any) -> None:
    game, users = started(2)
    asker, other = client_for(users[game.to_move]), client_for(users[1 - game.to_move])
    before = game.deadline_at
    request_id = asker.post(_url(game), {"days": 2}).json()["id"]

    declined = other.post(_url(game, f"/{request_id}/decline"))

    assert declined.json()["status"] == "declined"
    game.refresh_from_db()
    assert game.deadline_at == before
    listed = asker.get(_url(game)).json()["results"]
    assert [(row["id"], row["status"]) for row in listed] == [(request_id, "declined")]


def test_only_another_player_answers(started: Any, client_for: Any, spectator: Any) -> None:
    game, users = started(2)
    asker = client_for(users[game.to_move])
    request_id = asker.post(_url(game), {"days": 1}).json()["id"]

    assert error_of(asker.post(_url(game, f"/{request_id}/grant")))["code"] == "own_request"
    assert spectator.post(_url(game, f"/{request_id}/grant")).status_code == 403


def test_asking_is_for_your_own_turn_once_at_a_time(started: Any, client_for: Any) -> None:
    game, users = started(2)
    asker, other = client_for(users[game.to_move]), client_for(users[1 - game.to_move])

    assert error_of(other.post(_url(game), {"days": 1}))["code"] == "not_your_turn"
    assert asker.post(_url(game), {"days": 1}).status_code == 201
    assert error_of(asker.post(_url(game), {"days": 1}))["code"] == "request_pending"


@pytest.mark.parametrize("days", [0, 8, "2", None, 1.5])
def test_days_are_1_to_7(started: Any, client_for: Any, days: Any) -> None:
    game, users = started(2)

    response = client_for(users[game.to_move]).post(_url(game), {"days": days})

    assert response.status_code == 400


def test_a_request_expires_with_its_turn(started: Any, client_for: Any) -> None:
    game, users = started(2)
    mover = users[game.to_move]
    other = client_for(users[1 - game.to_move])
    request_id = client_for(mover).post(_url(game), {"days": 2}).json()["id"]
    deal = current_engine_deal(game)
    card = next(card for card in deal.hand(deal.to_move) if not card.is_joker)
    game_act(game=game, user=mover, action=Discard(card), expected_ply=game.ply)
    game.refresh_from_db()
    before = game.deadline_at

    response = other.post(_url(game, f"/{request_id}/grant"))

    assert response.status_code == 409
    assert error_of(response)["code"] == "request_expired"
    game.refresh_from_db()
    assert game.deadline_at == before


def test_live_games_have_no_extra_time(started: Any, client_for: Any) -> None:
    game, users = started(2, time_control="live")

    response = client_for(users[game.to_move]).post(_url(game), {"days": 1})

    assert error_of(response)["code"] == "not_correspondence"


def test_an_unknown_request_is_a_404(started: Any, client_for: Any) -> None:
    game, users = started(2)

    assert client_for(users[0]).post(_url(game, "/999999/grant")).status_code == 404
