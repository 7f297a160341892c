"""Serializers of the live-play endpoints: vacation and the absent-player choice of a
live table (docs/rules.md §10).

Outputs are plain dicts built by the views from ``games.clock`` and
``games.play.timeouts``; these classes describe them for the OpenAPI schema (the tests
check every response against it).
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from remi_site import strict_fields as strict

Serializer = serializers.Serializer[Any]


# ------------------------------------------------------------------ vacation


class VacationSerializer(Serializer):
    days_left = serializers.FloatField(
        help_text="Vacation days you may still take (earned over time, up to `cap_days`)."
    )
    cap_days = serializers.FloatField(help_text="The most days the allowance can hold.")
    days_per_year = serializers.FloatField(help_text="How fast the allowance is earned.")
    active = serializers.BooleanField(help_text="You are on vacation now.")
    started_at = serializers.DateTimeField(
        allow_null=True, help_text="When the current vacation began (null: not on vacation)."
    )
    until = serializers.DateTimeField(
        allow_null=True, help_text="When the current vacation ends (null: not on vacation)."
    )


class VacationStartSerializer(Serializer):
    days = strict.FloatField(
        min_value=0.1,
        max_value=365,
        help_text="How long the vacation lasts, in days (fractions allowed); taken from "
        "the allowance. The deadlines of your correspondence games where it is your turn "
        "move by as much; a turn that comes to you meanwhile starts its clock when the "
        "vacation ends.",
    )


# ------------------------------------------------------------------ absent players


CHOICE_VALUES = ["wait", "continue", "end"]


class AbsentWaitSerializer(Serializer):
    seat = serializers.IntegerField(help_text="The absent player's seat (to move).")
    stage = serializers.ChoiceField(
        choices=["waiting", "choice"],
        help_text="`waiting`: the table waits for the player until `deadline_at`; `choice`: "
        "the host may choose until `deadline_at`, then `default` applies.",
    )
    waits = serializers.IntegerField(help_text="Waits granted for this turn so far.")
    deadline_at = serializers.DateTimeField(allow_null=True)
    choices = serializers.ListField(
        child=serializers.ChoiceField(choices=CHOICE_VALUES),
        help_text="What the host may choose now (empty while `waiting`). `continue` only "
        "when at least two other players stay in.",
    )
    default = serializers.ChoiceField(
        choices=["continue", "end"], help_text="What happens if the host does not choose."
    )


class AbsentStateSerializer(Serializer):
    ply = serializers.IntegerField(help_text="The game's ply: send it with the choice.")
    host = serializers.IntegerField(allow_null=True, help_text="The host's seat.")
    absent = AbsentWaitSerializer(
        allow_null=True, help_text="The wait for the player to move; null: nobody is awaited."
    )
    you_choose = serializers.BooleanField(help_text="You are the host and may choose now.")


class AbsentChoiceSerializer(Serializer):
    choice = serializers.ChoiceField(
        choices=CHOICE_VALUES,
        help_text="`wait`: wait for the player again; `continue`: go on without them (their "
        "seat is out, the server plays its turns; 3-4 players); `end`: end the game now "
        "(their seat is out; the lowest total among the others wins, with 2 players the "
        "other one).",
    )
    ply = strict.IntegerField(
        min_value=0,
        required=False,
        allow_null=True,
        default=None,
        help_text="The game's `ply` you decided on; a stale one is refused (409).",
    )
