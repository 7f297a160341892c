"""The correspondence player's day over REST: the queue of games waiting for you, your
private note on a game, a draw queued for your next turn, and requests for extra time.

What these answer belongs to the caller alone: no other player or spectator reads a
note or a queued draw (they are in no game view and no event).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer

from accounts.authentication import request_user
from games.api.views import GAME_ID, GameAPIView
from games.errors import NotAllowed
from games.models import EXTRA_TIME_MAX_DAYS, NOTE_MAX_LENGTH, ExtraTimeRequest, Game
from games.play import extra_time, notes, premoves
from games.read import queue, selectors
from remi_site import strict_fields as strict
from remi_site.api_errors import error_response, error_responses

REQUEST_ID = OpenApiParameter(
    "request_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The request's id."
)


# ------------------------------------------------------------------ serializers


class QueueSerializer(Serializer):
    my_turn = serializers.IntegerField(help_text="Running games waiting for your move.")
    next = serializers.CharField(
        allow_null=True,
        help_text="The id of the one whose deadline comes first (null: none waits).",
    )


class NoteSerializer(Serializer):
    text = serializers.CharField(allow_blank=True, help_text="Empty when you wrote none.")
    updated_at = serializers.DateTimeField(allow_null=True)


class NoteInputSerializer(Serializer):
    # Length is checked by ``games.play.notes`` (code ``note_too_long``).
    text = strict.CharField(
        allow_blank=True,
        trim_whitespace=False,
        help_text=f"Up to {NOTE_MAX_LENGTH} characters, no NUL; empty deletes the note.",
    )


class PreMoveSerializer(Serializer):
    queued = serializers.BooleanField()
    unless = serializers.ListField(
        child=serializers.CharField(), help_text="Cards (e.g. `7H`, `JK`) that hold it back."
    )
    created_at = serializers.DateTimeField(allow_null=True)


class PreMoveInputSerializer(Serializer):
    unless = serializers.ListField(
        child=strict.CharField(max_length=8),
        required=False,
        default=list,
        max_length=premoves.MAX_UNLESS_CARDS,
        help_text="When the top of the discard pile is one of these cards when your turn "
        "comes, no draw is made and the turn waits for you.",
    )


class ExtraTimeSerializer(Serializer):
    id = serializers.IntegerField()
    seat = serializers.IntegerField(help_text="The seat that asked.")
    days = serializers.IntegerField()
    ply = serializers.IntegerField(help_text="The turn it is for (the game's ply then).")
    status = serializers.ChoiceField(choices=ExtraTimeRequest.Status.choices)
    created_at = serializers.DateTimeField()
    answered_at = serializers.DateTimeField(allow_null=True)


class ExtraTimeListSerializer(Serializer):
    results = ExtraTimeSerializer(many=True)


class ExtraTimeInputSerializer(Serializer):
    days = strict.IntegerField(min_value=1, max_value=EXTRA_TIME_MAX_DAYS)


# ------------------------------------------------------------------ views


def _seated_game(request: Request, game_id: str) -> tuple[Game, Any]:
    """The game (404 as the game endpoints say) and the caller's seat in it (403)."""
    user = request_user(request)
    game = selectors.game_get(public_id=game_id, user=user)
    seat = selectors.seat_of(game, user)
    if seat is None:
        raise NotAllowed(_("you are not playing in this game"), code="not_a_player")
    return game, seat


class QueueView(GameAPIView):
    @extend_schema(
        operation_id="me_queue",
        tags=["games"],
        summary="Games waiting for your move",
        description="How many running games wait for you, and the one to play next (the "
        "earliest deadline). The list itself: `GET /games?status=my_turn`.",
        responses={200: QueueSerializer, **error_responses(401, 429)},
    )
    def get(self, request: Request) -> Response:
        user = request_user(request)
        return Response({"my_turn": queue.my_turn_count(user), "next": queue.next_game_id(user)})


class NoteView(GameAPIView):
    @extend_schema(
        operation_id="games_note_retrieve",
        tags=["games"],
        summary="Your private note on a game",
        description="Only you ever read it: it is in no game view, log or event.",
        parameters=[GAME_ID],
        responses={
            200: NoteSerializer,
            403: error_response(description="`not_a_player`."),
            **error_responses(401, 404, 429),
        },
    )
    def get(self, request: Request, game_id: str) -> Response:
        game, _seat = _seated_game(request, game_id)
        return Response(queue.note_for(game=game, user=request_user(request)))

    @extend_schema(
        operation_id="games_note_update",
        tags=["games"],
        summary="Write your private note on a game",
        description="Replaces the note (empty text deletes it); kept after the game ends.",
        parameters=[GAME_ID],
        request=NoteInputSerializer,
        responses={
            200: NoteSerializer,
            400: error_response(
                description="`invalid` (not a string, a NUL character), `note_too_long`.",
            ),
            403: error_response(description="`not_a_player`."),
            **error_responses(401, 404, 429),
        },
    )
    def put(self, request: Request, game_id: str) -> Response:
        data = NoteInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = request_user(request)
        game = selectors.game_get(public_id=game_id, user=user)
        notes.note_save(game=game, user=user, text=data.validated_data["text"])
        return Response(queue.note_for(game=game, user=user))


class PreMoveView(GameAPIView):
    @extend_schema(
        operation_id="games_premove_retrieve",
        tags=["games"],
        summary="Your draw queued for your next turn",
        parameters=[GAME_ID],
        responses={
            200: PreMoveSerializer,
            403: error_response(description="`not_a_player`."),
            **error_responses(401, 404, 429),
        },
    )
    def get(self, request: Request, game_id: str) -> Response:
        _game, seat = _seated_game(request, game_id)
        return Response(queue.premove_for(seat=seat))

    @extend_schema(
        operation_id="games_premove_update",
        tags=["games"],
        summary="Queue a draw from the stock for your next turn",
        description="Correspondence games: when your next turn comes the server draws from "
        "the stock for you (logged as your move), unless the top of the discard pile is "
        "one of `unless`: then the turn waits for you. One turn only; private to you.",
        parameters=[GAME_ID],
        request=PreMoveInputSerializer,
        responses={
            200: PreMoveSerializer,
            400: error_response(
                description="`invalid`, `invalid_card`, `too_many_cards`.",
            ),
            403: error_response(description="`not_a_player`, `seat_out`."),
            409: error_response(
                description="`not_correspondence`, `game_not_active`.",
            ),
            **error_responses(401, 404, 429),
        },
    )
    def put(self, request: Request, game_id: str) -> Response:
        data = PreMoveInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = request_user(request)
        game = selectors.game_get(public_id=game_id, user=user)
        premove = premoves.premove_queue(game=game, user=user, unless=data.validated_data["unless"])
        return Response(queue.premove_answer(premove))

    @extend_schema(
        operation_id="games_premove_destroy",
        tags=["games"],
        summary="Cancel your queued draw",
        parameters=[GAME_ID],
        request=None,
        responses={
            204: None,
            403: error_response(description="`not_a_player`."),
            **error_responses(401, 404, 429),
        },
    )
    def delete(self, request: Request, game_id: str) -> Response:
        user = request_user(request)
        game = selectors.game_get(public_id=game_id, user=user)
        premoves.premove_cancel(game=game, user=user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ExtraTimeView(GameAPIView):
    @extend_schema(
        operation_id="games_extra_time_list",
        tags=["games"],
        summary="Requests for extra time in a game",
        description="Newest first (the last 20).",
        parameters=[GAME_ID],
        responses={
            200: ExtraTimeListSerializer,
            403: error_response(description="`not_a_player`."),
            **error_responses(401, 404, 429),
        },
    )
    def get(self, request: Request, game_id: str) -> Response:
        game, _seat = _seated_game(request, game_id)
        return Response({"results": queue.extra_time_requests_for(game=game)})

    @extend_schema(
        operation_id="games_extra_time_create",
        tags=["games"],
        summary="Ask for extra time on your turn",
        description=f"Correspondence games, on your own turn: 1 to {EXTRA_TIME_MAX_DAYS} more "
        "days, which another player may grant (the deadline moves) or decline. One request "
        "waits at a time; it expires when the turn ends.",
        parameters=[GAME_ID],
        request=ExtraTimeInputSerializer,
        responses={
            201: ExtraTimeSerializer,
            400: error_response(description="`invalid`."),
            403: error_response(description="`not_a_player`, `not_your_turn`."),
            409: error_response(
                description="`not_correspondence`, `game_not_active`, `request_pending`.",
            ),
            **error_responses(401, 404, 429),
        },
    )
    def post(self, request: Request, game_id: str) -> Response:
        data = ExtraTimeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = request_user(request)
        game = selectors.game_get(public_id=game_id, user=user)
        row = extra_time.extra_time_request(game=game, user=user, days=data.validated_data["days"])
        body = queue.extra_time_answer(row, position=row.seat.position)
        return Response(body, status=status.HTTP_201_CREATED)


_ANSWER_RESPONSES: dict[int, Any] = {
    200: ExtraTimeSerializer,
    403: error_response(
        description="`not_a_player`, `own_request`, `seat_out`.",
    ),
    409: error_response(
        description="`request_granted`, `request_declined`, `request_expired` (the turn it "
        "was for has ended).",
    ),
    **error_responses(401, 404, 429),
}


def _answer(request: Request, game_id: str, request_id: int, *, grant: bool) -> Response:
    user = request_user(request)
    game = selectors.game_get(public_id=game_id, user=user)
    row = extra_time.extra_time_answer(game=game, user=user, request_id=request_id, grant=grant)
    return Response(queue.extra_time_answer(row, position=row.seat.position))


class ExtraTimeGrantView(GameAPIView):
    @extend_schema(
        operation_id="games_extra_time_grant",
        tags=["games"],
        summary="Grant a request for extra time",
        description="Another player of the game grants it: the deadline of the asker's turn "
        "moves by the days asked.",
        parameters=[GAME_ID, REQUEST_ID],
        request=None,
        responses=_ANSWER_RESPONSES,
    )
    def post(self, request: Request, game_id: str, request_id: int) -> Response:
        return _answer(request, game_id, request_id, grant=True)


class ExtraTimeDeclineView(GameAPIView):
    @extend_schema(
        operation_id="games_extra_time_decline",
        tags=["games"],
        summary="Decline a request for extra time",
        parameters=[GAME_ID, REQUEST_ID],
        request=None,
        responses=_ANSWER_RESPONSES,
    )
    def post(self, request: Request, game_id: str, request_id: int) -> Response:
        return _answer(request, game_id, request_id, grant=False)
