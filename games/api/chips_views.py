"""Your play chips: the balance and the ledger of every movement, newest first."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.authentication import request_user
from games.api import serializers as s
from games.api.views import GameAPIView
from games.chips import selectors as chips
from remi_site.api_errors import error_response, error_responses
from remi_site.pagination import CURSOR_PARAMETERS, LIST_ERRORS, CursorPagination


class LedgerPagination(CursorPagination):
    ordering = ("-id",)


class MyChipsView(GameAPIView):
    @extend_schema(
        operation_id="me_chips",
        tags=["account"],
        summary="Your chips and their ledger",
        description="Your balance and every movement of your chips, newest first, with cursor "
        "pagination (`next`/`previous` links; `page_size` up to 100): the starting grant, "
        "the daily top-ups, the stakes you put into games' pots, your shares of the pots "
        "and the stakes of aborted games given back. The balance is always the sum of the "
        "ledger.",
        parameters=CURSOR_PARAMETERS,
        responses={
            200: s.ChipsPageSerializer,
            400: error_response(description=LIST_ERRORS),
            **error_responses(401, 429),
        },
    )
    def get(self, request: Request) -> Response:
        user = request_user(request)
        paginator = LedgerPagination()
        page = paginator.paginate_queryset(chips.ledger_of(user=user), request, view=self) or []
        answer = paginator.get_paginated_response([chips.ledger_entry(row) for row in page])
        answer.data = {**chips.chips_of(user=user), **answer.data}
        return answer
