"""Asking the engine about melds before laying them down: the table page's staging row
(the running total toward the opening) and its "Lay group" hints.

Read-only: nothing is played, and the answer holds nothing but the caller's own
cards. The rules live in the engine alone (``arrange_meld``, ``meld_value``,
``Deal.check_opening``), so a client never duplicates them and house rules hold.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer

from accounts.authentication import request_user
from games.api.view_serializers import MELD_KINDS, CardPairSerializer
from games.api.views import GAME_ID, GameAPIView
from games.read import meld_check, selectors
from remi_site import strict_fields as strict
from remi_site.api_errors import error_response, error_responses

MAX_MELDS = 12
MAX_MELD_CARDS = 16


class MeldCheckRequestSerializer(Serializer):
    melds = serializers.ListField(
        child=serializers.ListField(
            child=strict.IntegerField(min_value=0),
            min_length=1,
            max_length=MAX_MELD_CARDS,
        ),
        min_length=1,
        max_length=MAX_MELDS,
        help_text="Each meld as the ids of cards in your hand (the `id` of the game view's "
        "`deal.hand` pairs), in any order.",
    )


class MeldAnswerSerializer(Serializer):
    valid = serializers.BooleanField()
    kind = serializers.ChoiceField(
        choices=MELD_KINDS, allow_null=True, help_text="null when not a meld."
    )
    value = serializers.IntegerField(
        allow_null=True, help_text="Its value toward the opening; null when not a meld."
    )
    code = serializers.CharField(
        allow_null=True,
        help_text="Why it is not a meld, the engine's code (`mixed_suits`, `too_short`, "
        "`not_consecutive`, `adjacent_jokers`, `too_many_jokers`, …); null when it is.",
    )
    message = serializers.CharField(allow_null=True, help_text="The same for people.")
    cards = CardPairSerializer(
        many=True,
        help_text="The meld laid out as it would go down (a run low to high, jokers in "
        "their places); as named when it is not a meld. Send these cards, in this order, "
        "to lay it down.",
    )


class OpeningAnswerSerializer(Serializer):
    valid = serializers.BooleanField(
        help_text="Laying all these melds down at once would be your opening now."
    )
    code = serializers.CharField(
        allow_null=True,
        help_text="Why not: the first meld's code when one is not a meld, else "
        "`opening_too_low`, `no_opening_in_first_round`, `last_card` or "
        "`already_opened`; null when valid.",
    )
    message = serializers.CharField(allow_null=True)


class MeldCheckSerializer(Serializer):
    melds = MeldAnswerSerializer(many=True, help_text="One answer per meld, in order.")
    total = serializers.IntegerField(help_text="The value of the melds that are melds.")
    opening_minimum = serializers.IntegerField(help_text="The game's ruleset's minimum.")
    opening = OpeningAnswerSerializer()


class GameMeldCheckView(GameAPIView):
    @extend_schema(
        operation_id="games_melds_check",
        tags=["games"],
        summary="Check melds from your hand",
        description="What the engine says of melds you hold, under the game's ruleset: "
        "each one laid out with its kind and value (or why it is none) and whether laying "
        "them all down would be your opening (the ruleset's `opening_minimum` and its other "
        "conditions; a seat still to draw is counted with the card it will draw). Changes "
        "nothing; seated players of an active game only.",
        parameters=[GAME_ID],
        request=MeldCheckRequestSerializer,
        responses={
            200: MeldCheckSerializer,
            400: error_response(
                description="`cards_not_in_hand` or `cards_named_twice` (with `details.ids`), "
                "or `invalid`.",
            ),
            403: error_response(description="`not_a_player` (spectators)."),
            409: error_response(description="`game_not_active`."),
            **error_responses(401, 404, 429),
        },
        examples=[
            OpenApiExample(
                "An opening worth 54",
                request_only=True,
                value={"melds": [[41, 7, 19], [3, 28, 50]]},
            ),
            OpenApiExample(
                "An opening worth 54",
                response_only=True,
                value={
                    "melds": [
                        {
                            "valid": True,
                            "kind": "run",
                            "value": 24,
                            "code": None,
                            "message": None,
                            "cards": [
                                {"id": 7, "card": "7H"},
                                {"id": 41, "card": "JK"},
                                {"id": 19, "card": "9H"},
                            ],
                        },
                        {
                            "valid": True,
                            "kind": "set",
                            "value": 30,
                            "code": None,
                            "message": None,
                            "cards": [
                                {"id": 3, "card": "QS"},
                                {"id": 28, "card": "QD"},
                                {"id": 50, "card": "QC"},
                            ],
                        },
                    ],
                    "total": 54,
                    "opening_minimum": 51,
                    "opening": {"valid": True, "code": None, "message": None},
                },
            ),
        ],
    )
    def post(self, request: Request, game_id: str) -> Response:
        body = MeldCheckRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        user = request_user(request)
        game = selectors.game_get(public_id=game_id, user=user)
        return Response(
            meld_check.meld_check_for(game=game, user=user, melds=body.validated_data["melds"])
        )
