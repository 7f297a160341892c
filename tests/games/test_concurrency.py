"""Concurrent requests on real PostgreSQL: the game row lock and the ply guard make
two requests for the same ply apply exactly once, whatever the timing."""

from __future__ import annotations

import pytest

from games.models import Game, Move, Seat
from tests.gamekit import current_engine_deal, greedy_action, table_create
from tests.games.concurrency_kit import at_once, second_device

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_moves_for_the_same_ply_apply_once(players, deals_seeded):
    table = table_create(players(2), preset="polish51")

    for _ in range(12):  # whole turns: draws, lay-downs, discards
        game = table.game
        deal = current_engine_deal(game)
        seat = deal.to_move
        action = greedy_action(deal)
        body = {"action": action.to_dict(), "ply": game.ply}
        phone, laptop = table.clients[seat], second_device(table.clients[seat])
        url = table.url("/actions")

        responses = at_once(
            lambda c=phone, u=url, b=body: c.post(u, b, format="json"),
            lambda c=laptop, u=url, b=body: c.post(u, b, format="json"),
        )

        assert sorted(r.status_code for r in responses) == [200, 409]
        refused = next(r for r in responses if r.status_code == 409).json()["error"]
        assert refused["code"] == "stale_ply"
        assert refused["details"]["current_ply"] == game.ply + 1
        game.refresh_from_db()
        assert game.ply == Move.objects.filter(game=game).count() == body["ply"] + 1


def test_a_retry_racing_its_first_try_applies_once(players, deals_seeded):
    table = table_create(players(2), preset="polish51")
    game = table.game
    deal = current_engine_deal(game)
    client = table.clients[deal.to_move]
    body = {"action": {"type": "draw"}, "ply": game.ply}

    responses = at_once(
        lambda: client.post(table.url("/actions"), body, format="json", HTTP_IDEMPOTENCY_KEY="r1"),
        lambda: second_device(client).post(
            table.url("/actions"), body, format="json", HTTP_IDEMPOTENCY_KEY="r1"
        ),
    )

    assert [r.status_code for r in responses] == [200, 200]
    assert sorted(r.json()["replayed"] for r in responses) == [False, True]
    assert responses[0].json()["move"] == responses[1].json()["move"]
    assert Move.objects.filter(game=game).count() == 1


def test_two_players_racing_for_the_last_seat(players):
    host, first, second = players(3)
    created = host.post("/api/v1/games", {"preset": "serbian", "players": 2}, format="json")
    url = f"/api/v1/games/{created.json()['id']}/join"

    responses = at_once(
        lambda: first.post(url, {}, format="json"), lambda: second.post(url, {}, format="json")
    )

    assert sorted(r.status_code for r in responses) == [200, 409]
    game = Game.objects.get()
    assert Seat.objects.filter(game=game).count() == 2
