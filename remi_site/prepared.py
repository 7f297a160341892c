"""Querysets compiled to SQL once per process, for the hottest reads.

Django compiles a queryset to SQL each time it is evaluated. For the few queries
every move makes (the API token with its user; the game, locked, with its current
deal; the seats with their players) that compilation cost more CPU than
PostgreSQL spent running them. A :class:`PreparedQuery` builds its queryset once
(per database vendor) with marker values in place of the parameters, keeps the
SQL and what Django's compiler worked out about the columns (their converters, such
as JSON decoding, included), then runs that SQL with the real values and builds the
model instances the way Django's own ``ModelIterable`` does (``select_related``
objects and deferred fields included). Anything it cannot prove it handles the same
(a marker that does not appear exactly once among the parameters) falls back to
evaluating the queryset normally.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from itertools import chain
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators  # type: ignore[attr-defined]
from django.db.models.sql.constants import MULTI
from django.db.transaction import TransactionManagementError

M = TypeVar("M", bound=Model)


@dataclass(frozen=True)
class _Compiled:
    query: Any  # django.db.models.sql.Query
    sql: str
    params: tuple[Any, ...]
    positions: tuple[int, ...]  # where each marker's value goes in ``params``
    select: Any
    klass_info: Any
    annotation_col_map: Any
    col_count: int
    has_extra_select: bool
    locks: bool  # SELECT ... FOR UPDATE
    model: type[Model]
    init_list: list[str]
    fields_start: int
    fields_end: int
    populators: list[Any]
    converters: dict[int, Any]  # column -> (converters, expression), as Django computes them


class PreparedQuery(Generic[M]):
    """``build(*markers)`` returns the queryset; ``query(*values)`` runs it with
    ``values`` in place of the markers and returns the instances as a list.

    The markers must be values that cannot occur otherwise among the query's
    parameters, one per parameter, each used once."""

    def __init__(self, build: Callable[..., QuerySet[M]], *markers: Any, using: str = "default"):
        self._build = build
        self._markers = markers
        self._using = using
        self._compiled: dict[str, _Compiled | None] = {}
        self._lock = threading.Lock()

    def __call__(self, *values: Any) -> list[M]:
        connection = connections[self._using]
        vendor = connection.vendor
        if vendor not in self._compiled:
            with self._lock:
                if vendor not in self._compiled:
                    self._compiled[vendor] = self._compile(connection)
        compiled = self._compiled[vendor]
        if compiled is None:
            return list(self._build(*values))
        if compiled.locks and connection.get_autocommit():
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = list(compiled.params)
        for position, value in zip(compiled.positions, values, strict=True):
            params[position] = value
        compiler = compiled.query.get_compiler(connection=connection)
        compiler.select = compiled.select
        compiler.klass_info = compiled.klass_info
        compiler.annotation_col_map = compiled.annotation_col_map
        compiler.col_count = compiled.col_count
        compiler.has_extra_select = compiled.has_extra_select
        sql = compiled.sql
        compiler.as_sql = lambda *args, **kwargs: (sql, params)
        results = compiler.execute_sql(MULTI)
        out: list[M] = []
        model = compiled.model
        db = self._using
        start, end = compiled.fields_start, compiled.fields_end
        rows: Any = chain.from_iterable(results)
        if compiled.converters:
            rows = compiler.apply_converters(rows, compiled.converters)
        for row in rows:
            obj = model.from_db(db, compiled.init_list, row[start:end])
            for populator in compiled.populators:
                populator.populate(row, obj)
            if compiled.annotation_col_map:
                for name, position in compiled.annotation_col_map.items():
                    setattr(obj, name, row[position])
            out.append(obj)  # type: ignore[arg-type]
        return out

    def _compile(self, connection: Any) -> _Compiled | None:
        queryset: Any = self._build(*self._markers)
        if (
            queryset._prefetch_related_lookups
            or queryset._iterable_class.__name__ != "ModelIterable"
        ):
            return None
        compiler = queryset.query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        positions = []
        for marker in self._markers:
            found = [index for index, param in enumerate(params) if param == marker]
            if len(found) != 1:
                return None
            positions.append(found[0])
        klass_info = compiler.klass_info
        select = compiler.select
        columns = [s[0] for s in select[0 : compiler.col_count]]
        if compiler.has_composite_fields(columns):
            return None
        select_fields = klass_info["select_fields"]
        start, end = select_fields[0], select_fields[-1] + 1
        return _Compiled(
            query=queryset.query,
            sql=sql,
            params=tuple(params),
            positions=tuple(positions),
            select=select,
            klass_info=klass_info,
            annotation_col_map=compiler.annotation_col_map,
            col_count=compiler.col_count,
            has_extra_select=compiler.has_extra_select,
            locks=bool(queryset.query.select_for_update),
            model=klass_info["model"],
            init_list=[f[0].target.attname for f in select[start:end]],
            fields_start=start,
            fields_end=end,
            populators=get_related_populators(klass_info, select, self._using),
            converters=compiler.get_converters(columns),
        )
