"""NDJSON event streams over HTTP (``games.live.ndjson``): the account's events and a
game's. Thin: authorise as the websocket does, read the first state, hand over."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.http import StreamingHttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import renderers
from rest_framework.request import Request

from accounts.authentication import request_user
from accounts.scopes import TokenScopePermission
from games.api.views import GAME_ID, GameAPIView
from games.live.ndjson import Slot, account_lines, game_lines
from games.read import selectors
from games.read.streams import stream_state
from remi_site.api_errors import ApiError, error_responses
from remi_site.renderers import JSONRenderer

NDJSON = "application/x-ndjson"


class NDJSONRenderer(renderers.BaseRenderer):
    """Lets a client ask for ``Accept: application/x-ndjson``; a refusal (401, 404) is
    then written as one JSON line in the API's error shape."""

    media_type = NDJSON
    format = "ndjson"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        return JSONRenderer().render(data) + b"\n"


def _slot(request: Request, user_id: int | None) -> Slot:
    """The stream's place among its owner's connections, taken now: over the limit, a
    429 in the API's error shape instead of a stream."""
    # Under ASGI the request carries its scope, whose client address the site decided
    # (remi_site.client_ip); elsewhere the address Django was given.
    scope = getattr(request._request, "scope", None) or {
        "client": (request.META.get("REMOTE_ADDR", ""), 0)
    }
    slot = Slot(user_id=user_id, scope=scope)
    if not async_to_sync(slot.take)():
        raise ApiError(
            "too_many_connections",
            _("Too many open connections: close another stream or websocket first."),
            status=429,
        )
    return slot


def _streaming(lines: Any) -> StreamingHttpResponse:
    response = StreamingHttpResponse(lines, content_type=NDJSON)
    # Each line as it comes: no buffering by a proxy (nginx honours this header).
    response["X-Accel-Buffering"] = "no"
    response["Cache-Control"] = "no-store"
    return response


STREAM_DESCRIPTION = (
    "One JSON object a line (`application/x-ndjson`), each a frame of docs/asyncapi.yaml, "
    "and an empty line every 7 s to keep the connection alive. Each open stream counts as a "
    "connection (`429 too_many_connections` past the limit). The stream stays open "
    "until the client closes it, or it ends (the game's end; a ban or deletion of the "
    "account; the server's channel layer lost: reconnect with a backoff)."
)


class EventStreamView(GameAPIView):
    renderer_classes = [JSONRenderer, NDJSONRenderer]

    @extend_schema(
        operation_id="stream_events",
        tags=["live"],
        summary="Your event stream (NDJSON)",
        description="The state first (each pending challenge to and from you, each game "
        "you are in, your turns), then each change: challenges both ways, games starting "
        "and ending, your turn. The same frames as the websocket's event stream. "
        + STREAM_DESCRIPTION,
        responses={
            (200, NDJSON): OpenApiResponse(OpenApiTypes.STR, description="NDJSON lines."),
            **error_responses(401, 429),
        },
    )
    def get(self, request: Request) -> StreamingHttpResponse:
        user = request_user(request)
        slot = _slot(request, user.pk)
        return _streaming(
            account_lines(slot, database_sync_to_async(lambda: stream_state(user=user)))
        )


class GameStreamView(GameAPIView):
    # As the game itself: a public game is followed without an account (a token still
    # needs its `read` scope).
    permission_classes = [TokenScopePermission]
    renderer_classes = [JSONRenderer, NDJSONRenderer]

    @extend_schema(
        operation_id="games_stream",
        tags=["live"],
        summary="A game's stream (NDJSON)",
        description="The first line is the whole game as you see it "
        '(`{"type": "game_full", "game", "ply", "view"}`, `view` as `GET /games/{id}` '
        "answers it), then a line per change: the game's public events and, for a player, "
        "their private ones (their hand, and `legal` when it is their turn), as the "
        "websocket sends them. A frame with a ply you already have may come again: ignore "
        "it. The stream ends once the game is over (`game_over` or `game_aborted`) and the "
        "review of its last played deal has been announced (`review_ready`; 20 s at most), "
        "and after `game_full` for a game already over. " + STREAM_DESCRIPTION,
        parameters=[GAME_ID],
        responses={
            (200, NDJSON): OpenApiResponse(OpenApiTypes.STR, description="NDJSON lines."),
            **error_responses(401, 404, 429),
        },
    )
    def get(self, request: Request, game_id: str) -> StreamingHttpResponse:
        user = request.user
        game = selectors.game_get(public_id=game_id, user=user)
        user_id = user.pk if user.is_authenticated else None

        @database_sync_to_async
        def first() -> list[dict[str, Any]]:
            # Read again now that the stream listens: nothing changed in between is lost.
            fresh = selectors.game_get(public_id=game_id, user=user)
            view = selectors.game_view_for(game=fresh, user=user)
            return [{"type": "game_full", "game": game_id, "ply": view["ply"], "view": view}]

        return _streaming(game_lines(_slot(request, user_id), game.public_id, first))
