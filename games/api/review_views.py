"""A deal's review: each turn against the exact solver's play (``games.read.reviews``)."""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response

from games import tasks
from games.api import review_serializers as rs
from games.api.views import GAME_ID, GameAPIView
from games.errors import Conflict
from games.models import Game
from games.read import reviews, selectors
from remi_site.api_errors import error_response, error_responses

logger = logging.getLogger(__name__)

DEAL_NUMBER = OpenApiParameter(
    "number", OpenApiTypes.INT, OpenApiParameter.PATH, description="The deal's number (1, 2, …)."
)
# How long a review asked for again is not queued again (its task is on its way).
REQUEUE_S = 60


def deal_review(user: Any, game_id: str, number: int) -> dict[str, Any]:
    """The review for the page and the API; a review not made yet is queued again (a
    lost task or Redis then only delays it)."""
    game = selectors.game_get(public_id=game_id, user=user)
    try:
        return reviews.deal_review_for(game=game, number=number, user=user)
    except Conflict as error:
        if error.code == reviews.NOT_READY:
            requeue(game, number)
        raise


def requeue(game: Game, number: int) -> None:
    key = f"remi:review-queued:{game.pk}:{number}"
    try:
        if not cache.add(key, 1, timeout=REQUEUE_S):
            return
    except Exception:
        logger.warning("cache unavailable: queueing the review of %s without it", game.public_id)
    try:
        tasks.deal_review.delay(game.public_id, number)
    except Exception:
        logger.exception("could not queue the review of deal %s of %s", number, game.public_id)
        _forget(key)  # the next request tries again


def _forget(key: str) -> None:
    try:
        cache.delete(key)
    except Exception:
        logger.warning("cache unavailable: %s not cleared", key)


class DealReviewView(GameAPIView):
    permission_classes = [permissions.AllowAny]  # as the game: public games for anyone

    @extend_schema(
        operation_id="games_deal_review",
        tags=["games"],
        summary="The review of an ended deal",
        description="Each turn of the deal against the exact solver's play from where the "
        "player had drawn: what was played, what the solver would have laid where it "
        "leaves fewer penalty points in hand (an opening, a larger lay-down, lay-offs) and "
        "a discard the next player took and laid. While the game is played a player sees "
        "their own turns only (their own cards); once it is over, anyone who may see the "
        "game sees every turn. Computed in the background after the deal ends.",
        parameters=[GAME_ID, DEAL_NUMBER],
        responses={
            200: rs.DealReviewSerializer,
            403: error_response(
                description="`review_players_only`: the game is being played and you do "
                "not sit in it."
            ),
            404: error_response(description="`not_found`, `deal_not_found`."),
            409: error_response(
                description="`deal_not_over`: the deal is being played; "
                "`review_not_ready`: the review is being prepared (ask again shortly)."
            ),
            **error_responses(401, 429),
        },
    )
    def get(self, request: Request, game_id: str, number: int) -> Response:
        return Response(deal_review(request.user, game_id, number))
