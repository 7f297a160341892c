"""Pagination for API lists: opaque cursors, stable under inserts."""

from rest_framework import pagination


class CursorPagination(pagination.CursorPagination):
    """Newest first; ``?cursor=…`` from the ``next``/``previous`` links, ``?page_size=`` up
    to 100. Views with another order set ``ordering`` on a subclass."""

    ordering: str | list[str] | tuple[str, ...] = "-created"
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100
