"""Serializers of a deal's review (``GET /api/v1/games/{id}/deals/{n}/review``).

The answer is the plain dict ``games.read.reviews`` builds; these classes describe it
for the OpenAPI schema (the tests check the answer against it).
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.api.serializer_base import CARD_HELP
from games.api.view_serializers import UserCardSerializer

Serializer = serializers.Serializer[Any]


class ReviewSeatSerializer(Serializer):
    position = serializers.IntegerField()
    user = UserCardSerializer()


class ReviewBetterSerializer(Serializer):
    """What the exact solver would have laid from where the player had drawn."""

    kind = serializers.ChoiceField(
        choices=["opening", "lay_down", "lay_off"],
        help_text="`opening`: the player could have opened and did not; `lay_down`: more "
        "cards in new melds; `lay_off`: cards that could have gone onto the table.",
    )
    melds = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text=f"The solver's new melds. {CARD_HELP}",
    )
    lay_offs = serializers.ListField(
        child=serializers.CharField(), help_text="The cards it would have laid off, in order."
    )
    left_penalty = serializers.IntegerField(help_text="Penalty left in hand after its play.")
    saved = serializers.IntegerField(help_text="Penalty points fewer in hand than the player's.")
    text = serializers.CharField(help_text="The same in the reader's language.")


class ReviewFedSerializer(Serializer):
    """The turn's discard, taken by the next player and laid in their turn."""

    card = serializers.CharField(help_text=CARD_HELP)
    seat = serializers.IntegerField(help_text="The seat that took it.")
    points = serializers.IntegerField(help_text="The penalty of what they laid with it.")
    text = serializers.CharField()


class ReviewTurnSerializer(Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField()
    plies = serializers.ListField(
        child=serializers.IntegerField(), help_text="The turn's first and last ply."
    )
    played = serializers.ListField(
        child=serializers.CharField(), help_text="What the player did, in words."
    )
    examined = serializers.BooleanField(
        help_text="False when the solver's time for the deal ran out before this turn."
    )
    left_penalty = serializers.IntegerField(
        allow_null=True, help_text="Penalty in hand just before the discard."
    )
    better = ReviewBetterSerializer(allow_null=True)
    fed = ReviewFedSerializer(allow_null=True)


class DealReviewSerializer(Serializer):
    id = serializers.CharField()
    deal = serializers.IntegerField()
    complete = serializers.BooleanField(
        help_text="True once the game is over: every seat's turns. Before, the viewer's own."
    )
    seat = serializers.IntegerField(allow_null=True, help_text="The viewer's seat, if any.")
    seats = ReviewSeatSerializer(many=True)
    turns = ReviewTurnSerializer(many=True)
    unexamined = serializers.IntegerField()
    computed_at = serializers.DateTimeField()
