"""Serializers of the notification endpoints: your choices (emails, reminders, time
zone, Web Push), your browsers' push subscriptions, your calendar feed, muted games.

Outputs are plain dicts built by the views from ``games.notify``; these classes
describe them for the OpenAPI schema (the tests check every response against it).
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.models import PlayerSettings
from games.notify import preferences
from remi_site import strict_fields as strict

Serializer = serializers.Serializer[Any]

_EMAIL_TURNS_HELP = (
    "'Your turn' emails in correspondence games: `each` move, a `daily` digest, or `off`. "
    "Never sent while you are connected, nor in games against bots only."
)
_REMINDERS_HELP = (
    "Reminders before your correspondence deadlines (an email, and the websocket event "
    "`reminder`), at each of `reminder_hours`."
)
_HOURS_HELP = (
    f"How many hours before a deadline you are reminded: whole hours from "
    f"{preferences.MIN_REMINDER_HOURS} to {preferences.MAX_REMINDER_HOURS}, at most "
    f"{preferences.MAX_REMINDERS}, e.g. `[24, 8, 2]`. A lead time as long as the whole move "
    "is skipped. A deadline that moves (a vacation) gets its reminders again."
)
_TIME_ZONE_HELP = (
    "The IANA time zone your messages show times in, e.g. `Europe/Belgrade`; empty: not "
    "chosen (UTC; the settings page fills in your browser's)."
)


class NotificationSettingsSerializer(Serializer):
    email_turns = serializers.ChoiceField(
        choices=PlayerSettings.EmailTurns.choices, help_text=_EMAIL_TURNS_HELP
    )
    reminders = serializers.BooleanField(help_text=_REMINDERS_HELP)
    reminder_hours = serializers.ListField(
        child=serializers.IntegerField(
            min_value=preferences.MIN_REMINDER_HOURS, max_value=preferences.MAX_REMINDER_HOURS
        ),
        help_text=_HOURS_HELP,
    )
    email_strikes = serializers.BooleanField(
        help_text="An email when your time runs out and the server plays your turn."
    )
    email_game_over = serializers.BooleanField(
        help_text="An email with the result when one of your games ends."
    )
    time_zone = serializers.CharField(allow_blank=True, help_text=_TIME_ZONE_HELP)
    push_turns = serializers.BooleanField(help_text="Web Push: it is your turn.")
    push_challenges = serializers.BooleanField(help_text="Web Push: someone challenges you.")
    push_game_over = serializers.BooleanField(help_text="Web Push: one of your games ended.")
    push_public_key = serializers.CharField(
        help_text="The site's VAPID public key (base64url): the `applicationServerKey` a "
        "browser subscribes with before `POST /me/push-subscriptions`."
    )
    push_subscriptions = serializers.IntegerField(
        help_text="How many browsers receive your pushes."
    )
    calendar_url = serializers.URLField(
        help_text="Your private calendar feed (ICS) of your correspondence deadlines. Anyone "
        "with the URL can read it: `POST /me/calendar/reset` gives a new one."
    )
    muted_games = serializers.ListField(
        child=serializers.CharField(),
        help_text="The games you muted (`POST /games/{game_id}/mute`): no messages about them.",
    )


class NotificationSettingsUpdateSerializer(Serializer):
    email_turns = serializers.ChoiceField(
        choices=PlayerSettings.EmailTurns.choices, required=False, help_text=_EMAIL_TURNS_HELP
    )
    reminders = strict.BooleanField(required=False, help_text=_REMINDERS_HELP)
    reminder_hours = serializers.ListField(
        child=strict.IntegerField(
            min_value=preferences.MIN_REMINDER_HOURS, max_value=preferences.MAX_REMINDER_HOURS
        ),
        max_length=preferences.MAX_REMINDERS,
        required=False,
        help_text=_HOURS_HELP,
    )
    email_strikes = strict.BooleanField(required=False)
    email_game_over = strict.BooleanField(required=False)
    time_zone = strict.CharField(
        allow_blank=True, max_length=64, required=False, help_text=_TIME_ZONE_HELP
    )
    push_turns = strict.BooleanField(required=False)
    push_challenges = strict.BooleanField(required=False)
    push_game_over = strict.BooleanField(required=False)

    def validate_time_zone(self, value: str) -> str:
        problem = preferences.time_zone_error(value)
        if problem:
            raise serializers.ValidationError(problem)
        return value


# ------------------------------------------------------------------ Web Push


class PushKeysSerializer(Serializer):
    p256dh = strict.CharField(
        max_length=128, help_text="The browser's P-256 public key (base64url)."
    )
    auth = strict.CharField(max_length=64, help_text="The authentication secret (base64url).")


class PushSubscriptionCreateSerializer(Serializer):
    """What a browser's ``PushSubscription.toJSON()`` gives."""

    endpoint = strict.CharField(
        max_length=1024, help_text="The push service's URL for this browser (https)."
    )
    keys = PushKeysSerializer()
    expirationTime = strict.FloatField(
        required=False, allow_null=True, help_text="Ignored (the browser's own field)."
    )


class PushSubscriptionSerializer(Serializer):
    endpoint = serializers.CharField()
    created_at = serializers.DateTimeField()


class PushSubscriptionDeleteSerializer(Serializer):
    endpoint = strict.CharField(max_length=1024, help_text="The endpoint to forget.")


# ------------------------------------------------------------------ calendar, mutes


class CalendarSerializer(Serializer):
    calendar_url = serializers.URLField(help_text="Your calendar feed's new URL.")


class GameMuteSerializer(Serializer):
    muted = serializers.BooleanField(help_text="No messages about this game reach you.")
