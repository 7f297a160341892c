"""What the games API's serializers share: the base class and a card's field."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

Serializer = serializers.Serializer[Any]

CARD_HELP = "A card: rank then suit (`AS`, `10H`, `QC`), or `JK` for a joker."


def card_field(**kwargs: Any) -> serializers.CharField:
    kwargs.setdefault("help_text", CARD_HELP)
    return serializers.CharField(max_length=4, **kwargs)
