"""POST /games/{id}/actions: moves, the ply guard, idempotency, every error."""

from __future__ import annotations

import pytest
from rest_framework.throttling import SimpleRateThrottle

from games.models import Move
from tests.gamekit import (
    SchemaChecker,
    assert_view_hides_secrets,
    current_engine_deal,
    error_of,
    greedy_action,
    table_create,
)

pytestmark = pytest.mark.django_db
ACTIONS = "/api/v1/games/{game_id}/actions"


@pytest.fixture
def table(players, deals_seeded):
    return table_create(players(2), preset="polish51")


def mover_of(table):
    game = table.game
    return current_engine_deal(game).to_move, game.ply


def test_a_move_answers_with_the_move_and_the_new_state(table):
    seat, ply = mover_of(table)

    response = table.clients[seat].post(
        table.url("/actions"), {"action": {"type": "draw"}, "ply": ply}, format="json"
    )

    assert response.status_code == 200
    body = response.json()
    assert body["replayed"] is False
    assert body["move"]["ply"] == 1 and body["move"]["kind"] == "draw"
    drawn = body["move"]["event"]["card"]  # the mover sees the card drawn
    assert body["game"]["deal"]["hand"][-1] == drawn
    assert body["game"]["ply"] == 1 and body["game"]["can"]["act"][-1] == "discard"
    assert_view_hides_secrets(body["game"], seat, table.game)
    SchemaChecker(table.clients[seat]).check("POST", ACTIONS, 200, body)


def test_the_text_form_is_accepted(table):
    seat, ply = mover_of(table)

    response = table.clients[seat].post(
        table.url("/actions"), {"action": "draw", "ply": ply}, format="json"
    )

    assert response.status_code == 200
    card = response.json()["move"]["event"]["card"]["card"]
    discard = table.clients[seat].post(
        table.url("/actions"), {"action": f"discard {card}", "ply": 1}, format="json"
    )
    assert discard.status_code == 200 and discard.json()["move"]["kind"] == "discard"


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": "discard", "card": "7H"}, "must_draw_first"),
        ({"type": "fold"}, "bad_action"),
        ({"type": "lay", "melds": "7H"}, "bad_action"),
        ({"type": "discard", "card": "ZZ"}, "bad_action"),
        ("shuffle the deck", "bad_action"),
        (42, "bad_action"),
    ],
)
def test_an_illegal_action_is_400_with_the_engine_code(table, action, code):
    seat, ply = mover_of(table)

    response = table.clients[seat].post(
        table.url("/actions"), {"action": action, "ply": ply}, format="json"
    )

    assert response.status_code == 400
    assert error_of(response)["code"] == code
    assert not Move.objects.exists()
    SchemaChecker(table.clients[seat]).check("POST", ACTIONS, 400, response.json())


def test_an_illegal_meld_gives_the_meld_code(players, deals_seeded):
    table = table_create(players(2), preset="serbian")
    seat, ply = mover_of(table)
    hand = [pair["card"] for pair in table.view(seat)["deal"]["hand"]]
    jokers_or_not = hand[:3]

    response = table.clients[seat].post(
        table.url("/actions"),
        {"action": {"type": "lay", "melds": [jokers_or_not]}, "ply": ply},
        format="json",
    )

    assert response.status_code == 400
    assert error_of(response)["code"] not in ("invalid", "bad_action")


def test_a_body_without_ply_is_invalid(table):
    seat, _ = mover_of(table)

    response = table.clients[seat].post(
        table.url("/actions"), {"action": {"type": "draw"}}, format="json"
    )

    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "invalid" and "ply" in error["details"]["fields"]


def test_it_is_403_when_it_is_not_your_turn(table):
    seat, ply = mover_of(table)

    response = table.clients[1 - seat].post(
        table.url("/actions"), {"action": {"type": "draw"}, "ply": ply}, format="json"
    )

    assert response.status_code == 403
    assert error_of(response)["code"] == "not_your_turn"
    SchemaChecker(table.clients[seat]).check("POST", ACTIONS, 403, response.json())


def test_it_is_403_for_an_outsider_and_404_for_a_private_game(
    table, client_for, user_factory, started
):
    outsider = client_for(user_factory())
    private, _ = started(players=2, visibility="private")

    public = outsider.post(table.url("/actions"), {"action": "draw", "ply": 0}, format="json")
    hidden = outsider.post(
        f"/api/v1/games/{private.public_id}/actions", {"action": "draw", "ply": 0}, format="json"
    )
    unknown = outsider.post(
        "/api/v1/games/nosuchgame00/actions", {"action": "draw", "ply": 0}, format="json"
    )

    assert public.status_code == 403 and error_of(public)["code"] == "not_a_player"
    assert hidden.status_code == 404 and error_of(hidden)["code"] == "not_found"
    assert unknown.status_code == 404


def test_a_stale_ply_is_409_with_the_current_ply(table):
    seat, ply = mover_of(table)
    client = table.clients[seat]
    client.post(table.url("/actions"), {"action": "draw", "ply": ply}, format="json")

    response = client.post(table.url("/actions"), {"action": "draw", "ply": ply}, format="json")

    assert response.status_code == 409
    error = error_of(response)
    assert error["code"] == "stale_ply" and error["details"] == {"current_ply": 1}
    assert Move.objects.count() == 1
    SchemaChecker(client).check("POST", ACTIONS, 409, response.json())


def test_a_retry_with_the_same_idempotency_key_returns_the_first_result(table):
    seat, ply = mover_of(table)
    client = table.clients[seat]
    body = {"action": {"type": "draw"}, "ply": ply}

    first = client.post(table.url("/actions"), body, format="json", HTTP_IDEMPOTENCY_KEY="abc")
    retry = client.post(table.url("/actions"), body, format="json", HTTP_IDEMPOTENCY_KEY="abc")

    assert first.status_code == retry.status_code == 200
    assert retry.json()["replayed"] is True and retry["Idempotent-Replayed"] == "true"
    assert retry.json()["move"] == first.json()["move"]
    assert retry.json()["game"]["ply"] == 1
    assert Move.objects.count() == 1


def test_an_idempotency_key_reused_for_another_action_is_422(table):
    seat, ply = mover_of(table)
    client = table.clients[seat]
    client.post(
        table.url("/actions"),
        {"action": "draw", "ply": ply},
        format="json",
        HTTP_IDEMPOTENCY_KEY="abc",
    )

    response = client.post(
        table.url("/actions"),
        {"action": "take", "ply": ply},
        format="json",
        HTTP_IDEMPOTENCY_KEY="abc",
    )

    assert response.status_code == 422
    assert error_of(response)["code"] == "idempotency_key_reused"
    SchemaChecker(client).check("POST", ACTIONS, 422, response.json())


def test_an_overlong_idempotency_key_is_refused(table):
    seat, ply = mover_of(table)

    response = table.clients[seat].post(
        table.url("/actions"),
        {"action": "draw", "ply": ply},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k" * 200,
    )

    assert response.status_code == 400


def test_it_needs_authentication(table, api_client):
    response = api_client.post(table.url("/actions"), {"action": "draw", "ply": 0}, format="json")

    assert response.status_code == 401
    SchemaChecker(api_client).check("POST", ACTIONS, 401, response.json())


def test_moves_are_throttled_with_retry_after(table, clear_cache, monkeypatch):
    rates = {**SimpleRateThrottle.THROTTLE_RATES, "user": "3/min"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    seat, ply = mover_of(table)
    client = table.clients[seat]

    statuses = [
        client.post(table.url("/actions"), {"action": "draw", "ply": 99}, format="json")
        for _ in range(4)
    ]

    assert [r.status_code for r in statuses] == [409, 409, 409, 429]
    assert int(statuses[-1]["Retry-After"]) > 0
    assert error_of(statuses[-1])["code"] == "throttled"
    SchemaChecker(client).check("POST", ACTIONS, 429, statuses[-1].json())


def test_a_whole_turn(table):
    for _ in range(3):  # draw, (lay), discard...
        seat, ply = mover_of(table)
        action = greedy_action(current_engine_deal(table.game))
        response = table.act(seat, action, ply)
        assert response.status_code == 200, response.json()


def test_an_idempotency_key_reused_at_a_later_ply_is_422(table):
    seat, ply = mover_of(table)
    client = table.clients[seat]
    client.post(
        table.url("/actions"),
        {"action": "draw", "ply": ply},
        format="json",
        HTTP_IDEMPOTENCY_KEY="once",
    )
    card = table.view(seat)["deal"]["hand"][0]["card"]

    response = client.post(
        table.url("/actions"),
        {"action": f"discard {card}", "ply": ply + 1},
        format="json",
        HTTP_IDEMPOTENCY_KEY="once",
    )

    assert response.status_code == 422
    assert error_of(response)["code"] == "idempotency_key_reused"
    assert Move.objects.count() == 1
