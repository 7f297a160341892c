"""Serializer fields for JSON request bodies: each takes only its own JSON type.

DRF's fields coerce: ``"1"`` passes for an integer, ``"true"`` or ``1`` for a boolean,
``7`` for a string. The API is strict instead, as its schema says: a value of another
JSON type is a 400 ``invalid`` naming the field. Input serializers of JSON bodies use
these classes; those of query parameters keep DRF's, which parse the text of the URL.
DRF also ignores a key that is no field: :class:`KnownFieldsOnly` refuses it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers


def json_type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


class StrictJsonType(serializers.Field):
    """Refuses a value whose JSON type is not one of ``json_types`` (booleans are not
    numbers here), then validates it as the field it is mixed into."""

    json_types: tuple[type, ...] = ()
    expected = ""
    default_error_messages = {"wrong_type": "Expected {expected}, got {actual}."}

    def to_internal_value(self, data: Any) -> Any:
        is_bool = isinstance(data, bool)
        if not isinstance(data, self.json_types) or (is_bool and bool not in self.json_types):
            self.fail("wrong_type", expected=self.expected, actual=json_type_name(data))
        return super().to_internal_value(data)


class IntegerField(StrictJsonType, serializers.IntegerField):
    # A float is a number too; DRF refuses one with a fraction.
    json_types = (int, float)
    expected = "an integer"


class FloatField(StrictJsonType, serializers.FloatField):
    json_types = (int, float)
    expected = "a number"


class BooleanField(StrictJsonType, serializers.BooleanField):
    json_types = (bool,)
    expected = "a boolean (true or false)"


class CharField(StrictJsonType, serializers.CharField):
    json_types = (str,)
    expected = "a string"


class EmailField(StrictJsonType, serializers.EmailField):
    json_types = (str,)
    expected = "a string"


class RegexField(StrictJsonType, serializers.RegexField):
    json_types = (str,)
    expected = "a string"


class KnownFieldsOnly(serializers.Serializer[Any]):
    """A JSON body whose every key is one of the serializer's fields: a misspelt name is
    a 400 ``invalid`` naming it (``details.fields.<name>``), not a field silently left
    at its default (``destination`` for ``to`` made an open challenge)."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            unknown = sorted(str(key) for key in data if key not in self.fields)
            if unknown:
                known = ", ".join(self.fields)
                message = _("Not a field of this request (its fields: %(fields)s).") % {
                    "fields": known
                }
                raise serializers.ValidationError({name: [message] for name in unknown})
        return super().to_internal_value(data)
