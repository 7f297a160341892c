"""The statistics' writes: one function per event that changes them.

The commands of ``games.play`` call them in the transaction of the event, under the game's row
lock, so a counter changes exactly when what it counts does. ``game_finished`` is
called before the ratings are written: every transaction locks its statistics rows
first, then its rating rows, and two games finishing at once cannot deadlock.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import connections, router

from games.models import Deal, Game, PlayerStats, Seat
from games.stats.family import COUNTERS

Counts = dict[str, int]


def game_started(*, game: Game, seats: Sequence[Seat]) -> None:
    """A match is under way for each of its players."""
    _add(game.preset, {seat.user_id: {"playing": 1} for seat in seats})


def deal_finished(*, game: Game, seats: Sequence[Seat], result: Mapping[str, Any]) -> None:
    """Count a deal's ``result`` (``DealResult.to_dict()``) for each of its players."""
    _add(game.preset, {seat.user_id: deal_counts(result, seat.position) for seat in seats})


def game_finished(*, game: Game, seats: Sequence[Seat]) -> None:
    """The match is over: a finished game for each player, a win for each of
    ``game.winners``, a game left early for each seat out. Expects the final winners
    and seat statuses."""
    winners = game.winners or []
    _add(
        game.preset,
        {
            seat.user_id: {
                "playing": -1,
                "games": 1,
                "wins": int(seat.position in winners),
                "left_early": int(seat.status == Seat.Status.OUT),
            }
            for seat in seats
        },
    )


def game_aborted(*, game: Game) -> None:
    """The match ends without a result: a game under way no longer counts, nor do the
    deals it finished. Call it before the status changes: a game aborted in the lobby
    was never counted."""
    if game.status != Game.Status.ACTIVE:
        return
    results = list(
        Deal.objects.filter(game=game, result__isnull=False).values_list("result", flat=True)
    )
    deltas: dict[int, Counts] = {}
    for user_id, position in Seat.objects.filter(game=game).values_list("user_id", "position"):
        counts: Counts = {"playing": -1}
        for result in results:
            assert result is not None  # filtered above
            for name, amount in deal_counts(result, position).items():
                counts[name] = counts.get(name, 0) - amount
        deltas[user_id] = counts
    _add(game.preset, deltas)


def deal_counts(result: Mapping[str, Any], position: int) -> Counts:
    """What a deal's result adds to the counters of the player in seat ``position``."""
    won = result["winner"] == position
    return {
        "deals": 1,
        "deals_won": int(won),
        "hands": int(won and result["finish"] == "dry_hand"),
        "deal_points": result["scores"][position],
    }


def _add(rules: str, deltas: Mapping[int, Counts]) -> None:
    """Add ``deltas`` (per user id: counter -> amount) to the users' rows of ``rules``,
    creating the missing ones, in one ``INSERT ... ON CONFLICT DO UPDATE`` (PostgreSQL
    and SQLite): the database does the addition on the row it locks, so no increment
    is lost to a concurrent one. Rows go in user order, so that two transactions lock
    the rows they share in the same order."""
    if not deltas:
        return
    connection = connections[router.db_for_write(PlayerStats)]
    sql = _upsert_statement(connection, rows=len(deltas))
    params: list[Any] = []
    for user_id, counts in sorted(deltas.items()):
        params += [user_id, rules, *(counts.get(name, 0) for name in COUNTERS)]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _upsert_statement(connection: Any, *, rows: int) -> str:
    quote = connection.ops.quote_name
    table = quote(PlayerStats._meta.db_table)
    columns = {field.name: quote(field.column) for field in PlayerStats._meta.concrete_fields}
    key = [columns["user"], columns["rules"]]
    counters = [columns[name] for name in COUNTERS]
    row = "(" + ", ".join(["%s"] * (len(key) + len(counters))) + ")"
    sets = ", ".join(f"{column} = {table}.{column} + EXCLUDED.{column}" for column in counters)
    return (
        f"INSERT INTO {table} ({', '.join(key + counters)}) VALUES {', '.join([row] * rows)} "
        f"ON CONFLICT ({', '.join(key)}) DO UPDATE SET {sets}"
    )
