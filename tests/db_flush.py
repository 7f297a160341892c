"""How a transactional test empties the database after it, on PostgreSQL.

Django's flush empties every table with one ``TRUNCATE``. PostgreSQL makes new files for
each table and index truncated, which costs a fifth of a second for this schema however
few rows the test wrote, and a few hundred tests pay it. ``DELETE`` of the few rows a test
leaves costs a fraction of that. A table whose rows may not be deleted (an append-only
ledger, refused by a trigger) is still truncated, first: nothing refers to it.

After a flush Django sends ``post_migrate``, which makes the content types, the
permissions and the moderator group again: 0.17 s a test, for rows that are the same
every time. Those tables are kept instead, and ``post_migrate`` is sent only when a test
changed them (a fingerprint of their rows differs from the one after the last
``post_migrate``); they are then emptied first, as a whole flush would have left them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.management.commands import flush
from django.db import connections
from django.db.backends.postgresql.operations import DatabaseOperations

_TABLES_REFUSING_DELETE = """
    SELECT DISTINCT tgrelid::regclass::text FROM pg_trigger
    WHERE NOT tgisinternal AND tgtype & 8 = 8
"""  # 8: a trigger on DELETE

# What post_migrate makes (contenttypes, auth, accounts.moderation.roles), children first.
_MADE_BY_POST_MIGRATE = (
    "auth_group_permissions",
    "auth_group",
    "auth_permission",
    "django_content_type",
)
_FINGERPRINT = " UNION ALL ".join(
    f"SELECT '{table}', md5(coalesce(string_agg(t::text, ',' ORDER BY t::text), '')) FROM {table} t"
    for table in _MADE_BY_POST_MIGRATE
)

_truncate_all = DatabaseOperations.sql_flush
_emit_post_migrate = flush.emit_post_migrate_signal
_made: dict[str, list[Any]] = {}  # database alias -> the fingerprint after post_migrate


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
    statements += [
        f"DELETE FROM {self.quote_name(table)}"
        for table in tables
        if table not in kept and table not in _MADE_BY_POST_MIGRATE
    ]
    return statements


def _fingerprint(alias: str) -> list[Any]:
    with connections[alias].cursor() as cursor:
        cursor.execute(_FINGERPRINT)
        return cursor.fetchall()


def _post_migrate_if_changed(verbosity: int, interactive: bool, db: str, **kwargs: Any) -> None:
    """After a flush: post_migrate only if a test changed what it makes, or a flush by
    ``TRUNCATE`` emptied it."""
    if connections[db].vendor != "postgresql":
        _emit_post_migrate(verbosity, interactive, db, **kwargs)
        return
    if _made.get(db) is not None and _fingerprint(db) == _made[db]:
        return
    with connections[db].cursor() as cursor:
        for table in _MADE_BY_POST_MIGRATE:
            cursor.execute(f"DELETE FROM {table}")
    _emit_post_migrate(verbosity, interactive, db, **kwargs)
    _made[db] = _fingerprint(db)


def flush_by_delete() -> None:
    DatabaseOperations.sql_flush = _delete_rows  # type: ignore[method-assign]
    flush.emit_post_migrate_signal = _post_migrate_if_changed


def flush_by_truncate() -> None:
    DatabaseOperations.sql_flush = _truncate_all  # type: ignore[method-assign]
    flush.emit_post_migrate_signal = _emit_post_migrate
    _made.clear()
