"""What the challenge endpoints take and give (``games.api.challenge_views``)."""

from __future__ import annotations

from rest_framework import serializers

from games.api.action_serializers import seconds_per_turn_field
from games.api.serializer_base import Serializer
from games.api.view_serializers import UserCardSerializer
from games.engine import PRESETS
from games.models import Challenge, ChallengeInvitee, Game
from remi_site import strict_fields as strict
from remi_site.pagination import page_serializer


class ChallengeTimeControlSerializer(Serializer):
    kind = serializers.ChoiceField(choices=Game.TimeControl.choices)
    seconds_per_turn = serializers.IntegerField(allow_null=True)
    days_per_move = serializers.IntegerField(allow_null=True)
    time_bank_s = serializers.IntegerField(allow_null=True)


class ChallengeInviteeSerializer(Serializer):
    user = UserCardSerializer()
    answer = serializers.ChoiceField(
        choices=ChallengeInvitee.Answer.choices,
        help_text="`unavailable`: their account was banned, deleted, closed or playbanned "
        "while invited, which ended the challenge.",
    )


class ChallengeSerializer(Serializer):
    id = serializers.CharField(help_text="The challenge's public id.")
    status = serializers.ChoiceField(choices=Challenge.Status.choices)
    open = serializers.BooleanField(help_text="Made to anyone: the first to accept plays.")
    challenger = UserCardSerializer(help_text="Hosts the game, in seat 0.")
    destination = UserCardSerializer(allow_null=True, help_text="Null for an open challenge.")
    preset = serializers.CharField()
    preset_name = serializers.CharField(help_text="The preset's name, in the active language.")
    overrides = serializers.DictField(help_text="House rules over the preset.")
    players = serializers.IntegerField(
        help_text="The seats: 1 + the built-in bots of `bots` + the invited accounts (1 "
        "when `invitees` is empty)."
    )
    bots = serializers.ListField(
        child=serializers.CharField(), help_text="Built-in bots seated after the challenger."
    )
    visibility = serializers.ChoiceField(choices=Game.Visibility.choices)
    time_control = ChallengeTimeControlSerializer()
    rated = serializers.BooleanField()
    decline_reason = serializers.ChoiceField(
        choices=Challenge.DeclineReason.choices, allow_null=True
    )
    cancel_reason = serializers.ChoiceField(
        choices=Challenge.CancelReason.choices,
        allow_null=True,
        help_text="Set when the server cancelled it: what happened to another account, or "
        "`expired` (not everyone answered by `expires_at`).",
    )
    cancel_message = serializers.CharField(
        allow_null=True, help_text="`cancel_reason` in words, in the reader's language."
    )
    accepted_by = UserCardSerializer(allow_null=True)
    game = serializers.CharField(
        allow_null=True, help_text="The game's id once accepted: it has started."
    )
    rematch_of = serializers.CharField(
        allow_null=True,
        help_text="A rematch: the finished game it offers again "
        "(`POST /games/{id}/rematch`); null for any other challenge.",
    )
    invitees = ChallengeInviteeSerializer(
        many=True,
        help_text="A rematch (`rematch_of`) invites every other person and bot account of "
        "its table: each in the order they will be seated, with their answer. The game "
        "starts when all have accepted; one decline ends it. Empty for any other challenge.",
    )
    expires_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When it ends unanswered (`cancel_reason` `expired`); null: it waits "
        "until it is answered or cancelled.",
    )
    created_at = serializers.DateTimeField()


ChallengePageSerializer = page_serializer("ChallengePageSerializer", ChallengeSerializer(many=True))


class ChallengeCreateSerializer(strict.KnownFieldsOnly):
    to = strict.CharField(
        required=False,
        allow_null=True,
        default=None,
        help_text="The username to challenge (a person, a bot account or a built-in bot, "
        "which accepts at once); null or absent: an open challenge anyone may accept.",
    )
    preset = serializers.ChoiceField(choices=list(PRESETS), help_text="The variant.")
    overrides = serializers.DictField(
        required=False,
        default=dict,
        help_text='House rules: ruleset fields to change, e.g. `{"hand_needs_51": false}`.',
    )
    bots = serializers.ListField(
        child=strict.CharField(),
        required=False,
        default=list,
        max_length=2,
        help_text="Built-in bots to seat as well (usernames): the game has 2 + this many seats.",
    )
    visibility = serializers.ChoiceField(
        choices=Game.Visibility.choices, default=Game.Visibility.PUBLIC
    )
    time_control = serializers.ChoiceField(
        choices=Game.TimeControl.choices,
        default=Game.TimeControl.CORRESPONDENCE,
        help_text="Absent: `correspondence` (`days_per_move`, 3 by default), unlike "
        "`POST /games/play-now`, which is `live`. `live` for a game played at the table.",
    )
    seconds_per_turn = seconds_per_turn_field()
    days_per_move = strict.IntegerField(required=False, allow_null=True, default=None)
    time_bank_s = strict.IntegerField(required=False, allow_null=True, default=None)
    rated = strict.BooleanField(default=False)


class ChallengeListFilterSerializer(Serializer):
    direction = serializers.ChoiceField(
        choices=["in", "out"],
        required=False,
        help_text="`in`: made to you; `out`: made by you; absent: both.",
    )


class ChallengeDeclineSerializer(Serializer):
    reason = serializers.ChoiceField(
        choices=Challenge.DeclineReason.choices,
        default=Challenge.DeclineReason.GENERIC,
        help_text="Why, from a fixed list (each has a text to show the challenger).",
    )
