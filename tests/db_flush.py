"""How a transactional test empties the database after it, on PostgreSQL.

Django's flush empties every table with one ``TRUNCATE``. PostgreSQL makes new files for
each table and index truncated, which costs a fifth of a second for this schema however
few rows the test wrote, and a few hundred tests pay it. ``DELETE`` of the few rows a test
leaves costs a fraction of that. A table whose rows may not be deleted (an append-only
ledger, refused by a trigger) is still truncated, first: nothing refers to it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.backends.postgresql.operations import DatabaseOperations

_TABLES_REFUSING_DELETE = """
    SELECT DISTINCT tgrelid::regclass::text FROM pg_trigger
    WHERE NOT tgisinternal AND tgtype & 8 = 8
"""  # 8: a trigger on DELETE

_truncate_all = DatabaseOperations.sql_flush


def _delete_rows(
    self: DatabaseOperations,
    style: Any,
    tables: Sequence[str],
    *,
    reset_sequences: bool = False,
    allow_cascade: bool = False,
) -> list[str]:
    if not tables or reset_sequences or allow_cascade:
        return _truncate_all(
            self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
        )
    with self.connection.cursor() as cursor:
        cursor.execute(_TABLES_REFUSING_DELETE)
        refusing = {name.strip('"') for (name,) in cursor.fetchall()}
    kept = [table for table in tables if table in refusing]
    statements = ["SET CONSTRAINTS ALL DEFERRED"]
    if kept:
        statements.append("TRUNCATE " + ", ".join(self.quote_name(table) for table in kept))
    statements += [f"DELETE FROM {self.quote_name(table)}" for table in tables if table not in kept]
    return statements


def flush_by_delete() -> None:
    DatabaseOperations.sql_flush = _delete_rows  # type: ignore[method-assign]


def flush_by_truncate() -> None:
    DatabaseOperations.sql_flush = _truncate_all  # type: ignore[method-assign]
