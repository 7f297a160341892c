"""Serializers of the game history and its export."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from accounts.history import RESULTS, TIME_CONTROLS
from games.api.view_serializers import UserCardSerializer
from games.engine import PRESETS
from games.models import Game, Seat

EXPORT_FORMATS = ("csv", "json")


class HistoryFilterSerializer(serializers.Serializer[Any]):
    variant = serializers.ChoiceField(
        choices=list(PRESETS), required=False, help_text="The preset."
    )
    result = serializers.ChoiceField(
        choices=list(RESULTS),
        required=False,
        help_text="`won` (a shared first counts), `lost`, `playing` or `aborted`.",
    )
    opponent = serializers.CharField(
        max_length=150, required=False, help_text="The username of someone you played with."
    )
    time_control = serializers.ChoiceField(choices=list(TIME_CONTROLS), required=False)
    since = serializers.DateField(required=False, help_text="Started on or after (UTC).")
    until = serializers.DateField(required=False, help_text="Started on or before (UTC).")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        since, until = attrs.get("since"), attrs.get("until")
        if since and until and since > until:
            raise serializers.ValidationError({"until": ["Comes before `since`."]})
        return attrs


class ExportFilterSerializer(HistoryFilterSerializer):
    format = serializers.ChoiceField(
        choices=list(EXPORT_FORMATS), help_text="`csv` or `json` (all the fields of a history)."
    )


class HistoryOpponentSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField()
    user = UserCardSerializer()
    total = serializers.IntegerField(help_text="Their match total.")
    status = serializers.ChoiceField(choices=Seat.Status.choices)


class HistoryEntrySerializer(serializers.Serializer[Any]):
    id = serializers.CharField(help_text="The game's public id.")
    preset = serializers.CharField()
    time_control = serializers.ChoiceField(choices=Game.TimeControl.choices)
    rated = serializers.BooleanField()
    players = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    end_reason = serializers.CharField(allow_null=True)
    seat = serializers.IntegerField(help_text="Your seat.")
    result = serializers.ChoiceField(choices=list(RESULTS))
    place = serializers.IntegerField(
        allow_null=True, help_text="1 = first (ties share); null until the game is finished."
    )
    total = serializers.IntegerField(help_text="Your match total (lower is better).")
    opponents = HistoryOpponentSerializer(many=True)
    rating_change = serializers.IntegerField(
        allow_null=True, help_text="What the game did to your rating; null: not rated."
    )
    rating_after = serializers.IntegerField(allow_null=True)


class HistoryExportSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    games = HistoryEntrySerializer(many=True)
