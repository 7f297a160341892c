"""GET /games/{id}/moves: redacted while the game runs, complete once it is over."""

from __future__ import annotations

import pytest

from games.models import Move
from tests.gamekit import (
    SchemaChecker,
    assert_log_hides_secrets,
    current_engine_deal,
    error_of,
    greedy_action,
    table_create,
)

pytestmark = pytest.mark.django_db
MOVES = "/api/v1/games/{game_id}/moves"


def play(table, count):
    for _ in range(count):
        game = table.game
        deal = current_engine_deal(game)
        assert table.act(deal.to_move, greedy_action(deal), game.ply).status_code == 200


def test_others_draws_show_no_card_while_the_game_runs(players, spectator, deals_seeded):
    table = table_create(players(2), preset="polish51", spectator=spectator)
    play(table, 6)
    draws = Move.objects.filter(kind="draw").select_related("seat")

    for seat, client in [(0, table.clients[0]), (1, table.clients[1]), (None, spectator)]:
        log = client.get(table.url("/moves")).json()
        assert log["complete"] is False and log["deals"] == []  # no deal has finished
        assert [e["ply"] for e in log["results"]] == [1, 2, 3, 4, 5, 6]
        for draw in draws:
            entry = log["results"][draw.ply - 1]
            assert ("card" in entry["event"]) == (draw.seat.position == seat)
        assert_log_hides_secrets(log, seat, table.game)
        SchemaChecker(client).check("GET", MOVES, 200, log)


def test_the_log_pages_with_a_cursor_from_after(players, deals_seeded):
    table = table_create(players(2), preset="polish51")
    play(table, 7)

    first = table.clients[0].get(table.url("/moves?after=1&page_size=3")).json()
    rest = table.clients[0].get(first["next"]).json()

    assert [e["ply"] for e in first["results"]] == [2, 3, 4] and first["previous"] is None
    assert [e["ply"] for e in rest["results"]] == [5, 6, 7] and rest["next"] is None
    assert rest["ply"] == first["ply"] == 7
    bad = table.clients[0].get(table.url("/moves?page_size=0"))
    assert bad.status_code == 400 and error_of(bad)["code"] == "invalid"


def test_the_log_is_complete_once_the_game_is_over(players, spectator, deals_seeded):
    table = table_create(players(2), preset="polish51", spectator=spectator)
    play(table, 5)
    table.clients[1].post(table.url("/resign"))

    log = spectator.get(table.url("/moves")).json()

    assert log["complete"] is True
    moves = {m.ply: m for m in Move.objects.all()}
    for entry in log["results"]:
        move = moves[entry["ply"]]
        assert entry["event"] == (move.private or move.public)
    [dealt] = log["deals"]
    assert [len(hand) for hand in dealt["hands"]] == [13, 13]
    assert len(dealt["discard"]) == 1  # the upcard
    SchemaChecker(spectator).check("GET", MOVES, 200, log)


def test_private_games_logs_are_404_to_outsiders(started, client_for, user_factory):
    game, _ = started(players=2, visibility="private")

    response = client_for(user_factory()).get(f"/api/v1/games/{game.public_id}/moves")

    assert response.status_code == 404
