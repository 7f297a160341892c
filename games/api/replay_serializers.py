"""Serializers of the replay of a finished game (``GET /api/v1/games/{id}/replay``).

The answer is the plain dict ``games.read.replays`` builds; these classes describe it
for the OpenAPI schema (the tests check the answer against it).
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.api.serializer_base import CARD_HELP
from games.api.view_serializers import (
    FinishedDealSerializer,
    MoveEntrySerializer,
    UserCardSerializer,
)

Serializer = serializers.Serializer[Any]

_IDS = "Card ids: look each one up in the deal's `cards`."


class ReplayMeldSerializer(Serializer):
    owner = serializers.IntegerField(help_text="The seat that laid the meld.")
    kind = serializers.ChoiceField(choices=["run", "set"])
    cards = serializers.ListField(
        child=serializers.IntegerField(), help_text=f"Laid-out order (runs low to high). {_IDS}"
    )


class ReplayStateSerializer(Serializer):
    """The whole table at one point of the deal, every hand face up."""

    to_move = serializers.IntegerField(
        allow_null=True, help_text="The seat to move next; null once the deal is over."
    )
    hands = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text=f"Each seat's hand, in the order it holds it. {_IDS}",
    )
    table = ReplayMeldSerializer(many=True, help_text="The melds on the table, by index.")
    discard = serializers.ListField(
        child=serializers.IntegerField(), help_text=f"The discard pile, top last. {_IDS}"
    )
    stock_count = serializers.IntegerField()
    opened = serializers.ListField(
        child=serializers.BooleanField(), help_text="Each seat has opened."
    )


class ReplayDealSerializer(Serializer):
    number = serializers.IntegerField(help_text="The deal's number in the match, from 1.")
    dealer = serializers.IntegerField()
    cards = serializers.ListField(
        child=serializers.CharField(max_length=4),
        help_text=f"The card of each physical id (the list's index). {CARD_HELP}",
    )
    states = ReplayStateSerializer(
        many=True,
        help_text="The table as dealt, then after each move: `states[k]` is the table "
        "after `moves[k - 1]` (one more state than moves).",
    )
    moves = MoveEntrySerializer(many=True, help_text="The deal's moves in full, by ply.")
    result = FinishedDealSerializer(
        allow_null=True, help_text="Null for a deal the game ended before it was over."
    )


class ReplaySeatSerializer(Serializer):
    position = serializers.IntegerField()
    user = UserCardSerializer()
    total = serializers.IntegerField(help_text="The seat's final total.")


class ReplaySerializer(Serializer):
    id = serializers.CharField()
    preset = serializers.CharField()
    preset_name = serializers.CharField(help_text="The preset's name as players read it.")
    players = serializers.IntegerField()
    seats = ReplaySeatSerializer(many=True)
    winners = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    end_reason = serializers.CharField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    deals = ReplayDealSerializer(many=True)
