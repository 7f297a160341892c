"""A deal's snapshot is stored as JSON text without the ruleset, which the game row
holds once for the match; the migration takes the ruleset out of the snapshots stored
before, and puts it back when it is reversed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import Deal, Game
from games.play.act import game_act
from tests.gamekit import current_engine_deal, greedy_action

BEFORE = ("games", "0015_seat_game_end")
AFTER = ("games", "0016_deal_state_text")


def stored_snapshot(game: Game) -> Any:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT state::text FROM games_deal WHERE game_id = %s AND number = %s",
            [game.pk, game.deal_number],
        )
        return json.loads(cursor.fetchone()[0])


def played(started: Any, moves: int) -> Game:
    game, users = started(3)
    for _ in range(moves):
        game.refresh_from_db()
        deal = current_engine_deal(game)
        user = users[deal.to_move]
        game_act(game=game, user=user, action=greedy_action(deal), expected_ply=game.ply)
    game.refresh_from_db()
    return game


@pytest.mark.django_db
def test_the_stored_snapshot_leaves_the_ruleset_to_the_game(started: Any) -> None:
    game = played(started, 4)

    snapshot = stored_snapshot(game)
    row = Deal.objects.get(game=game, number=game.deal_number)
    deal = row.restore(game.engine_ruleset())

    assert "ruleset" not in snapshot
    assert snapshot == row.state == deal.to_dict(with_ruleset=False)
    assert deal.to_dict()["ruleset"] == game.ruleset


@pytest.mark.django_db(transaction=True)
def test_the_migration_takes_the_ruleset_out_of_stored_snapshots_and_back(started: Any) -> None:
    game = played(started, 4)
    before = current_engine_deal(game).to_dict()
    executor = MigrationExecutor(connection)
    try:
        executor.migrate([BEFORE])
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_typeof(state)::text FROM games_deal LIMIT 1")
            assert cursor.fetchone()[0] == "jsonb"
        assert stored_snapshot(game) == before  # the ruleset is back in every snapshot

        executor = MigrationExecutor(connection)
        executor.migrate([AFTER])
    finally:
        MigrationExecutor(connection).migrate(executor.loader.graph.leaf_nodes("games"))

    assert "ruleset" not in stored_snapshot(game)
    assert current_engine_deal(game).to_dict() == before
