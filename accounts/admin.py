from django.contrib import admin
from django.http import HttpRequest

from accounts.models import ApiToken, Profile, Rating, RatingChange


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "display_name", "country", "is_bot", "bot_level", "created")
    list_filter = ("is_bot", "bot_level")
    search_fields = ("user__username", "display_name")
    raw_id_fields = ("user",)


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    # Tokens are created by their owners through the API; staff may only look and revoke.
    list_display = ("name", "user", "created", "last_used", "expiry")
    search_fields = ("name", "user__username")
    # Neither the digest nor the token's key prefix (a part of the secret) is shown.
    readonly_fields = ("name", "user", "created", "last_used", "expiry")
    exclude = ("digest", "token_key")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


class _ReadOnlyAdmin(admin.ModelAdmin):
    """Ratings are written only when a rated game finishes (games.ratings): staff look."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(_ReadOnlyAdmin):
    list_display = ("user", "rules", "rating", "sigma", "games", "updated_at")
    list_filter = ("rules",)
    search_fields = ("user__username",)
    ordering = ("rules", "-rating")


@admin.register(RatingChange)
class RatingChangeAdmin(_ReadOnlyAdmin):
    list_display = ("game", "user", "rules", "rank", "rating_before", "rating_after", "created_at")
    list_filter = ("rules",)
    search_fields = ("user__username", "game__public_id")
    list_select_related = ("game", "user")
