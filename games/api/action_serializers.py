"""The games API's actions (a move's body, in its JSON or text form) and the turn's time."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from games.api.serializer_base import Serializer, card_field
from games.play.create import MAX_SECONDS_PER_TURN
from remi_site import strict_fields as strict

# ------------------------------------------------------------------ actions


def _kind(kind: str) -> serializers.ChoiceField:
    """An action body's ``type``: its kind, which tells the members of ``Action`` apart."""
    return serializers.ChoiceField(choices=[kind])


class DrawStockActionSerializer(Serializer):
    """Draw the top card of the stock."""

    type = _kind("draw")


class TakeDiscardActionSerializer(Serializer):
    """Take the top card of the discard pile instead of drawing."""

    type = _kind("take")


class UndoTakeActionSerializer(Serializer):
    """Put the discard just taken back and draw from the stock instead (serbian)."""

    type = _kind("undo")


class LayDownActionSerializer(Serializer):
    """Lay one or more new melds (before opening: the opening, worth the minimum)."""

    type = _kind("lay")
    melds = serializers.ListField(
        child=serializers.ListField(child=card_field()),
        help_text="One or more melds, each in laid-out order (runs low to high).",
    )


class LayOffActionSerializer(Serializer):
    """Add one card from your hand to a table meld."""

    type = _kind("off")
    card = card_field()
    meld = serializers.IntegerField(min_value=0, help_text="The table meld's `index`.")
    end = serializers.ChoiceField(
        choices=["low", "high"],
        required=False,
        allow_null=True,
        help_text="Where a card that fits either end of a run goes (default high); "
        "ignored for a set.",
    )


class SwapJokerActionSerializer(Serializer):
    """Give the real card(s) a table joker stands for and take the joker."""

    type = _kind("swap")
    cards = serializers.ListField(
        child=card_field(), help_text="The real card(s) given for the joker."
    )
    meld = serializers.IntegerField(min_value=0, help_text="The table meld's `index`.")


class DiscardActionSerializer(Serializer):
    """Discard a card: ends the turn (and the deal, if it was your last card)."""

    type = _kind("discard")
    card = card_field()


# One member per kind of action, told apart by ``type`` (the engine's ``Action.kind``).
ACTION_SCHEMA = PolymorphicProxySerializer(
    component_name="Action",
    serializers={
        "draw": DrawStockActionSerializer,
        "take": TakeDiscardActionSerializer,
        "undo": UndoTakeActionSerializer,
        "lay": LayDownActionSerializer,
        "off": LayOffActionSerializer,
        "swap": SwapJokerActionSerializer,
        "discard": DiscardActionSerializer,
    },
    resource_type_field_name="type",
)


@extend_schema_field(ACTION_SCHEMA)
class ActionField(serializers.JSONField):
    """An action object; the engine validates it (a bad one is 400 ``bad_action``)."""


class ActionOrTextField(serializers.JSONField):
    """An action object or its text form (``"discard 5C"``), as a move takes it."""


class ActionOrTextSchema(OpenApiSerializerFieldExtension):
    """``ActionOrTextField`` in the OpenAPI schema: one of the text form and the
    ``Action`` objects, so that a generated client may send either."""

    target_class = ActionOrTextField

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        action = auto_schema._map_serializer_field(ActionField(), direction)
        text = {
            "type": "string",
            "description": "The action's text form: `draw`, `take`, `undo`, `discard 5C`, "
            "`lay 7H 8H 9H | QS QD QC`, `off 10H 0 high`, `swap 5H 2`.",
            "example": "discard 5C",
        }
        return {"oneOf": [text, action]}


# The lower bound ``games.play.create`` holds a live game's turn to (a test pins both).
MIN_SECONDS_PER_TURN = 10


@extend_schema_field(
    {
        "type": "integer",
        "nullable": True,
        "minimum": MIN_SECONDS_PER_TURN,
        "maximum": MAX_SECONDS_PER_TURN,
    }
)
class SecondsPerTurnField(strict.IntegerField):
    """A live game's seconds per turn: the service refuses one out of its bounds
    (``invalid_time_control``), which the schema states."""


def seconds_per_turn_field() -> SecondsPerTurnField:
    return SecondsPerTurnField(
        required=False,
        allow_null=True,
        default=None,
        help_text=f"Live games: seconds a turn may take, {MIN_SECONDS_PER_TURN} to "
        f"{MAX_SECONDS_PER_TURN} (null: 60). Ignored for correspondence games.",
    )
