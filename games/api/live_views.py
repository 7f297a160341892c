"""Live-play endpoints: your vacation, and the host's choice when a live table has
waited for an absent player (docs/rules.md §10).

Thin like the other views: parse with an input serializer, call the service
(``games.clock``, ``games.play.timeouts``), answer with a plain dict that the
output serializer describes. Errors come out in the API's one shape.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.authentication import request_user
from games.api import live_serializers as ls
from games.api import view_serializers as vs
from games.api.views import GAME_ID, GameAPIView
from games.models import Game
from games.play import timeouts, vacation
from games.read import selectors
from remi_site.api_errors import error_response, error_responses


def _vacation(user: Any) -> dict[str, Any]:
    state = vacation.vacation_state(user=user)
    return _vacation_body(state)


def _vacation_body(state: vacation.VacationState) -> dict[str, Any]:
    return {
        "days_left": round(state.days_left, 2),
        "cap_days": vacation.vacation_cap(),
        "days_per_year": round(vacation.vacation_rate_per_day() * 365, 2),
        "active": state.until is not None,
        "started_at": state.started_at if state.until is not None else None,
        "until": state.until,
    }


# ------------------------------------------------------------------ vacation


class VacationView(GameAPIView):
    @extend_schema(
        operation_id="vacation_retrieve",
        tags=["account"],
        summary="Your vacation allowance and current vacation",
        description="Correspondence games only: a vacation pauses the deadlines of all your "
        "correspondence games. The allowance is earned over time (`days_per_year`), up to "
        "`cap_days`.",
        responses={200: ls.VacationSerializer, **error_responses(401, 429)},
    )
    def get(self, request: Request) -> Response:
        return Response(_vacation(request_user(request)))


class VacationStartView(GameAPIView):
    @extend_schema(
        operation_id="vacation_start",
        tags=["account"],
        summary="Start a vacation",
        description="Takes `days` from your allowance, from now. The deadlines of your "
        "correspondence games where it is your turn move by as much; a turn that comes to "
        "you during the vacation starts its clock when it ends.",
        request=ls.VacationStartSerializer,
        responses={
            200: ls.VacationSerializer,
            400: error_response(
                description="`invalid` (fields), `invalid_vacation`, `not_enough_vacation` "
                "(with `details.days_left`).",
            ),
            409: error_response(description="`already_on_vacation`."),
            **error_responses(401, 429),
        },
    )
    def post(self, request: Request) -> Response:
        data = ls.VacationStartSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        state = vacation.vacation_start(
            user=request_user(request), days=data.validated_data["days"]
        )
        return Response(_vacation_body(state))


class VacationEndView(GameAPIView):
    @extend_schema(
        operation_id="vacation_end",
        tags=["account"],
        summary="End your vacation now",
        description="The unused days go back to your allowance and the deadlines that were "
        "pushed come back by as much.",
        request=None,
        responses={
            200: ls.VacationSerializer,
            409: error_response(description="`not_on_vacation`."),
            **error_responses(401, 429),
        },
    )
    def post(self, request: Request) -> Response:
        state = vacation.vacation_end(user=request_user(request))
        return Response(_vacation_body(state))


# ------------------------------------------------------------------ absent players


class GameAbsentView(GameAPIView):
    @extend_schema(
        operation_id="games_absent_retrieve",
        tags=["games"],
        summary="Whether a live table is waiting for an absent player",
        description="docs/rules.md §10: when the player to move in a live game is disconnected "
        "at their deadline, the table waits for them (2 minutes by default; websocket event "
        "`waiting_for_player`). If they are still away then, the host may choose (event "
        "`absent_choice`) until `deadline_at`, after which the default applies.",
        parameters=[GAME_ID],
        responses={200: ls.AbsentStateSerializer, **error_responses(401, 404, 429)},
    )
    def get(self, request: Request, game_id: str) -> Response:
        user = request_user(request)
        game = selectors.game_get(public_id=game_id, user=user)
        state = timeouts.absent_state(game)
        you_choose = state.stage == "choice" and game.owner_id == user.pk
        return Response(state.to_dict(you_choose=you_choose))

    @extend_schema(
        operation_id="games_absent_choose",
        tags=["games"],
        summary="The host decides about an absent player (live games)",
        description="Only the host, only once the table has waited out the absent player "
        "to move (`GET .../absent` shows `stage: choice`). `wait`: another wait; `continue`: "
        "their seat is out and play goes on (3-4 players, at least two others in); `end`: "
        "their seat is out and the game ends now, the lowest total among the others wins "
        "(2 players: the other one). The answer is the game after the choice.",
        parameters=[GAME_ID],
        request=ls.AbsentChoiceSerializer,
        responses={
            200: vs.GameViewSerializer,
            400: error_response(
                description="`invalid` (fields), `invalid_choice`.",
            ),
            403: error_response(description="`not_host`."),
            409: error_response(
                description="`no_absent_player` (nothing to decide now), `cannot_continue` "
                "(fewer than two would be left: wait or end), `player_returned`, "
                "`game_not_active`, `stale_ply` (with `details.current_ply`).",
            ),
            **error_responses(401, 404, 429),
        },
    )
    def post(self, request: Request, game_id: str) -> Response:
        data = ls.AbsentChoiceSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = request_user(request)
        game: Game = selectors.game_get(public_id=game_id, user=user)
        timeouts.absent_choose(
            game=game,
            user=user,
            choice=data.validated_data["choice"],
            expected_ply=data.validated_data["ply"],
        )
        return Response(self.view_of(request, game_id))
