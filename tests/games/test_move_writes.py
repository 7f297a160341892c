"""What a move writes to PostgreSQL: a draw's update of the game row is heap-only (no
index of the table names a column it changes), and the tables keep no index that
another one already serves (docs/performance.md, "PostgreSQL's share of a move")."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction

from games.engine import DrawStock
from games.models import Game
from games.play.act import game_act
from tests.gamekit import current_engine_deal, greedy_action

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="heap-only updates and indexes: PostgreSQL's"
)


def _at_a_draw(game: Game, users: list[Any]) -> tuple[Game, Any]:
    """The game where its mover's next action is a draw from the stock, and the mover."""
    deal = current_engine_deal(game)
    while DrawStock() not in deal.legal_actions():
        game_act(
            game=game, user=users[deal.to_move], action=greedy_action(deal), expected_ply=game.ply
        )
        game.refresh_from_db()
        deal = current_engine_deal(game)
    return game, users[deal.to_move]


def _updates(table: str) -> tuple[int, int]:
    """This transaction's updates of ``table`` so far, and how many were heap-only."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_stat_get_xact_tuples_updated(%s::regclass), "
            "pg_stat_get_xact_tuples_hot_updated(%s::regclass)",
            [table, table],
        )
        updated, hot = cursor.fetchone()
    return updated, hot


def _indexed_columns(table: str) -> dict[str, set[str]]:
    """Each index of ``table`` and the columns it names, in its key, its included
    columns or its condition (any of them stops a heap-only update)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT i.indexrelid::regclass::text, a.attname FROM pg_index i "
            "JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum > 0 "
            "AND (a.attnum = ANY (i.indkey) OR pg_get_expr(i.indpred, i.indrelid) "
            "~ ('\\m' || a.attname || '\\M')) "
            "WHERE i.indrelid = %s::regclass",
            [table],
        )
        found: dict[str, set[str]] = {}
        for index, column in cursor.fetchall():
            found.setdefault(index, set()).add(column)
    return found


@pytest.mark.django_db(transaction=True)
def test_a_draw_updates_the_game_row_in_place(started):
    game, users = started(players=2)
    game, drawer = _at_a_draw(game, users)
    before = Game.objects.filter(pk=game.pk).values().get()

    with transaction.atomic():
        updated, hot = _updates("games_game")
        game_act(game=game, user=drawer, action=DrawStock(), expected_ply=game.ply)
        after_updated, after_hot = _updates("games_game")

    after = Game.objects.filter(pk=game.pk).values().get()
    changed = {name for name in before if before[name] != after[name]}
    assert {"ply", "updated_at"} <= changed
    for index, columns in _indexed_columns("games_game").items():
        assert not columns & changed, f"{index} names {columns & changed}, which a draw changes"
    assert (after_updated - updated, after_hot - hot) == (1, 1)


@pytest.mark.django_db
def test_no_index_of_the_move_tables_repeats_the_lead_of_another():
    for table in ("games_game", "games_deal", "games_move"):
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT indexrelid::regclass::text, indkey::text, indpred IS NULL "
                "FROM pg_index WHERE indrelid = %s::regclass",
                [table],
            )
            indexes = cursor.fetchall()
        whole = [(name, keys.split()) for name, keys, unconditional in indexes if unconditional]
        for name, keys in whole:
            longer = [other for other, more in whole if other != name and more[: len(keys)] == keys]
            assert not longer, f"{table}: {name} is the leading part of {longer}"
