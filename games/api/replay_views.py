"""The replay of a finished game: every deal, every move, every hand face up."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response

from games.api import replay_serializers as rs
from games.api.views import GAME_ID, GameAPIView
from games.read import replays, selectors
from remi_site.api_errors import error_response, error_responses


class GameReplayView(GameAPIView):
    permission_classes = [permissions.AllowAny]  # as the game: public games for anyone

    @extend_schema(
        operation_id="games_replay",
        tags=["games"],
        summary="The replay of a finished game",
        description="Every deal of a finished game rebuilt by the engine from the move "
        "log: the card of each id, the table as dealt and after each move (every hand "
        "face up) and the moves in full. Players of the game see it; anyone sees a "
        "public game's. A game not finished yet answers 409 `game_not_finished`.",
        parameters=[GAME_ID],
        responses={
            200: rs.ReplaySerializer,
            409: error_response(
                description="`game_not_finished`: the game is still in the lobby, being "
                "played or was aborted (`details.status`)."
            ),
            **error_responses(401, 404, 429),
        },
    )
    def get(self, request: Request, game_id: str) -> Response:
        game = selectors.game_get(public_id=game_id, user=request.user)
        return Response(replays.game_replay_for(game=game))
