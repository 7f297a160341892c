"""Games endpoints: thin views. Parse with an input serializer, find the game through
a selector (404 for unknown and others' private games), call a service, answer with
the viewer's view built by the selectors from the engine's per-seat view."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import request_user
from games.api import progress_serializers as progress
from games.api import serializers as s
from games.api import view_serializers as vs
from games.api.errors import api_error
from games.api.move_io import answer_headers, game_after, move_input
from games.challenges import pairing
from games.engine import IllegalAction, parse_action
from games.errors import GameError, IllegalMove, illegal_move
from games.live import connections
from games.play.act import game_act
from games.play.bot_turns import game_play_now
from games.play.create import game_create
from games.play.lobby import game_abort, game_join, game_leave, game_start
from games.play.pause import game_deal_ready
from games.play.resign import game_resign
from games.read import bots, catalogue, game_lists, move_log, selectors
from remi_site.api_errors import ApiError, error_response, error_responses
from remi_site.pagination import (
    CURSOR_PARAMETERS,
    LIST_ERRORS,
    CursorPagination,
    LogPagination,
    SequencePagination,
    cursor_parameters,
)

GAME_ID = OpenApiParameter(
    "game_id", OpenApiTypes.STR, OpenApiParameter.PATH, description="The game's public id."
)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="Any unique string (up to 128 characters, e.g. a UUID). Retrying a request "
    "with the same key returns the first result instead of acting twice; the same key with "
    "another action is refused with 422 `idempotency_key_reused`.",
)
MAX_IDEMPOTENCY_KEY = 128
MOVE_PAGE = 100  # moves a page of the log by default: a whole deal or two


class GameAPIView(APIView):
    """Turns the services' ``GameError`` into the API's one error shape."""

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, GameError):
            exc = api_error(exc)
        return super().handle_exception(exc)

    def view_of(self, request: Request, game_id: str) -> dict[str, Any]:
        game = selectors.game_get(public_id=game_id, user=request.user)
        return selectors.game_view_for(game=game, user=request.user)


class GamePagination(CursorPagination):
    ordering = ("-created_at", "-id")


class QueuePagination(CursorPagination):
    """``status=my_turn``: the most urgent deadline first."""

    ordering = ("deadline_at", "id")


# ------------------------------------------------------------------ rulesets


class RulesetListView(GameAPIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="rulesets_list",
        tags=["games"],
        summary="The rule presets, with every field",
        description="A game is created from a preset plus house-rule overrides of any field "
        "but `name`. docs/rules.md explains each switch.",
        parameters=CURSOR_PARAMETERS,
        responses={
            200: s.PresetPageSerializer,
            400: error_response(description=LIST_ERRORS),
            **error_responses(429),
        },
    )
    def get(self, request: Request) -> Response:
        return SequencePagination().page_of_sequence(request, catalogue.ruleset_presets())


class BotListView(GameAPIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="bots_list",
        tags=["games"],
        summary="The bots: built in and bot accounts",
        description="The built-in bots first, weakest first: name them in `bots` when "
        "creating a game. Then the bot accounts that may play (not banned or deleted), "
        "those connected now first: challenge them like a person. Each with its ratings.",
        parameters=CURSOR_PARAMETERS,
        responses={
            200: s.BotPageSerializer,
            400: error_response(description=LIST_ERRORS),
            **error_responses(429),
        },
    )
    def get(self, request: Request) -> Response:
        return SequencePagination().page_of_sequence(
            request, bots.bot_directory(connected_now=connections.connected_now)
        )


# ------------------------------------------------------------------ games


class GameListView(GameAPIView):
    @extend_schema(
        operation_id="games_list",
        tags=["games"],
        summary="Games you may see",
        description="Public games and the private games you sit in, newest first, with "
        "cursor pagination (`next`/`previous` links; `page_size` 1 to 100).",
        parameters=[s.GameListFilterSerializer, *CURSOR_PARAMETERS],
        responses={
            200: vs.GamePageSerializer,
            400: error_response(
                description=f"`invalid` (the filters, with `details.fields`), {LIST_ERRORS}",
            ),
            **error_responses(401, 429),
        },
    )
    def get(self, request: Request) -> Response:
        filters = s.GameListFilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        user = request_user(request)
        games = game_lists.game_list(user=user, filters=filters.validated_data)
        my_turn = filters.validated_data.get("status") == "my_turn"
        paginator = QueuePagination() if my_turn else GamePagination()
        page = paginator.paginate_queryset(games, request, view=self) or []
        return paginator.get_paginated_response(
            [selectors.game_summary(game, user) for game in page]
        )

    @extend_schema(
        operation_id="games_create",
        tags=["games"],
        summary="Create a game",
        description="You take seat 0 and host the game; other players join it, then you "
        "start it. A private game gets an invite code to share. Bot accounts named in "
        "`bots` take the next seats at once.",
        request=s.GameCreateSerializer,
        responses={
            201: vs.GameViewSerializer,
            400: error_response(
                description="`invalid` (fields), `unknown_preset`, `invalid_ruleset`, "
                "`invalid_players`, `invalid_time_control`, `unknown_bot`, `too_many_bots`, "
                "`rated_with_bots` (a rated game seats no built-in bots), `invalid_stake`.",
            ),
            409: error_response(
                description="`insufficient_chips`: you or a bot cannot cover the stake.",
            ),
            **error_responses(401, 429),
        },
    )
    def post(self, request: Request) -> Response:
        data = s.GameCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        fields["bots"] = catalogue.bot_users(usernames=fields["bots"])
        user = request_user(request)
        game = game_create(owner=user, **fields)
        view = selectors.game_view_for(
            game=selectors.game_get(public_id=game.public_id, user=user), user=user
        )
        return Response(view, status=status.HTTP_201_CREATED)


class GamePlayNowView(GameAPIView):
    @extend_schema(
        operation_id="games_play_now",
        tags=["games"],
        summary="Play now against bots",
        description="Creates a game against 1 to 3 built-in bots of about `level` and "
        "starts it at once: the answer is the running game.",
        request=s.PlayNowSerializer,
        responses={
            201: vs.GameViewSerializer,
            400: error_response(
                description="`invalid` (fields), `invalid_time_control`, `too_many_bots`.",
            ),
            **error_responses(401, 429),
        },
    )
    def post(self, request: Request) -> Response:
        data = s.PlayNowSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        user = request_user(request)
        game = game_play_now(user=user, bots_count=fields.pop("bots"), **fields)
        return Response(self.view_of(request, game.public_id), status=status.HTTP_201_CREATED)


class InviteJoinView(GameAPIView):
    @extend_schema(
        operation_id="invites_join",
        tags=["games"],
        summary="Join a private game by its invite code alone",
        parameters=[
            OpenApiParameter(
                "invite_code", OpenApiTypes.STR, OpenApiParameter.PATH, description="The code."
            )
        ],
        request=None,
        responses={
            200: vs.GameViewSerializer,
            403: error_response(
                description="`bots_rated_vs_humans`: a rated game would seat a bot account "
                "with people, which this site does not allow.",
            ),
            409: error_response(description="`game_full`."),
            **error_responses(401, 404, 429),
        },
    )
    def post(self, request: Request, invite_code: str) -> Response:
        user = request_user(request)
        game = selectors.game_for_invite(invite_code=invite_code)
        pairing.join_check(game=game, user=user)
        game_join(game=game, user=user, invite_code=invite_code)
        return Response(self.view_of(request, game.public_id))


class GameDetailView(GameAPIView):
    # A public game is watched without an account (the anonymous throttle applies).
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="games_retrieve",
        tags=["games"],
        summary="The game as you see it",
        description="Your hand (with card ids), the table, the discard pile, the other hands' "
        "and the stock's sizes, the scores, whose turn it is and its deadline, the `ply` to "
        "send with your next action, and what you may do now (`can`). Spectators of public "
        "games, signed in or not, see everything but the hands.",
        parameters=[GAME_ID],
        responses={200: vs.GameViewSerializer, **error_responses(401, 404, 429)},
    )
    def get(self, request: Request, game_id: str) -> Response:
        return Response(self.view_of(request, game_id))


class GameJoinView(GameAPIView):
    @extend_schema(
        operation_id="games_join",
        tags=["games"],
        summary="Join a game (or come back to your seat)",
        description="Takes a free seat in the lobby. A private game needs its invite code. "
        "Joining a game you have left returns you to your seat, total kept. Idempotent.",
        parameters=[GAME_ID],
        request=s.JoinSerializer,
        responses={
            200: vs.GameViewSerializer,
            403: error_response(
                description="`seat_out`: you resigned; `bots_rated_vs_humans`: a rated game "
                "would seat a bot account with people, which this site does not allow.",
            ),
            409: error_response(
                description="`game_not_in_lobby`, `game_full`, `insufficient_chips` (you "
                "cannot cover the game's stake).",
            ),
            **error_responses(400, 401, 404, 429),
        },
    )
    def post(self, request: Request, game_id: str) -> Response:
        data = s.JoinSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = request_user(request)
        code = data.validated_data["invite_code"] or None
        game = selectors.game_get_for_join(public_id=game_id, user=user, invite_code=code)
        pairing.join_check(game=game, user=user)
        game_join(game=game, user=user, invite_code=code)
        return Response(self.view_of(request, game_id))


class GameLeaveView(GameAPIView):
    @extend_schema(
        operation_id="games_leave",
        tags=["games"],
        summary="Leave a game",
        description="In the lobby, frees your seat (the host leaving aborts the game). In a "
        "running game your seat and total stay: you are marked away and may rejoin; the turn "
        "deadlines play for you meanwhile.",
        parameters=[GAME_ID],
        request=None,
        responses={
            204: None,
            403: error_response(description="`not_a_player`."),
            409: error_response(description="`game_over`."),
            **error_responses(401, 404, 429),
        },
    )
    def post(self, request: Request, game_id: str) -> Response:
        user = request_user(request)
        game = selectors.game_get(public_id=game_id, user=user)
        game_leave(game=game, user=user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class GameStartView(GameAPIView):
    @extend_schema(
        operation_id="games_start",
        tags=["games"],
        summary="Start the game (host)",
        description="Once every seat is taken: every player puts the stake (if any) into the "
        "pot, the seats are drawn for where the rules say so (`seating` in the answer: the "
        "highest card starts), and the first deal is shuffled and dealt.",
        parameters=[GAME_ID],
        request=None,
        responses={
            200: vs.GameViewSerializer,
            403: error_response(description="`not_host`."),
            409: error_response(
                description="`game_not_in_lobby`, `not_enough_players`, `insufficient_chips` "
                "(a player's balance no longer covers the stake).",
            ),
            **error_responses(401, 404, 429),
        },
    )
    def post(self, request: Request, game_id: str) -> Response:
        user = request_user(request)
        game = selectors.game_get(public_id=game_id, user=user)
        game_start(game=game, user=user)
        return Response(self.view_of(request, game_id))


class GameAbortView(GameAPIView):
    @extend_schema(
        operation_id="games_abort",
        tags=["games"],
        summary="Abort a game in the lobby (host)",
        parameters=[GAME_ID],
        request=None,
        responses={
            200: vs.GameViewSerializer,
            403: error_response(description="`not_host`."),
            409: error_response(
                description="`game_not_in_lobby`, `game_over`.",
            ),
            **error_responses(401, 404, 429),
        },
    )
    def post(self, request: Request, game_id: str) -> Response:
        user = request_user(request)
        game = selectors.game_get(public_id=game_id, user=user)
        game_abort(game=game, user=user)
        return Response(self.view_of(request, game_id))


class GameResignView(GameAPIView):
    @extend_schema(
        operation_id="games_resign",
        tags=["games"],
        summary="Resign",
        description="Your seat is out: your total stays and the server plays your turns "
        "(draw, discard). With fewer than two players left the game ends and the others win.",
        parameters=[GAME_ID],
        request=None,
        responses={
            200: vs.GameViewSerializer,
            403: error_response(description="`not_a_player`."),
            409: error_response(
                description="`game_not_active`, `seat_out`.",
            ),
            **error_responses(401, 404, 429),
        },
    )
    def post(self, request: Request, game_id: str) -> Response:
        user = request_user(request)
        game = selectors.game_get(public_id=game_id, user=user)
        game_resign(game=game, user=user)
        return Response(self.view_of(request, game_id))


class GameReadyView(GameAPIView):
    @extend_schema(
        operation_id="games_ready",
        tags=["games"],
        summary="Ready for the next deal",
        description="A live table pauses after each deal (`pause` in the game: the deal's "
        "summary, every hand shown). The next deal is dealt when every player still in "
        "the game is ready (bots always are) or at `pause.next_deal_at`, whichever is "
        "first. Correspondence games deal the next deal at once.",
        parameters=[GAME_ID],
        request=None,
        responses={
            200: vs.GameViewSerializer,
            403: error_response(description="`not_a_player`, `seat_out`."),
            409: error_response(description="`game_not_active`, `no_deal_pause`."),
            **error_responses(401, 404, 429),
        },
    )
    def post(self, request: Request, game_id: str) -> Response:
        game_deal_ready(game=game_id, user=request_user(request))
        return Response(self.view_of(request, game_id))


class GameActionView(GameAPIView):
    @extend_schema(
        operation_id="games_act",
        tags=["games"],
        summary="Make a move",
        description="Send the action and the `ply` of the state you acted on. A turn is: "
        "`draw` (or `take` the top discard), then any `lay` / `off` / `swap`, then "
        "`discard`. The answer holds the move as you see it (the card you drew) and the "
        "game after it: the whole game, or with `Prefer: return=minimal` where it stands "
        "(its `ply`, `to_move`, the deadline).",
        parameters=[GAME_ID, IDEMPOTENCY_KEY, progress.PREFER],
        request=s.ActSerializer,
        responses={
            200: progress.ACT_ANSWER,
            400: error_response(
                description="An illegal action, with the engine's code: `bad_action`, "
                "`must_draw_first`, `already_drew`, `card_not_in_hand`, `opening_too_low`, "
                "`adjacent_jokers`, `last_card`, `must_return_taken_card`, …; or `invalid`.",
            ),
            403: error_response(
                description="`not_your_turn`, `not_a_player`, `seat_out`.",
            ),
            409: error_response(
                description="`stale_ply` (with `details.current_ply`: re-read the game), "
                "`game_not_active`, `deal_paused` (a live table between two deals, with "
                "`details.next_deal_at`).",
            ),
            422: error_response(
                description="`idempotency_key_reused` with another action.",
            ),
            **error_responses(401, 404, 429),
        },
    )
    def post(self, request: Request, game_id: str) -> Response:
        given, ply = move_input(request.data)
        key = idempotency_key(request)
        action = action_input(given)
        user = request_user(request)
        # The service finds and locks the game in one query, checks the seat and hides a
        # private game from others.
        result = game_act(
            game=game_id, user=user, action=action, expected_ply=ply, idempotency_key=key
        )
        minimal = progress.wants_minimal(request.headers.get("Prefer"))
        body = {
            "replayed": result.replayed,
            "move": move_log.move_entry(
                result.move, position=result.seat.position, full=False, own=True
            ),
            "game": game_after(result, user, minimal=minimal),
        }
        return Response(body, headers=answer_headers(replayed=result.replayed, minimal=minimal))


def action_input(action: Any) -> Any:
    """An action as the API takes it: its JSON object, or its text form parsed."""
    if isinstance(action, str):
        try:
            return parse_action(action)
        except IllegalAction as error:
            raise illegal_move(error) from None
    if not isinstance(action, dict):
        raise IllegalMove(_("an action is an object or its text form"), code="bad_action")
    return action


def idempotency_key(request: Request, *, longest: int = MAX_IDEMPOTENCY_KEY) -> str | None:
    """The request's Idempotency-Key header, refused when longer than ``longest``."""
    key = request.headers.get("Idempotency-Key") or None
    if key is not None and len(key) > longest:
        raise ApiError(
            "invalid",
            ngettext(
                "Idempotency-Key is longer than %(max_idempotency_key)s character",
                "Idempotency-Key is longer than %(max_idempotency_key)s characters",
                longest,
            )
            % {"max_idempotency_key": longest},
        )
    return key


class GameMoveListView(GameAPIView):
    permission_classes = [permissions.AllowAny]  # as the game: public games for anyone

    @extend_schema(
        operation_id="games_moves",
        tags=["games"],
        summary="The move log",
        description="While the game runs: every move in its public form (another player's "
        "draw from the stock shows no card), your own moves in full. Once the game is over: "
        "every move in full and the hands dealt in each deal: the replay. Oldest first from "
        "`after` (a ply), 100 moves a page unless `page_size` says less: follow `next`.",
        parameters=[GAME_ID, s.MoveLogFilterSerializer, *cursor_parameters(MOVE_PAGE)],
        responses={
            200: vs.MoveLogSerializer,
            400: error_response(
                description=f"`invalid` (`after`, with `details.fields`), {LIST_ERRORS}",
            ),
            **error_responses(401, 404, 429),
        },
    )
    def get(self, request: Request, game_id: str) -> Response:
        params = s.MoveLogFilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        user = request.user
        game = selectors.game_get(public_id=game_id, user=user)
        log: dict[str, Any] = {}

        def read(after: int, limit: int) -> tuple[list[Any], int | None]:
            log.update(move_log.move_log_for(game=game, user=user, after=after, limit=limit))
            return log["moves"], log["next_after"]

        pages = LogPagination()
        pages.page_size = MOVE_PAGE
        response = pages.page_of_log(request, after=params.validated_data["after"], read=read)
        response.data = {
            "complete": log["complete"],
            "ply": log["ply"],
            "deals": log["deals"],
            "seating": log["seating"],
            **response.data,
        }
        return response
