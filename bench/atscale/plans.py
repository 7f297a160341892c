"""The query plans of ``bench/scale.py``'s figures: each read's ``EXPLAIN (ANALYZE,
BUFFERS)`` with its values and as the site runs it once prepared, and the signs in a plan
of reading in proportion to the data rather than to the answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import psycopg

GAME_TABLES = ("games_game", "games_seat", "games_deal", "games_move")


# Tables that grow with the games and the players: a scan of one grows with the site.
GROWING_TABLES = (
    *GAME_TABLES,
    "auth_user",
    "accounts_profile",
    "accounts_rating",
    "accounts_ratingchange",
    "games_playerstats",
)


# A plan node that visits this many rows (filtered out, or loops of a subplan) is
# reading in proportion to the data, not to the answer.
MANY_ROWS = 1000


@dataclass(frozen=True)
class Signs:
    """What in a plan grows with the data: Seq Scans of growing tables, and the most
    rows a node filtered out, the most times a node ran, the most rows a node
    returned (all its loops), whether it was worth a JIT compilation to the planner."""

    seq_scans: frozenset[str] = frozenset()
    filtered: int = 0
    loops: int = 0
    rows: int = 0
    jit: bool = False

    def merge(self, other: Signs) -> Signs:
        return Signs(
            self.seq_scans | other.seq_scans,
            max(self.filtered, other.filtered),
            max(self.loops, other.loops),
            max(self.rows, other.rows),
            self.jit or other.jit,
        )

    def warnings(self) -> list[str]:
        out = [f"Seq Scan on {table}" for table in sorted(self.seq_scans)]
        if self.filtered >= MANY_ROWS:
            out.append(f"filters out {self.filtered:,} rows")
        if self.loops >= MANY_ROWS:
            out.append(f"a node runs {self.loops:,} times")
        if self.rows >= MANY_ROWS:
            out.append(f"a node returns {self.rows:,} rows")
        if self.jit:
            out.append("JIT")
        return out


@dataclass
class Query:
    """One read and its plans: with its values (what ``EXPLAIN`` of the SQL shows) and
    as the site runs it once prepared (``prepared_plan``). psycopg prepares a statement
    after 5 runs (``prepare_threshold``), and PostgreSQL may then keep a generic plan:
    one for an average user, not this one, so a skewed user (10,000 games where most
    have 20) can get a plan that reads all of their rows."""

    sql: str
    plan: str
    prepared: str | None  # None: the statement could not be prepared as it is

    @property
    def ms(self) -> float:
        return execution_ms(self.plan)

    @property
    def prepared_ms(self) -> float:
        return execution_ms(self.prepared) if self.prepared else float("nan")

    @property
    def signs(self) -> Signs:
        found = plan_signs(self.plan)
        return found.merge(plan_signs(self.prepared)) if self.prepared else found

    @property
    def warnings(self) -> list[str]:
        return self.signs.warnings()

    @property
    def same_plans(self) -> bool:
        return self.prepared is None or plan_shape(self.plan) == plan_shape(self.prepared)


def execution_ms(plan: str) -> float:
    found = re.search(r"Execution Time: ([\d.]+) ms", plan)
    return float(found.group(1)) if found else float("nan")


def plan_signs(plan: str) -> Signs:
    scans = set(re.findall(r"Seq Scan on (\w+)", plan)) & set(GROWING_TABLES)
    removed = [int(n) for n in re.findall(r"Rows Removed by Filter: (\d+)", plan)]
    nodes = [
        (int(rows), int(loops))
        for rows, loops in re.findall(r"actual time=\S+ rows=(\d+) loops=(\d+)", plan)
    ]
    return Signs(
        frozenset(scans),
        max(removed, default=0),
        max((loops for _rows, loops in nodes), default=0),
        max((rows * loops for rows, loops in nodes), default=0),
        "JIT:" in plan,
    )


def plan_shape(plan: str) -> list[str]:
    """The plan's nodes without their figures or values."""
    return [
        re.sub(r"\s+\(cost=.*", "", line).strip() for line in plan.splitlines() if "(cost=" in line
    ]


def explained(call: Callable[[], Any]) -> list[Query]:
    """``EXPLAIN (ANALYZE, BUFFERS)`` of every read ``call`` makes, with its values and
    as a prepared statement (``Query``); its writes, if any, are not run again."""
    from django.db import connection

    statements: list[tuple[str, tuple[Any, ...]]] = []

    def record(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        statements.append((sql, tuple(params or ())))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        call()
    out = []
    for sql, params in statements:
        if not re.match(r"\s*(SELECT|WITH)\b", sql, re.IGNORECASE) or re.search(
            r"\b(INSERT|UPDATE|DELETE)\b|FOR UPDATE", sql
        ):
            continue
        text = connection.ops.compose_sql(sql, params)
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + text)
            plan = "\n".join(row[0] for row in cursor.fetchall())
        out.append(Query(text, plan, prepared_plan(sql, params)))
    return out


def prepared_plan(sql: str, params: tuple[Any, ...]) -> str | None:
    """The plan of ``sql`` as the site runs it once psycopg has prepared it: prepared
    with its parameters as ``$n``, planned 5 times (PostgreSQL's custom plans), then
    ``EXPLAIN (ANALYZE, BUFFERS) EXECUTE``: from the 6th run on PostgreSQL keeps the
    generic plan unless its estimate is worse than the custom plans' average."""
    from django.db import connection

    numbered = iter(range(1, len(params) + 1))
    text = re.sub(r"%%|%s", lambda m: "%" if m.group() == "%%" else f"${next(numbered)}", sql)
    raw = connection.connection
    try:
        raw.execute(f"PREPARE bench_prepared AS {text}", prepare=False)
    except psycopg.Error:
        return None
    arguments = f"({', '.join(['%s'] * len(params))})" if params else ""
    try:
        with psycopg.ClientCursor(raw) as cursor:
            for _ in range(5):
                cursor.execute(f"EXPLAIN EXECUTE bench_prepared{arguments}", params, prepare=False)
            cursor.execute(
                f"EXPLAIN (ANALYZE, BUFFERS) EXECUTE bench_prepared{arguments}",
                params,
                prepare=False,
            )
            return "\n".join(row[0] for row in cursor.fetchall())
    except psycopg.Error:
        return None
    finally:
        raw.execute("DEALLOCATE bench_prepared", prepare=False)
