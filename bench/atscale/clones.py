"""Clones of the template games for ``bench/scale.py``, in bulk with ``INSERT ... SELECT``
on the server. A clone copies a template's rows under fresh ids, a fresh public id, its
own players and its own times (every timestamp moved by one interval, so the turn's
deadline keeps its distance from the turn's start).

Counters the site derives from games (ratings per family, the statistics rows when the
model has them) are recomputed afterwards from the cloned rows.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import psycopg
from psycopg import sql

from bench.atscale.templates import Clone, Template

# Tables whose rows belong to one game, in insertion order (a row's references first).
CLONED_TABLES = ("games_game", "games_seat", "games_deal", "games_move", "accounts_ratingchange")


def _columns(model: Any) -> list[tuple[str, bool]]:
    """(column, is a timestamp) of each concrete field of ``model``."""
    from django.db.models import DateTimeField

    return [
        (field.column, isinstance(field, DateTimeField)) for field in model._meta.concrete_fields
    ]


def _insert_select(model: Any, overrides: dict[str, str], source: str) -> sql.Composed:
    """``INSERT INTO <model's table> SELECT ...`` copying the template row ``t``, with
    ``overrides`` (column -> SQL), every other timestamp moved by the clone's shift."""
    columns = _columns(model)
    values = []
    for column, is_time in columns:
        if column in overrides:
            values.append(sql.SQL(overrides[column]))
        elif is_time:
            values.append(sql.SQL("t.{} + c.shift").format(sql.Identifier(column)))
        else:
            values.append(sql.SQL("t.{}").format(sql.Identifier(column)))
    return sql.SQL("INSERT INTO {} ({}) SELECT {} FROM {}").format(
        sql.Identifier(model._meta.db_table),
        sql.SQL(", ").join(sql.Identifier(column) for column, _ in columns),
        sql.SQL(", ").join(values),
        sql.SQL(source),
    )


def _models() -> dict[str, Any]:
    from accounts.models import RatingChange
    from games.models import Deal, Game, Move, Seat

    return {
        "games_game": Game,
        "games_seat": Seat,
        "games_deal": Deal,
        "games_move": Move,
        "accounts_ratingchange": RatingChange,
    }


def _clone_statements() -> list[tuple[str, sql.Composed]]:
    """The statements that copy the rows of the templates in ``bench_clone``. A row's
    new id is ``base + k * stride + (its template id - the template's first id)``:
    each clone ``k`` of a batch owns a block of ids in each table, so that moves find
    their clone's deals and seats without a lookup. ``%(x_base)s``/``%(x_stride)s``
    are filled per batch."""
    models = _models()

    def new_id(table: str, column: str = "t.id") -> str:
        return f"%({table}_base)s + c.k * %({table}_stride)s + ({column} - tm.{table}_min)"

    clone_join = "bench_clone c JOIN bench_template tm ON tm.template = c.template"
    return [
        (
            "games_game",
            _insert_select(
                models["games_game"],
                {
                    "id": "c.game_id",
                    "public_id": "c.public_id",
                    "owner_id": "c.users[1]",
                    "visibility": "c.visibility",
                    "invite_code": "c.invite_code",
                },
                "bench_clone c JOIN games_game t ON t.id = c.template",
            ),
        ),
        (
            "games_seat",
            _insert_select(
                models["games_seat"],
                {
                    "id": new_id("games_seat"),
                    "game_id": "c.game_id",
                    "user_id": "c.users[t.position + 1]",
                },
                f"{clone_join} JOIN games_seat t ON t.game_id = c.template",
            ),
        ),
        (
            "games_deal",
            _insert_select(
                models["games_deal"],
                {"id": new_id("games_deal"), "game_id": "c.game_id"},
                f"{clone_join} JOIN games_deal t ON t.game_id = c.template",
            ),
        ),
        (
            "games_move",
            _insert_select(
                models["games_move"],
                {
                    "id": new_id("games_move"),
                    "game_id": "c.game_id",
                    "deal_id": "CASE WHEN t.deal_id IS NULL THEN NULL ELSE "
                    + new_id("games_deal", "t.deal_id")
                    + " END",
                    "seat_id": new_id("games_seat", "t.seat_id"),
                    "user_id": "CASE WHEN t.user_id IS NULL THEN NULL "
                    "ELSE c.users[ts.position + 1] END",
                },
                f"{clone_join} JOIN games_move t ON t.game_id = c.template "
                "JOIN games_seat ts ON ts.id = t.seat_id",
            ),
        ),
        (
            "accounts_ratingchange",
            _insert_select(
                models["accounts_ratingchange"],
                {
                    "id": new_id("accounts_ratingchange"),
                    "game_id": "c.game_id",
                    "user_id": "c.users[t.position + 1]",
                },
                f"{clone_join} JOIN accounts_ratingchange t ON t.game_id = c.template",
            ),
        ),
    ]


def bulk_session(conn: psycopg.Connection[Any]) -> None:
    """Session settings of the bulk load. The rows are consistent by construction (a
    copy of consistent rows under a consistent renumbering), so the per-row foreign
    key triggers are skipped (``session_replication_role``; the bench connects as the
    superuser); the constraints and indexes all stay and are maintained."""
    conn.execute("SET session_replication_role = replica")
    conn.execute("SET synchronous_commit = off")
    conn.execute("SET work_mem = '64MB'")


def templates_register(conn: psycopg.Connection[Any], templates: Iterable[Template]) -> None:
    """``bench_template``: each template's first id in each table, and the strides
    (``bench_stride``: the largest id span of a template, per table)."""
    conn.execute("DROP TABLE IF EXISTS bench_template")
    conn.execute(
        "CREATE TEMP TABLE bench_template (template bigint PRIMARY KEY, "
        + ", ".join(f"{table}_min bigint, {table}_span bigint" for table in CLONED_TABLES)
        + ")"
    )
    for template in templates:
        row: list[int] = [template.game_id]
        for table in CLONED_TABLES:
            key = "id" if table == "games_game" else "game_id"
            low, high = conn.execute(
                sql.SQL(
                    "SELECT coalesce(min(id), 0), coalesce(max(id), -1) FROM {} WHERE {} = %s"
                ).format(sql.Identifier(table), sql.Identifier(key)),
                (template.game_id,),
            ).fetchone() or (0, -1)
            row += [low, high - low + 1]
        conn.execute(f"INSERT INTO bench_template VALUES ({', '.join(['%s'] * len(row))})", row)
    conn.execute("ANALYZE bench_template")


def _strides(conn: psycopg.Connection[Any]) -> dict[str, int]:
    columns = ", ".join(f"max({table}_span)" for table in CLONED_TABLES)
    row = conn.execute(f"SELECT {columns} FROM bench_template").fetchone()
    assert row is not None
    return {
        f"{table}_stride": max(1, int(span)) for table, span in zip(CLONED_TABLES, row, strict=True)
    }


def clones_insert(
    conn: psycopg.Connection[Any],
    clones: Sequence[Clone],
    *,
    batch: int = 5000,
    progress: Callable[[int], None] | None = None,
) -> list[int]:
    """Insert ``clones`` in batches (one transaction each); returns their game ids in
    order. Public ids and invite codes are drawn as the site draws them."""
    from games.models import new_invite_code, new_public_id

    conn.execute("DROP TABLE IF EXISTS bench_clone")
    conn.execute(
        "CREATE TEMP TABLE bench_clone (k bigint, template bigint, game_id bigint, "
        "public_id text, visibility text, invite_code text, users bigint[], shift interval)"
    )
    statements = _clone_statements()
    strides = _strides(conn)
    taken = {row[0] for row in conn.execute("SELECT public_id FROM games_game")}
    game_ids: list[int] = []
    for start in range(0, len(clones), batch):
        part = clones[start : start + batch]
        bases = _bases(conn)
        conn.execute("TRUNCATE bench_clone")
        with conn.cursor().copy(
            "COPY bench_clone (k, template, game_id, public_id, visibility, invite_code, "
            "users, shift) FROM STDIN"
        ) as copy:
            copy.set_types(["int8", "int8", "int8", "text", "text", "text", "int8[]", "interval"])
            for k, clone in enumerate(part):
                public_id = new_public_id()
                while public_id in taken:
                    public_id = new_public_id()
                taken.add(public_id)
                private = clone.visibility == "private"
                copy.write_row(
                    (
                        k,
                        clone.template.game_id,
                        bases["games_game_base"] + k,
                        public_id,
                        clone.visibility,
                        new_invite_code() if private else "",
                        list(clone.users),
                        clone.shift,
                    )
                )
                game_ids.append(bases["games_game_base"] + k)
        conn.execute("ANALYZE bench_clone")
        params = {**bases, **strides}
        for _table, statement in statements:
            conn.execute(statement, params)
        conn.commit()
        if progress is not None:
            progress(start + len(part))
    sequences_sync(conn)
    conn.commit()
    return game_ids


def _bases(conn: psycopg.Connection[Any]) -> dict[str, int]:
    out = {}
    for table in CLONED_TABLES:
        row = conn.execute(
            sql.SQL("SELECT coalesce(max(id), 0) + 1 FROM {}").format(sql.Identifier(table))
        ).fetchone()
        assert row is not None
        out[f"{table}_base"] = int(row[0])
    return out


def sequences_sync(conn: psycopg.Connection[Any]) -> None:
    """Move each cloned table's id sequence past the ids the clones took."""
    for table in CLONED_TABLES:
        conn.execute(
            sql.SQL(
                "SELECT setval(pg_get_serial_sequence(%s, 'id'), "
                "(SELECT coalesce(max(id), 1) FROM {}))"
            ).format(sql.Identifier(table)),
            (table,),
        )


def ratings_recount(conn: psycopg.Connection[Any]) -> None:
    """Each player's rating per family as the site keeps it: the last change's
    figures, and the number of rated games."""
    conn.execute("DELETE FROM accounts_rating")
    conn.execute(
        """
        INSERT INTO accounts_rating (user_id, rules, mu, sigma, rating, games, updated_at)
        SELECT DISTINCT ON (user_id, rules) user_id, rules, mu_after, sigma_after,
               rating_after, count(*) OVER (PARTITION BY user_id, rules), created_at
        FROM accounts_ratingchange
        ORDER BY user_id, rules, created_at DESC, id DESC
        """
    )
    conn.commit()


def stats_recount() -> str:
    """The statistics rows, when the site keeps them (``games.models.PlayerStats``):
    recounted from the games by the site's own ``rebuild_stats`` command. Returns what
    was done."""
    from django.core.management import call_command, get_commands
    from django.db import connection

    from games import models

    model = getattr(models, "PlayerStats", None)
    if model is None:
        return "no statistics rows in this version (counted on each read)"
    if model._meta.db_table not in connection.introspection.table_names():
        return f"{model._meta.db_table} has no table (no migration): not seeded"
    if "rebuild_stats" not in get_commands():
        return "no rebuild_stats command: statistics rows not seeded"
    began = time.perf_counter()
    call_command("rebuild_stats", verbosity=0, stdout=io.StringIO())
    return f"rebuilt with manage.py rebuild_stats in {time.perf_counter() - began:.0f} s"


def relation_sizes(conn: psycopg.Connection[Any]) -> dict[str, int]:
    """Bytes of every table of the schema: heap, TOAST, indexes (``pg_total_relation_size``)."""
    rows = conn.execute(
        """
        SELECT c.relname, pg_total_relation_size(c.oid)
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'm')
        """
    ).fetchall()
    return {name: int(size) for name, size in rows}
