"""Profiles, API tokens and ratings in the admin."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from accounts.admin.base import (
    ReadOnlyAdmin,
)
from accounts.models import (
    ApiToken,
    Profile,
    Rating,
    RatingChange,
)
from accounts.moderation.hidden_columns import HiddenColumnsGuard


@admin.register(Profile)
class ProfileAdmin(HiddenColumnsGuard):
    list_display = ("user", "display_name", "country", "is_bot", "bot_level", "created")
    list_filter = ("is_bot", "bot_level")
    search_fields = ("user__username", "display_name")
    raw_id_fields = ("user",)


@admin.register(ApiToken)
class ApiTokenAdmin(HiddenColumnsGuard):
    # Tokens are created by their owners through the API; staff may only look and revoke.
    list_display = ("name", "user", "created", "last_used", "expiry")
    search_fields = ("name", "user__username")
    # Neither the digest nor the token's key prefix (a part of the secret) is shown.
    readonly_fields = ("name", "user", "created", "last_used", "expiry")
    exclude = ("digest", "token_key")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("user", "rules", "rating", "sigma", "games", "updated_at")
    list_filter = ("rules",)
    search_fields = ("user__username",)
    ordering = ("rules", "-rating")


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = (
        "game",
        "user",
        "rules",
        "rank",
        "rating_before",
        "rating_after",
        "reverted",
        "created_at",
    )
    list_filter = ("rules", "reverted")
    search_fields = ("user__username", "game__public_id")
    list_select_related = ("game", "user")
