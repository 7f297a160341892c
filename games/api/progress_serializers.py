"""A move's short answer (``Prefer: return=minimal``): the moves and where the game
stands after them (``games.read.progress``), described for the OpenAPI schema."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, PolymorphicProxySerializer
from rest_framework import serializers

from games.api.serializer_base import Serializer
from games.api.view_serializers import (
    ActResultSerializer,
    DealPauseSerializer,
    MoveEntrySerializer,
)
from games.models import Game

PREFER = OpenApiParameter(
    "Prefer",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="`return=minimal` (RFC 7240): answer with the move and where the game "
    "stands after it (`ply`, `to_move`, the deadline), not the whole game; the answer then "
    "carries `Preference-Applied: return=minimal`. The whole game is one "
    "`GET /api/v1/games/{id}` away. Without it, the answer holds the whole game.",
)


class GameProgressSerializer(Serializer):
    id = serializers.CharField(help_text="The game's public id.")
    status = serializers.ChoiceField(choices=Game.Status.choices)
    ply = serializers.IntegerField(help_text="Moves logged so far: send it with your next action.")
    deadline_at = serializers.DateTimeField(
        allow_null=True, help_text="As in the whole game: when the turn's time runs out."
    )
    turn_ends_at = serializers.DateTimeField(
        allow_null=True, help_text="As in the whole game: when the turn's own seconds end."
    )
    deal_number = serializers.IntegerField(help_text="The current deal, from 1.")
    to_move = serializers.IntegerField(allow_null=True, help_text="The seat whose turn it is.")
    winners = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    end_reason = serializers.CharField(allow_null=True)
    pause = DealPauseSerializer(
        allow_null=True, help_text="A live table's pause between deals, while it runs."
    )


class ActChangeSerializer(Serializer):
    replayed = serializers.BooleanField(
        help_text="True when this answers a retry of an earlier request (same Idempotency-Key)."
    )
    move = MoveEntrySerializer()
    game = GameProgressSerializer(help_text="Where the game stands after the move.")


class TurnChangeSerializer(Serializer):
    replayed = serializers.BooleanField(
        help_text="True when this answers a retry of an earlier request (same Idempotency-Key)."
    )
    moves = MoveEntrySerializer(many=True, help_text="The turn's moves as you see them.")
    game = GameProgressSerializer(help_text="Where the game stands after the turn.")


def answer_schema(name: str, whole: type[Serializer], short: type[Serializer]) -> Any:
    """The answer of a move: the whole game, or with ``Prefer: return=minimal`` the
    short one."""
    return PolymorphicProxySerializer(
        component_name=name, serializers=[whole, short], resource_type_field_name=None
    )


ACT_ANSWER = answer_schema("ActAnswer", ActResultSerializer, ActChangeSerializer)


def wants_minimal(prefer: str | None) -> bool:
    """Whether a ``Prefer`` header asks for ``return=minimal`` (RFC 7240: preferences
    separated by commas, each with parameters after semicolons, names in any case, the
    value a token or a quoted string)."""
    if not prefer:
        return False
    for preference in prefer.split(","):
        name, _, value = preference.split(";", 1)[0].partition("=")
        if name.strip().lower() == "return" and value.strip().strip('"').lower() == "minimal":
            return True
    return False


MINIMAL_APPLIED = {"Preference-Applied": "return=minimal"}
