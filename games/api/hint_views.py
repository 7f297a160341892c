"""The solver's hint for your own hand: the best opening (or, once opened, the melds that
leave the least penalty) and the best lay-offs after it, from the engine
(``games.engine.legal.hint``). Casual games and games against bots only; each request
is a search, so it is rate-limited per user (``THROTTLE_HINT``)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer

from accounts.authentication import request_user
from games.api.action_serializers import ActionField
from games.api.view_serializers import MELD_KINDS, CardPairSerializer
from games.api.views import GAME_ID, GameAPIView
from games.read import selectors
from games.read.hints import hint_for
from remi_site.api_errors import error_response, error_responses


class HintMeldSerializer(Serializer):
    kind = serializers.ChoiceField(choices=MELD_KINDS)
    value = serializers.IntegerField(help_text="Its value toward the opening.")
    cards = CardPairSerializer(many=True, help_text="Your cards, laid out as they go down.")


class HintLayOffSerializer(Serializer):
    card = CardPairSerializer(help_text="Your card.")
    meld = serializers.IntegerField(
        help_text="The table meld's `index` (new melds of the hint are numbered after the "
        "table's, in order)."
    )
    end = serializers.ChoiceField(
        choices=["low", "high"], allow_null=True, help_text="The end of a run; null for a set."
    )


class HintSerializer(Serializer):
    seat = serializers.IntegerField(help_text="Your seat.")
    opened = serializers.BooleanField(help_text="You have opened in this deal.")
    opening_minimum = serializers.IntegerField(help_text="The game's ruleset's minimum.")
    melds = HintMeldSerializer(
        many=True,
        help_text="Before opening: the opening worth the most (even when it is worth too "
        "little, see `opens`). Once opened: the new melds that leave the least penalty.",
    )
    value = serializers.IntegerField(help_text="The melds' value toward the opening.")
    opens = serializers.BooleanField(
        help_text="The melds may be laid down: an opening the ruleset accepts, or new melds "
        "after opening. False: nothing can be laid down yet."
    )
    refusal = serializers.CharField(
        allow_null=True,
        help_text="Why the melds may not be laid down as your opening now, the engine's code "
        "(`opening_too_low`, `no_opening_in_first_round`, …); null when they may.",
    )
    lay_offs = HintLayOffSerializer(
        many=True, help_text="Then these lay-offs, in order: the most penalty they can shed."
    )
    left = CardPairSerializer(many=True, help_text="The cards you hold after all that.")
    penalty_left = serializers.IntegerField(help_text="Their penalty.")
    actions = serializers.ListField(
        child=ActionField(),
        help_text="The hint as action bodies, in order (after your draw if you have still "
        "to draw): send them one by one, then discard.",
    )


class GameHintView(GameAPIView):
    throttle_scope = "hint"

    @extend_schema(
        operation_id="games_hint",
        tags=["games"],
        summary="A hint for your hand (casual games)",
        description="The solver's best play for your own hand and the table as they are: "
        "the best opening before you have opened (the exact optimum: the most value, "
        "keeping a card to discard once you have drawn), or the new melds that leave the "
        "least penalty after; then the lay-offs that shed the most penalty from the rest. "
        "Nothing is played. Not in rated games (403 `hints_not_allowed`); seated players "
        "of an active game only. Rate-limited per user (`THROTTLE_HINT`, 30 a minute by "
        "default).",
        parameters=[GAME_ID],
        request=None,
        responses={
            200: HintSerializer,
            403: error_response(
                description="`hints_not_allowed` (a rated game), `not_a_player`.",
            ),
            409: error_response(description="`game_not_active`."),
            **error_responses(401, 404, 429),
        },
    )
    def post(self, request: Request, game_id: str) -> Response:
        user = request_user(request)
        game = selectors.game_get(public_id=game_id, user=user)
        return Response(hint_for(game=game, user=user))
