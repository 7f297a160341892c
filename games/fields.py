"""Model fields of the games' own."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import orjson
from django.db import models

if TYPE_CHECKING:
    _Field = models.Field[Any, Any]
else:
    _Field = models.Field


class JSONTextField(_Field):
    """A JSON value kept as text: the database stores and returns the text as it is.

    ``JSONField`` is ``jsonb`` on PostgreSQL, which parses a document into its binary
    form on every write and prints it back to text on every read. For a value that no
    query looks inside and that is only ever read and written whole (a deal's
    snapshot, rewritten on every move), that work buys nothing.
    """

    def get_internal_type(self) -> str:
        return "TextField"  # the column: text, on every database

    # orjson reads and writes it (the site's API answers too: ``remi_site.renderers``):
    # a move reads a snapshot and writes one, and the standard library took several
    # times as long for each. Its text is compact JSON, as ``json.dumps`` with
    # ``separators=(",", ":")`` writes it, but for characters beyond ASCII (none in a
    # snapshot), written as they are instead of escaped; either reads back the same.
    def from_db_value(self, value: str | None, expression: Any, connection: Any) -> Any:
        return None if value is None else orjson.loads(value)

    def to_python(self, value: Any) -> Any:
        return orjson.loads(value) if isinstance(value, str) else value

    def get_prep_value(self, value: Any) -> str | None:
        if value is None:
            return None
        try:
            return orjson.dumps(value).decode()
        except TypeError:  # what orjson does not write (an integer beyond 64 bits)
            return json.dumps(value, separators=(",", ":"))

    def value_to_string(self, obj: models.Model) -> str:
        return self.get_prep_value(self.value_from_object(obj)) or ""
