"""Your game history (filtered, cursor-paginated) and its export as CSV or JSON."""

from __future__ import annotations

from django.core.handlers.asgi import ASGIRequest
from django.http import StreamingHttpResponse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import export
from accounts.api.history_serializers import (
    ExportFilterSerializer,
    HistoryEntrySerializer,
    HistoryExportSerializer,
    HistoryFilterSerializer,
)
from accounts.authentication import request_user
from accounts.history import history, history_entry
from remi_site.api_errors import error_response, error_responses
from remi_site.pagination import CURSOR_PARAMETERS, LIST_ERRORS, CursorPagination, page_serializer
from remi_site.renderers import JSONRenderer

EXPORT_200 = "`format=csv`: a header row, then a row per game; `format=json`: one document."


HistoryPageSerializer = page_serializer("HistoryPageSerializer", HistoryEntrySerializer(many=True))


class HistoryPagination(CursorPagination):
    ordering = ("-created_at", "-id")


class HistoryView(APIView):
    @extend_schema(
        operation_id="me_games_history",
        tags=["account"],
        summary="Every game you played",
        description="Games that started with you at the table (running, finished, or "
        "aborted by the site), newest first, with cursor pagination (`next`/`previous` "
        "links; `page_size` up to 100).",
        parameters=[HistoryFilterSerializer, *CURSOR_PARAMETERS],
        responses={
            200: HistoryPageSerializer,
            400: error_response(
                description=f"`invalid` (the filters, with `details.fields`), {LIST_ERRORS}",
            ),
            **error_responses(401),
        },
    )
    def get(self, request: Request) -> Response:
        filters = HistoryFilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        user = request_user(request)
        games = history(user=user, filters=filters.validated_data)
        return HistoryPagination().paginated(games, request, lambda game: history_entry(game, user))


class ExportView(APIView):
    # ``format`` is this endpoint's own parameter, not DRF's choice of renderer: every
    # answer that is not the export itself is JSON.
    def perform_content_negotiation(
        self, request: Request, force: bool = False
    ) -> tuple[BaseRenderer, str]:
        return JSONRenderer(), JSONRenderer.media_type

    @extend_schema(
        operation_id="me_games_export",
        tags=["account"],
        summary="Download every game you played, as CSV or JSON",
        description="The whole history (the same filters apply), newest first, streamed. "
        "CSV: one row per game, the opponents' usernames joined by `;`. JSON: "
        '`{"username", "games": [...]}` with the entries of `/me/games/history`.',
        parameters=[ExportFilterSerializer],
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description=EXPORT_200),
            (200, "application/json"): OpenApiResponse(
                HistoryExportSerializer, description=EXPORT_200
            ),
            **error_responses(400, 401),
        },
    )
    def get(self, request: Request) -> StreamingHttpResponse:
        filters = ExportFilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        user = request_user(request)
        kind = filters.validated_data["format"]
        form = export.FORMATS[kind]
        games = history(user=user, filters=filters.validated_data)
        # Under ASGI an asynchronous stream, or Django would read it whole before sending.
        under_asgi = isinstance(request._request, ASGIRequest)
        chunks = (export.async_stream if under_asgi else export.stream)(form, games, user)
        response = StreamingHttpResponse(chunks, content_type=form.content_type)
        name = f"remi-games-{user.get_username()}-{timezone.now():%Y%m%d}.{kind}"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
