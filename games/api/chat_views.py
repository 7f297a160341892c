"""Table chat over REST: read the visible lines, write one as a seated player.

Live clients get new lines as ``chat`` events on the websocket (docs/websocket.md);
``after`` lets a client that reconnects read only what it missed.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.throttling import ScopedRateThrottle

from accounts.authentication import request_user
from games.api.view_serializers import UserCardSerializer
from games.api.views import GAME_ID, GameAPIView
from games.models import CHAT_MAX_LENGTH
from games.play import chat
from games.read import selectors
from games.read.chat import CHAT_PAGE, message_entry, messages_for
from remi_site import strict_fields as strict
from remi_site.api_errors import error_response, error_responses
from remi_site.pagination import LIST_ERRORS, LogPagination, cursor_parameters, page_serializer


class ChatMessageSerializer(Serializer):
    id = serializers.IntegerField(help_text="Increasing within a game: use it as `after`.")
    ply = serializers.IntegerField(help_text="The game's ply when the line was sent.")
    user = UserCardSerializer()
    text = serializers.CharField()
    sent_at = serializers.DateTimeField()


ChatLogSerializer = page_serializer("ChatLogSerializer", ChatMessageSerializer(many=True))


class ChatFilterSerializer(Serializer):
    after = serializers.IntegerField(
        required=False, default=0, min_value=0, help_text="Only lines with a larger id."
    )


class ChatPostSerializer(Serializer):
    # Length and content are checked by ``games.play.chat`` so that the API and any other
    # interface refuse the same lines with the same codes.
    text = strict.CharField(
        trim_whitespace=False,
        allow_blank=True,
        help_text=f"One line, 1 to {CHAT_MAX_LENGTH} characters, no control characters.",
    )


class GameChatView(GameAPIView):
    throttle_scope = "chat"

    def get_throttles(self):
        # Reading is as cheap as reading the game; only writing is rate-limited.
        throttles = super().get_throttles()
        if self.request.method == "GET":
            return [t for t in throttles if not isinstance(t, ScopedRateThrottle)]
        return throttles

    @extend_schema(
        operation_id="games_chat_list",
        tags=["games"],
        summary="The table chat",
        description=f"The visible lines after `after`, oldest first, {CHAT_PAGE} a page "
        "unless `page_size` says less: follow `next`. Anyone who may see the game may read "
        "its chat.",
        parameters=[GAME_ID, ChatFilterSerializer, *cursor_parameters(CHAT_PAGE)],
        responses={
            200: ChatLogSerializer,
            400: error_response(
                description=f"`invalid` (`after`, with `details.fields`), {LIST_ERRORS}",
            ),
            **error_responses(401, 404, 429),
        },
    )
    def get(self, request: Request, game_id: str) -> Response:
        params = ChatFilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        game = selectors.game_get(public_id=game_id, user=request_user(request))

        def read(after: int, limit: int) -> tuple[list[Any], int | None]:
            lines = messages_for(game=game, after=after, limit=limit + 1)
            more = len(lines) > limit
            lines = lines[:limit]
            return lines, lines[-1]["id"] if more else None

        pages = LogPagination()
        pages.page_size = CHAT_PAGE
        return pages.page_of_log(request, after=params.validated_data["after"], read=read)

    @extend_schema(
        operation_id="games_chat_post",
        tags=["games"],
        summary="Say something at the table",
        description="Seated players only (spectators read). Everyone watching gets it as a "
        "`chat` event. Rate-limited per user (`THROTTLE_CHAT`, 20 a minute by default).",
        parameters=[GAME_ID],
        request=ChatPostSerializer,
        responses={201: ChatMessageSerializer, **error_responses(400, 401, 403, 404, 409, 429)},
    )
    def post(self, request: Request, game_id: str) -> Response:
        body = ChatPostSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        user = request_user(request)
        game = selectors.game_get(public_id=game_id, user=user)
        message = chat.post_message(game=game, user=user, text=body.validated_data["text"])
        return Response(message_entry(message), status=status.HTTP_201_CREATED)
