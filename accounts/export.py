"""A player's games as a download, CSV or JSON, produced a chunk of games at a time.

Each chunk is one query (keyset on the history's order, newest first), so neither the
server nor the database holds a veteran's 10,000 games at once, and no database
cursor stays open between chunks. The same chunks are served as a synchronous stream
(WSGI) or an asynchronous one (ASGI: Django would otherwise read a synchronous
stream whole before sending a byte); the asynchronous one reads each chunk in a
worker thread and hands that thread's database connection back afterwards.
"""

from __future__ import annotations

import csv
import json
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Q, QuerySet
from rest_framework.utils.encoders import JSONEncoder

from accounts.history import history_entry
from games.models import Game

CHUNK = 500
CSV_COLUMNS = (
    "id",
    "preset",
    "time_control",
    "rated",
    "players",
    "status",
    "started_at",
    "finished_at",
    "end_reason",
    "seat",
    "result",
    "place",
    "total",
    "opponents",
    "rating_change",
    "rating_after",
)

Position = tuple[datetime, int]  # the last game sent: (created_at, id)


def entry_chunk(
    games: QuerySet[Game], user: User, after: Position | None
) -> tuple[list[dict[str, Any]], Position | None]:
    """The history entries after ``after`` (up to ``CHUNK``), and where the next chunk
    starts (None: this was the last). ``games`` is ordered newest first."""
    if after is not None:
        created, pk = after
        games = games.filter(Q(created_at__lt=created) | Q(created_at=created, pk__lt=pk))
    chunk = list(games[:CHUNK])
    entries = [history_entry(game, user) for game in chunk]
    more = len(chunk) == CHUNK
    return entries, (chunk[-1].created_at, chunk[-1].pk) if more else None


# ------------------------------------------------------------------ the formats


@dataclass(frozen=True)
class ExportFormat:
    content_type: str
    head: Callable[[User], str]
    # The text of some entries; the flag says whether any came before them.
    body: Callable[[list[dict[str, Any]], bool], str]
    tail: str


class _Line:
    """A file for csv.writer that hands back what is written."""

    def write(self, value: str) -> str:
        return value


def _csv_head(_user: User) -> str:
    return str(csv.writer(_Line()).writerow(CSV_COLUMNS))


def _csv_body(entries: list[dict[str, Any]], _more: bool) -> str:
    writer = csv.writer(_Line())
    return "".join(str(writer.writerow(_csv_row(entry))) for entry in entries)


def _csv_row(entry: dict[str, Any]) -> list[Any]:
    row = {
        **entry,
        "rated": "yes" if entry["rated"] else "no",
        "started_at": _iso(entry["started_at"]),
        "finished_at": _iso(entry["finished_at"]),
        # Each name too: a spreadsheet whose list separator is ";" (the usual one where
        # a comma is the decimal mark) splits this cell into one per opponent.
        "opponents": ";".join(safe_cell(o["user"]["username"]) for o in entry["opponents"]),
    }
    return [safe_cell(row[name]) for name in CSV_COLUMNS]


# What makes a spreadsheet read a cell as a formula (OWASP's "CSV injection"), the
# full-width forms too; a tab or a carriage return first also starts one in some.
FORMULA_STARTS = ("=", "+", "-", "@", "\uff1d", "\uff0b", "\uff0d", "\uff20")
CONTROL_STARTS = ("\t", "\r")


def safe_cell(value: Any) -> Any:
    """A CSV cell that no spreadsheet takes for a formula: text that starts like one
    (after any leading whitespace) gets a leading ``'``. Numbers stay numbers (a
    negative total is no formula); ``None`` is an empty cell. Every cell of the export
    goes through here."""
    if value is None:
        return ""
    if not isinstance(value, str):
        return value
    if value.startswith(CONTROL_STARTS) or value.lstrip().startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _iso(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def _json_head(user: User) -> str:
    return '{"username": ' + json.dumps(user.get_username()) + ', "games": ['


def _json_body(entries: list[dict[str, Any]], more: bool) -> str:
    # Values written as the API writes them (DRF's encoder: dates, decimals).
    pieces = [json.dumps(entry, cls=JSONEncoder) for entry in entries]
    return ("," if more else "") + "\n" + ",\n".join(pieces)


CSV = ExportFormat("text/csv; charset=utf-8", _csv_head, _csv_body, "")
JSON = ExportFormat("application/json", _json_head, _json_body, "\n]}\n")
FORMATS = {"csv": CSV, "json": JSON}


# ------------------------------------------------------------------ the streams


def stream(form: ExportFormat, games: QuerySet[Game], user: User) -> Iterator[str]:
    yield form.head(user)
    after: Position | None = None
    more = False
    while True:
        entries, after = entry_chunk(games, user, after)
        if entries:
            yield form.body(entries, more)
            more = True
        if after is None:
            break
    yield form.tail


def _chunk_in_thread(
    games: QuerySet[Game], user: User, after: Position | None
) -> tuple[list[dict[str, Any]], Position | None]:
    try:
        return entry_chunk(games, user, after)
    finally:
        connection.close()  # back to the pool: this thread serves other work next


async def async_stream(form: ExportFormat, games: QuerySet[Game], user: User) -> AsyncIterator[str]:
    read = sync_to_async(_chunk_in_thread, thread_sensitive=False)
    yield form.head(user)
    after: Position | None = None
    more = False
    while True:
        entries, after = await read(games, user, after)
        if entries:
            yield form.body(entries, more)
            more = True
        if after is None:
            break
    yield form.tail
