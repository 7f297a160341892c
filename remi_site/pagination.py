"""One pagination for every API list: opaque cursors and one envelope.

Every list answers ``{"next": <url or null>, "previous": <url or null>, "results": [...]}``
(a list may add fields of its own beside them, such as the move log's ``ply``). A
client follows ``next`` until it is null and never builds a cursor itself.
``?page_size=`` is 1 to 100 (20 unless a list says otherwise); anything else is a 400
``invalid`` naming ``page_size``, and a ``cursor`` that is not one of ours is a 400
``invalid_cursor``: both in the API's one error shape.

Three kinds of list, one envelope:

- :class:`CursorPagination`: a query set in a stable order (games, tokens,
  challenges), stable under inserts;
- :class:`LogPagination`: a log read oldest first from ``?after=`` (a game's moves,
  its chat), where the reader asks again from the last key it has; ``previous`` is
  null;
- :class:`SequencePagination`: a short list computed whole (the rule presets, the
  built-in bots, the leaderboard's top places).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db.models import Field, Model, QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import pagination, serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param
from rest_framework.views import APIView

from remi_site.api_errors import ApiError

T = TypeVar("T")

PAGE_SIZE = 20
MAX_PAGE_SIZE = 100

INVALID_CURSOR = "`invalid_cursor`: a `cursor` that is not one of the `next`/`previous` links."
INVALID_PAGE_SIZE = (
    f"`invalid` (`details.fields.page_size`): a `page_size` outside 1 to {MAX_PAGE_SIZE}."
)
# What a list's 400 may be, for its OpenAPI description.
LIST_ERRORS = f"{INVALID_PAGE_SIZE} {INVALID_CURSOR}"


def cursor_parameters(default: int = PAGE_SIZE) -> list[OpenApiParameter]:
    """The query parameters of a paginated list, for ``extend_schema(parameters=…)``."""
    return [
        OpenApiParameter(
            "cursor",
            OpenApiTypes.STR,
            description="From `next`/`previous`; anything else is a 400 `invalid_cursor`.",
        ),
        OpenApiParameter(
            "page_size",
            OpenApiTypes.INT,
            description=f"1 to {MAX_PAGE_SIZE} ({default}); anything else is a 400 `invalid`.",
        ),
    ]


CURSOR_PARAMETERS = cursor_parameters()


class InvalidCursor(ApiError):
    def __init__(self) -> None:
        super().__init__(
            "invalid_cursor",
            "The cursor is not valid: use the `next` or `previous` link as it was given.",
        )


class InvalidPageSize(ApiError):
    """Shaped as a validation error of the field, as a serializer would answer."""

    def __init__(self) -> None:
        super().__init__(
            "invalid",
            "The request is not valid.",
            details={
                "fields": {"page_size": [f"A whole number from 1 to {MAX_PAGE_SIZE}."]},
            },
        )


def page_size_of(request: Request, default: int = PAGE_SIZE) -> int:
    """``?page_size=`` checked: absent is ``default``, anything but 1 to 100 refused."""
    raw = request.query_params.get("page_size")
    if raw is None:
        return default
    try:
        size = int(raw)
    except ValueError:
        raise InvalidPageSize() from None
    if not 1 <= size <= MAX_PAGE_SIZE:
        raise InvalidPageSize()
    return size


def page_body(
    results: list[Any], *, next_url: str | None, previous_url: str | None, **extra: Any
) -> dict[str, Any]:
    """The envelope: the list's own fields first, then ``next``, ``previous``, ``results``."""
    return {**extra, "next": next_url, "previous": previous_url, "results": results}


def page_serializer(
    name: str, item: serializers.Field, **extra: serializers.Field
) -> type[serializers.Serializer[Any]]:
    """An OpenAPI description of a page of ``item`` (a serializer with ``many=True``),
    with ``extra`` fields beside the envelope's. ``name`` ends in ``Serializer``."""
    fields: dict[str, Any] = {
        **extra,
        "next": serializers.URLField(allow_null=True, help_text="The next page; null: none."),
        "previous": serializers.URLField(allow_null=True, help_text="The page before; null: none."),
        "results": item,
    }
    return type(name, (serializers.Serializer,), fields)


class CursorPagination(pagination.CursorPagination):
    """Newest first; ``?cursor=…`` from the ``next``/``previous`` links, ``?page_size=``
    1 to 100. Views with another order set ``ordering`` on a subclass.

    A cursor that is not one of ours is a 400 ``invalid_cursor`` (DRF's is a 404), also
    when it decodes but holds a position that the ordering field cannot compare with."""

    ordering: str | list[str] | tuple[str, ...] = "-created"
    page_size = PAGE_SIZE
    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE

    _model: type[Model] | None = None

    def get_page_size(self, request: Request) -> int:
        return page_size_of(request, self.page_size)

    def paginate_queryset(
        self, queryset: QuerySet[Any], request: Request, view: APIView | None = None
    ) -> list[Any] | None:
        self._model = queryset.model  # decode_cursor checks positions against its field
        return super().paginate_queryset(queryset, request, view)

    def paginated(
        self,
        queryset: QuerySet[Any],
        request: Request,
        render: Callable[[Any], Any],
        **extra: Any,
    ) -> Response:
        """One page of ``queryset``, each row rendered by ``render``, in the envelope."""
        rows = self.paginate_queryset(queryset, request) or []
        return Response(
            page_body(
                [render(row) for row in rows],
                next_url=self.get_next_link(),
                previous_url=self.get_previous_link(),
                **extra,
            )
        )

    def decode_cursor(self, request: Request) -> pagination.Cursor | None:
        try:
            cursor = super().decode_cursor(request)
        except NotFound as exc:
            raise InvalidCursor() from exc
        if cursor is not None and cursor.position is not None:
            self._check_position(cursor.position)
        return cursor

    def _position_field(self) -> Field[Any, Any] | None:
        """The field of the ordering's first key (set by ``paginate_queryset``)."""
        if self._model is None:
            return None
        ordering = [self.ordering] if isinstance(self.ordering, str) else self.ordering
        try:
            field = self._model._meta.get_field(ordering[0].lstrip("-"))
        except FieldDoesNotExist:  # an annotation: nothing to check the position against
            return None
        return field if isinstance(field, Field) else None

    def _check_position(self, position: object) -> None:
        field = self._position_field()
        if field is None:
            return
        try:
            value = field.to_python(position)
            if isinstance(value, datetime):
                # Ours carry their offset; one that is not in UTC's range fails here too.
                if value.tzinfo is None:
                    raise InvalidCursor()
                value.astimezone(UTC)
        except (ValidationError, OverflowError) as exc:
            raise InvalidCursor() from exc


MAX_LOG_KEY = 2**63 - 1  # a database's largest id: beyond it, a cursor is not ours

# Reads ``limit`` entries of a log after a key: (the entries, the key to read on from,
# or None when nothing follows).
LogReader = Callable[[int, int], tuple[list[T], int | None]]


class LogPagination(CursorPagination):
    """A log read oldest first by an increasing key (a game's plies, chat line ids).

    ``?after=<key>`` starts the reading (0: from the beginning); the ``next`` link's
    cursor holds the last key read, so a client follows it and never counts. A log is
    read forward only: ``previous`` is null (to read again, start from ``after``)."""

    def page_of_log(
        self, request: Request, *, after: int, read: LogReader[T], **extra: Any
    ) -> Response:
        self.request = request
        self.base_url = request.build_absolute_uri()
        size = page_size_of(request, self.page_size)
        cursor = self.decode_cursor(request)
        start = after if cursor is None else max(after, _log_key(cursor))
        entries, next_key = read(start, size)
        next_url = None
        if next_key is not None:
            cursor = pagination.Cursor(offset=0, reverse=False, position=next_key)
            next_url = self.encode_cursor(cursor)
        return Response(page_body(entries, next_url=next_url, previous_url=None, **extra))


def _log_key(cursor: pagination.Cursor) -> int:
    """The key a log cursor holds: a whole number, or the cursor is not ours."""
    if cursor.reverse or cursor.offset or cursor.position is None:
        raise InvalidCursor()
    try:
        key = int(cursor.position)
    except ValueError:
        raise InvalidCursor() from None
    if not 0 <= key <= MAX_LOG_KEY:
        raise InvalidCursor()
    return key


class SequencePagination(CursorPagination):
    """A short list computed whole (a catalogue, a leaderboard's top places), cut into
    pages by position. Bounded by DRF's offset cutoff (1000): these lists are short."""

    def page_of_sequence(self, request: Request, items: Sequence[T], **extra: Any) -> Response:
        self.request = request
        self.base_url = request.build_absolute_uri()
        size = page_size_of(request, self.page_size)
        cursor = self.decode_cursor(request)
        start = 0 if cursor is None else _sequence_offset(cursor)
        results = list(items[start : start + size])
        next_url = previous_url = None
        if start + size < len(items):
            next_url = self._at(start + size)
        if start > 0:
            previous_url = self._at(max(0, start - size))
        return Response(page_body(results, next_url=next_url, previous_url=previous_url, **extra))

    def _at(self, offset: int) -> str:
        if offset == 0:  # the first page is the list's own URL
            assert self.base_url is not None
            return remove_query_param(self.base_url, self.cursor_query_param)
        return self.encode_cursor(pagination.Cursor(offset=offset, reverse=False, position=None))


def _sequence_offset(cursor: pagination.Cursor) -> int:
    if cursor.reverse or cursor.position is not None:
        raise InvalidCursor()
    return int(cursor.offset)
