"""Challenges over REST: challenge a named account or anyone, list, accept, decline,
cancel. The accounts concerned also get each change on their event stream
(``{"type": "subscribe", "stream": "events"}`` on ``/ws/v1/``, docs/websocket.md).

Thin: parse, find the account challenged, call ``games.challenges.services``, answer
with ``games.challenges.selectors.challenge_entry``.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from accounts import selectors as account_selectors
from accounts.authentication import request_user
from games.api import challenge_serializers as cs
from games.api.views import GAME_ID, GameAPIView
from games.challenges import rematch, services
from games.errors import GameNotFound
from games.read import challenges as selectors
from remi_site.api_errors import error_response, error_responses
from remi_site.pagination import LIST_ERRORS, CursorPagination, cursor_parameters

CHALLENGE_ID = OpenApiParameter(
    "challenge_id", OpenApiTypes.STR, OpenApiParameter.PATH, description="The challenge's id."
)


class ChallengePagination(CursorPagination):
    ordering = ("-created_at", "-id")


def _list_errors() -> dict[int, OpenApiResponse]:
    return {
        400: error_response(
            description=f"`invalid` (the filters, with `details.fields`), {LIST_ERRORS}",
        ),
        **error_responses(401, 429),
    }


class ChallengeListView(GameAPIView):
    @extend_schema(
        operation_id="challenges_list",
        tags=["challenges"],
        summary="Your pending challenges",
        description="Challenges waiting for an answer, made to you (`direction=in`), by "
        "you (`out`) or both, newest first.",
        parameters=[cs.ChallengeListFilterSerializer, *cursor_parameters()],
        responses={200: cs.ChallengePageSerializer, **_list_errors()},
    )
    def get(self, request: Request) -> Response:
        filters = cs.ChallengeListFilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        user = request_user(request)
        challenges = selectors.challenge_list(
            user=user, direction=filters.validated_data.get("direction")
        )
        return ChallengePagination().paginated(challenges, request, selectors.challenge_entry)

    @extend_schema(
        operation_id="challenges_create",
        tags=["challenges"],
        summary="Challenge an account, or anyone",
        description="The terms are those of a new game (`POST /games`), with `bots` for "
        "extra built-in bots; the game has 2 + `bots` seats. `to` names the account "
        "challenged (a person, a bot account, or a built-in bot, which accepts at once: "
        "the answer is then `accepted` with the `game` started); without `to` anyone may "
        "accept. You host the game, in seat 0. At most `CHALLENGES_PER_USER` (20) of "
        "your challenges may wait for an answer at once.",
        request=cs.ChallengeCreateSerializer,
        responses={
            201: cs.ChallengeSerializer,
            400: error_response(
                description="`invalid` (fields), `challenge_self`, `unknown_preset`, "
                "`invalid_ruleset`, `invalid_players`, `invalid_time_control`, `unknown_bot`, "
                "`rated_with_bots`. A key that is no field of the request is `invalid` too, "
                "naming it in `details.fields`.",
            ),
            403: error_response(
                description="`bots_rated_vs_humans`: a rated game between a bot account and "
                "a person, which this site does not allow (`REMI_BOTS_RATED_VS_HUMANS`).",
            ),
            404: error_response(description="No account named `to`."),
            409: error_response(
                description="`too_many_challenges` (`details.limit`).",
            ),
            **error_responses(401, 429),
        },
    )
    def post(self, request: Request) -> Response:
        data = cs.ChallengeCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        name = fields.pop("to")
        destination = None
        if name is not None:
            destination = account_selectors.public_user(username=name)
            if destination is None:
                raise GameNotFound(_("no such player"), code="not_found")
        challenge = services.challenge_create(
            challenger=request_user(request), destination=destination, **fields
        )
        return Response(selectors.challenge_entry(challenge), status=status.HTTP_201_CREATED)


class OpenChallengeListView(GameAPIView):
    @extend_schema(
        operation_id="challenges_open",
        tags=["challenges"],
        summary="Open challenges you may accept",
        description="Others' challenges made to anyone, newest first.",
        parameters=cursor_parameters(),
        responses={200: cs.ChallengePageSerializer, **_list_errors()},
    )
    def get(self, request: Request) -> Response:
        challenges = selectors.open_challenge_list(user=request_user(request))
        return ChallengePagination().paginated(challenges, request, selectors.challenge_entry)


class ChallengeDetailView(GameAPIView):
    @extend_schema(
        operation_id="challenges_retrieve",
        tags=["challenges"],
        summary="One challenge",
        description="Its challenger and the account challenged may read it, anyone an open one.",
        parameters=[CHALLENGE_ID],
        responses={200: cs.ChallengeSerializer, **error_responses(401, 404, 429)},
    )
    def get(self, request: Request, challenge_id: str) -> Response:
        challenge = selectors.challenge_get(public_id=challenge_id, user=request_user(request))
        return Response(selectors.challenge_entry(challenge))


class ChallengeAcceptView(GameAPIView):
    @extend_schema(
        operation_id="challenges_accept",
        tags=["challenges"],
        summary="Accept a challenge",
        description="A challenge made to you, or an open one. The game is created on its "
        "terms with the challenger as host, you take the last seat, and it starts at "
        "once: `game` is its id. A challenge to several accounts (a rematch: `invitees`) "
        "records your answer and starts the game when everyone has accepted; until then "
        "it stays `pending`. Accepting twice changes nothing.",
        parameters=[CHALLENGE_ID],
        request=None,
        responses={
            200: cs.ChallengeSerializer,
            403: error_response(
                description="`own_challenge`, `bots_rated_vs_humans`.",
            ),
            409: error_response(
                description="`challenge_not_pending` (accepted, declined or cancelled "
                "already; `details.status`), `challenge_expired` (`details.expires_at`).",
            ),
            **error_responses(400, 401, 404, 429),
        },
    )
    def post(self, request: Request, challenge_id: str) -> Response:
        challenge = services.challenge_accept(public_id=challenge_id, user=request_user(request))
        return Response(selectors.challenge_entry(challenge))


class ChallengeDeclineView(GameAPIView):
    @extend_schema(
        operation_id="challenges_decline",
        tags=["challenges"],
        summary="Decline a challenge made to you",
        description="With a `reason` from a fixed list (`generic` if none): the challenger "
        "sees it. One invitee's decline ends a challenge to several accounts for all.",
        parameters=[CHALLENGE_ID],
        request=cs.ChallengeDeclineSerializer,
        responses={
            200: cs.ChallengeSerializer,
            403: error_response(
                description="`not_challenged`: your own or an open challenge.",
            ),
            409: error_response(description="`challenge_not_pending`."),
            **error_responses(400, 401, 404, 429),
        },
    )
    def post(self, request: Request, challenge_id: str) -> Response:
        data = cs.ChallengeDeclineSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        challenge = services.challenge_decline(
            public_id=challenge_id,
            user=request_user(request),
            reason=data.validated_data["reason"],
        )
        return Response(selectors.challenge_entry(challenge))


class ChallengeCancelView(GameAPIView):
    @extend_schema(
        operation_id="challenges_cancel",
        tags=["challenges"],
        summary="Cancel your challenge",
        parameters=[CHALLENGE_ID],
        request=None,
        responses={
            200: cs.ChallengeSerializer,
            403: error_response(
                description="`not_challenger`: a challenge made to you (decline it).",
            ),
            409: error_response(description="`challenge_not_pending`."),
            **error_responses(401, 404, 429),
        },
    )
    def post(self, request: Request, challenge_id: str) -> Response:
        challenge = services.challenge_cancel(public_id=challenge_id, user=request_user(request))
        return Response(selectors.challenge_entry(challenge))


class RematchView(GameAPIView):
    @extend_schema(
        operation_id="games_rematch_retrieve",
        tags=["challenges"],
        summary="The rematch offered of a finished game",
        description="The challenge that offers the game again (as `GET /challenges/{id}`), "
        "with `invitees`: who has answered so far. Its players who offered it or are asked "
        "may read it; 404 while none was offered.",
        parameters=[GAME_ID],
        responses={200: cs.ChallengeSerializer, **error_responses(401, 404, 429)},
    )
    def get(self, request: Request, game_id: str) -> Response:
        challenge = selectors.rematch_get(game_id=game_id, user=request_user(request))
        return Response(selectors.challenge_entry(challenge))

    @extend_schema(
        operation_id="games_rematch",
        tags=["challenges"],
        summary="Offer a finished game again",
        description="A challenge on the same terms as the finished game (its preset and "
        "house rules, time control, visibility, rated or not) to every other seat: each "
        "person and bot account is in `invitees` and gets a `challenge` event (with "
        "`rematch_of`); built-in bots are seated again and need not be asked. Each invitee "
        "accepts or declines with `POST /challenges/{id}/accept` or `/decline` (or accepts "
        "by asking for the rematch too: this call, answered 200); everyone hears each "
        "acceptance (`challenge_answered`), and the game starts with the last one "
        "(`challenge_accepted`, with the new `game`). A decline, your `cancel`, the expiry "
        "(`expires_at`: `REMATCH_LIVE_EXPIRY_S` after the offer at a live table, the game's "
        "days per move at a correspondence one) or an invitee's account closing ends it "
        "for all. You host the new game in seat 0, its built-in bots follow, then the "
        "invitees in their old order. A table of built-in bots only accepts at once (the "
        "answer is then `accepted`). A game is offered again once, whatever the answer.",
        parameters=[GAME_ID],
        request=None,
        responses={
            200: OpenApiResponse(
                cs.ChallengeSerializer,
                description="Another player's offer was waiting for you: this is your "
                "acceptance of it.",
            ),
            201: cs.ChallengeSerializer,
            403: error_response(
                description="`player_unavailable` (another player is banned or deleted: "
                "`details.username`), `bots_rated_vs_humans` (a rated game between a bot "
                "account and a person, which this site no longer allows), "
                "`account_unavailable`, `playban`.",
            ),
            404: error_response(description="No such game of yours."),
            409: error_response(
                description="`game_not_finished` (`details.status`), `rematch_exists` "
                "(`details.challenge`: the rematch already offered, by you or answered), "
                "`challenge_expired`, `too_many_challenges`.",
            ),
            **error_responses(401, 429),
        },
    )
    def post(self, request: Request, game_id: str) -> Response:
        offer = rematch.rematch_offer(public_id=game_id, user=request_user(request))
        answer = status.HTTP_201_CREATED if offer.created else status.HTTP_200_OK
        return Response(selectors.challenge_entry(offer.challenge), status=answer)
