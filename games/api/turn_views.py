"""``POST /api/v1/games/{id}/turn``: a whole turn in one request (``games.play.turn``)."""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.authentication import request_user
from games.api import progress_serializers as progress
from games.api.action_serializers import ActionField
from games.api.move_io import answer_headers, game_after
from games.api.serializer_base import Serializer
from games.api.view_serializers import GameViewSerializer, MoveEntrySerializer
from games.api.views import (
    GAME_ID,
    IDEMPOTENCY_KEY,
    MAX_IDEMPOTENCY_KEY,
    GameAPIView,
    action_input,
    idempotency_key,
)
from games.errors import GameError
from games.play.turn import MAX_TURN_ACTIONS, TURN_KEY_SUFFIX, game_turn
from games.read import move_log
from remi_site import strict_fields as strict
from remi_site.api_errors import error_response, error_responses


class TurnSerializer(Serializer):
    """A whole turn: its actions in order, each as `POST /actions` takes one (an object
    or its text form), e.g. `["draw", "lay 7H 8H 9H", "discard KD"]`, and the `ply` of
    the state it was planned on."""

    actions = serializers.ListField(
        child=ActionField(), min_length=1, max_length=MAX_TURN_ACTIONS, allow_empty=False
    )
    ply = strict.IntegerField(
        min_value=0, help_text="The game's `ply` you planned on; a stale one is refused (409)."
    )


class TurnResultSerializer(Serializer):
    replayed = serializers.BooleanField(
        help_text="True when this answers a retry of an earlier request (same Idempotency-Key)."
    )
    moves = MoveEntrySerializer(many=True, help_text="The turn's moves as you see them.")
    game = GameViewSerializer()


TURN_ANSWER = progress.answer_schema(
    "TurnAnswer", TurnResultSerializer, progress.TurnChangeSerializer
)


class GameTurnView(GameAPIView):
    @extend_schema(
        operation_id="games_turn",
        tags=["games"],
        summary="Play a whole turn",
        description="The turn's actions in order (`draw` or `take`, any `lay` / `off` / "
        "`swap`, then `discard`), applied all or none at the `ply` you read. Each is "
        "logged as its own move, as if sent alone; the answer is the moves as you see "
        "them (the card you drew) and the game after them. A refused action refuses the "
        "whole turn, with its index in `details.action`. The turn may also stop before "
        "the discard (e.g. a draw alone, to see the card) and go on with more requests. "
        "With `Prefer: return=minimal`, the answer holds where the game stands after the "
        "turn instead of the whole game.",
        parameters=[GAME_ID, IDEMPOTENCY_KEY, progress.PREFER],
        request=TurnSerializer,
        responses={
            200: TURN_ANSWER,
            400: error_response(
                description="An illegal action, with the engine's code and "
                "`details.action` (its index); `bad_turn`; or `invalid`.",
            ),
            403: error_response(
                description="`not_your_turn`, `not_a_player`, `seat_out`, `turn_over` (an "
                "action after the turn had passed, with `details.action`).",
            ),
            409: error_response(
                description="`stale_ply` (with `details.current_ply`), `game_not_active`, "
                "`deal_paused`.",
            ),
            422: error_response(description="`idempotency_key_reused` with another turn."),
            **error_responses(401, 404, 429),
        },
    )
    def post(self, request: Request, game_id: str) -> Response:
        given, ply = _turn_input(request.data)
        # The turn's n-th move keeps the key with "#n" in the log's 128 characters.
        key = idempotency_key(request, longest=MAX_IDEMPOTENCY_KEY - TURN_KEY_SUFFIX)
        user = request_user(request)
        result = game_turn(
            game=game_id,
            user=user,
            actions=_actions(given),
            expected_ply=ply,
            idempotency_key=key,
        )
        minimal = progress.wants_minimal(request.headers.get("Prefer"))
        position = result.seat.position
        body = {
            "replayed": result.replayed,
            "moves": [
                move_log.move_entry(move, position=position, full=False, own=True)
                for move in result.moves
            ],
            "game": game_after(result, user, minimal=minimal),
        }
        return Response(body, headers=answer_headers(replayed=result.replayed, minimal=minimal))


def _turn_input(data: Any) -> tuple[list[Any], int]:
    """A turn's actions and ply: the usual body as it is (as ``views.move_input``), any
    other through ``TurnSerializer``, whose refusal is the API's 400."""
    if isinstance(data, dict) and not isinstance(data, QueryDict):
        actions, ply = data.get("actions"), data.get("ply")
        if (
            type(actions) is list
            and 1 <= len(actions) <= MAX_TURN_ACTIONS
            and None not in actions
            and type(ply) is int
            and ply >= 0
        ):
            return actions, ply
    checked = TurnSerializer(data=data)
    checked.is_valid(raise_exception=True)
    return checked.validated_data["actions"], checked.validated_data["ply"]


def _actions(given: list[Any]) -> list[Any]:
    """The turn's actions as the API takes each one, a refusal naming its index."""
    actions = []
    for index, action in enumerate(given):
        try:
            actions.append(action_input(action))
        except GameError as error:
            error.details = {**error.details, "action": index}
            raise
    return actions
