"""Serializers of the account's settings, its email address, password and deletion."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from accounts.api.serializers import DisplayNameRule, EmailOrEmptyField
from accounts.models import CardColours, Language
from games.models import PlayerSettings
from remi_site import strict_fields as strict

EMAIL_TURNS_HELP = (
    "“Your turn” emails: `each` move (not while you are at the table), a `daily` digest, "
    "or `off`. The detailed notification settings are `/me/notifications`."
)

CARD_COLOURS_HELP = (
    "The deck's colours on every page that shows cards: `two` (♠ ♣ black, ♥ ♦ red) or "
    "`four` (♠ black, ♥ red, ♦ blue, ♣ green)."
)


class SettingsSerializer(serializers.Serializer[Any]):
    display_name = serializers.CharField(help_text="What other players see.")
    language = serializers.ChoiceField(
        choices=Language.choices, help_text="The site's language (stored for the translations)."
    )
    email_turns = serializers.ChoiceField(
        choices=PlayerSettings.EmailTurns.choices, help_text=EMAIL_TURNS_HELP
    )
    email_challenges = serializers.BooleanField(help_text="Email me when someone challenges me.")
    email_report_outcomes = serializers.BooleanField(
        help_text="Email me what came of my reports (off unless chosen)."
    )
    chat_enabled = serializers.BooleanField(help_text="Show the table chat.")
    show_online = serializers.BooleanField(
        help_text="Others see when you are online (your public profile's `online`)."
    )
    card_colours = serializers.ChoiceField(choices=CardColours.choices, help_text=CARD_COLOURS_HELP)


class SettingsUpdateSerializer(DisplayNameRule, serializers.Serializer[Any]):
    display_name = strict.CharField(max_length=40, required=False)
    language = serializers.ChoiceField(choices=Language.choices, required=False)
    email_turns = serializers.ChoiceField(
        choices=PlayerSettings.EmailTurns.choices, required=False, help_text=EMAIL_TURNS_HELP
    )
    email_challenges = strict.BooleanField(required=False)
    email_report_outcomes = strict.BooleanField(required=False)
    chat_enabled = strict.BooleanField(required=False)
    show_online = strict.BooleanField(required=False)
    card_colours = serializers.ChoiceField(
        choices=CardColours.choices, required=False, help_text=CARD_COLOURS_HELP
    )


class PasswordConfirmSerializer(serializers.Serializer[Any]):
    password = strict.CharField(
        max_length=4096,
        trim_whitespace=False,
        style={"input_type": "password"},
        help_text="Your current password.",
    )


class EmailChangeSerializer(PasswordConfirmSerializer):
    email = EmailOrEmptyField(
        help_text="The new address: it takes effect once the link sent to it is opened. "
        "Empty: remove your address at once."
    )


class EmailStateSerializer(serializers.Serializer[Any]):
    email = EmailOrEmptyField(help_text="Your verified address; empty when you have none.")
    pending_email = EmailOrEmptyField(
        help_text="The address waiting for its verification link; empty when none waits."
    )
    sent = serializers.BooleanField(help_text="A verification link was sent just now.")


class PasswordChangeSerializer(serializers.Serializer[Any]):
    old_password = strict.CharField(max_length=4096, trim_whitespace=False)
    new_password = strict.CharField(
        max_length=4096,
        trim_whitespace=False,
        help_text="Checked by the site's password rules (length, not common, not all digits, "
        "not like your username).",
    )
