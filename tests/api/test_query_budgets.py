"""How many SQL statements a move and a finished match's move log take, whatever the
game has behind it: a regression in the hottest write and in the replay read shows up
here without timing anything (``bench/scale.py`` and ``bench/move_cost.py`` time them)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game
from tests.gamekit import current_engine_deal, greedy_action, quick_actions, table_create

pytestmark = pytest.mark.django_db

# The token with its user; inside the test's transaction, the move's savepoint and its
# release; the seats with their players (and any queued draw), the game locked and its
# current deal, joined; the move inserted with the deal's snapshot and the game saved,
# in one statement.
MOVE_STATEMENTS = 5
# The token with its user; the game with its current deal; its seats with their players;
# the moves (each with its deal's number); the deals (their results and dealt hands).
FINISHED_LOG_STATEMENTS = 5
TWO_DEALS = {"match_deals": [2, 2, 2]}


def play_one(table):
    game = table.game
    deal = current_engine_deal(game)
    assert table.act(deal.to_move, greedy_action(deal), game.ply).status_code == 200


def move_statements(table, seat, action, ply):
    with CaptureQueriesContext(connection) as statements:
        response = table.act(seat, action, ply)
    assert response.status_code == 200, response.json()
    return [statement["sql"] for statement in statements.captured_queries]


def test_a_move_takes_the_same_few_statements_all_game_long(players, deals_seeded):
    table = table_create(players(2), preset="serbian")
    play_one(table)  # the token's last use is written at most once a minute

    counts = []
    for _ in range(12):
        game = table.game
        deal = current_engine_deal(game)
        statements = move_statements(table, deal.to_move, greedy_action(deal), game.ply)
        counts.append(len(statements))
        assert sum("INSERT INTO" in sql for sql in statements) == 1
        assert not any(sql.lstrip().startswith('SELECT "games_move"') for sql in statements)

    assert counts == [MOVE_STATEMENTS] * 12


def test_a_move_stays_within_its_budget(players, deals_seeded, django_assert_max_num_queries):
    table = table_create(players(2), preset="polish51")
    play_one(table)
    game = table.game
    deal = current_engine_deal(game)

    with django_assert_max_num_queries(MOVE_STATEMENTS):
        response = table.act(deal.to_move, greedy_action(deal), game.ply)

    assert response.status_code == 200


def test_a_whole_turn_in_one_request_takes_the_statements_of_one_move(players, deals_seeded):
    table = table_create(players(2), preset="serbian")
    play_one(table)  # the starter's discard: the next turn starts with a draw
    game = table.game
    deal = current_engine_deal(game)
    drawn = deal.apply(greedy_action(deal))
    turn = [greedy_action(deal).to_dict(), greedy_action(drawn).to_dict()]

    with CaptureQueriesContext(connection) as statements:
        response = table.clients[deal.to_move].post(
            table.url("/turn"), {"actions": turn, "ply": game.ply}, format="json"
        )

    assert response.status_code == 200, response.json()
    assert [move["kind"] for move in response.json()["moves"]] == ["draw", "discard"]
    sql = [statement["sql"] for statement in statements.captured_queries]
    # Both moves go in with the snapshot and the game, in the one statement.
    assert len(sql) == MOVE_STATEMENTS
    assert sum("INSERT INTO" in each for each in sql) == 1


def finish_with_quick_deals(table):
    """Every deal's starter goes out in their first turn (``quick_deals``)."""
    while (game := table.game).status == Game.Status.ACTIVE:
        starter = current_engine_deal(game).to_move
        for action in quick_actions():
            assert table.act(starter, action, table.game.ply).status_code == 200


@pytest.mark.parametrize("overrides", [{"match_deals": [1, 1, 1]}, TWO_DEALS])
def test_the_log_of_a_finished_match_takes_the_same_statements_for_any_length(
    players, quick_deals, overrides, django_assert_max_num_queries
):
    table = table_create(players(3), preset="serbian", overrides=overrides)
    finish_with_quick_deals(table)
    reader = table.clients[1]
    reader.get(table.url("/moves"))  # the token's last use

    with django_assert_max_num_queries(FINISHED_LOG_STATEMENTS) as statements:
        log = reader.get(table.url("/moves")).json()

    assert log["complete"] is True
    assert len(log["deals"]) == overrides["match_deals"][1]
    assert [entry["ply"] for entry in log["results"]] == list(range(1, table.game.ply + 1))
    # The moves' deals give their numbers only: no snapshot or deck is read per move.
    [moves] = [q["sql"] for q in statements.captured_queries if 'FROM "games_move"' in q["sql"]]
    assert '"games_deal"."state"' not in moves and '"games_deal"."deck"' not in moves
