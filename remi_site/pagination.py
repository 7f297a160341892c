"""Pagination for API lists: opaque cursors, stable under inserts."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db.models import Field, Model, QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import pagination
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.views import APIView

from remi_site.api_errors import ApiError

INVALID_CURSOR = "`invalid_cursor`: a `cursor` that is not one of the `next`/`previous` links."

# The query parameters of every cursor-paginated list, for ``extend_schema(parameters=…)``.
CURSOR_PARAMETERS = [
    OpenApiParameter(
        "cursor",
        OpenApiTypes.STR,
        description="From `next`/`previous`; anything else is a 400 `invalid_cursor`.",
    ),
    OpenApiParameter("page_size", OpenApiTypes.INT, description="1 to 100 (20)."),
]


class InvalidCursor(ApiError):
    def __init__(self) -> None:
        super().__init__(
            "invalid_cursor",
            "The cursor is not valid: use the `next` or `previous` link as it was given.",
        )


class CursorPagination(pagination.CursorPagination):
    """Newest first; ``?cursor=…`` from the ``next``/``previous`` links, ``?page_size=`` up
    to 100. Views with another order set ``ordering`` on a subclass.

    A cursor that is not one of ours is a 400 ``invalid_cursor`` (DRF's is a 404), also
    when it decodes but holds a position that the ordering field cannot compare with."""

    ordering: str | list[str] | tuple[str, ...] = "-created"
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100

    _model: type[Model] | None = None

    def paginate_queryset(
        self, queryset: QuerySet[Any], request: Request, view: APIView | None = None
    ) -> list[Any] | None:
        self._model = queryset.model  # decode_cursor checks positions against its field
        return super().paginate_queryset(queryset, request, view)

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
