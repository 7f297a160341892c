"""The modlog in the admin: read-only for everyone, superusers included."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.admin.base import (
    ReadOnlyAdmin,
)
from accounts.models import (
    ModAction,
)

# ------------------------------------------------------------------ the modlog


@admin.register(ModAction)
class ModActionAdmin(ReadOnlyAdmin):
    """The modlog. Nobody changes or deletes a row: no permission for it exists, this
    admin offers none to superusers either, and the database refuses it."""

    list_display = ("created_at", "moderator_name", "action", "target", "game", "reason")
    list_filter = (
        "action",
        ("moderator", admin.RelatedOnlyFieldListFilter),
        ("target", admin.RelatedOnlyFieldListFilter),
        "created_at",
    )
    search_fields = ("target__username", "moderator__username", "reason", "game__public_id")
    list_select_related = ("moderator", "target", "game")
    date_hierarchy = "created_at"
    fields = (
        "created_at",
        "moderator",
        "action",
        "target",
        "game",
        "report",
        "reason",
        "details",
    )
    readonly_fields = fields

    @admin.display(description=_("moderator"), ordering="moderator__username")
    def moderator_name(self, action: ModAction) -> str:
        if action.moderator is None:
            return gettext("the site")
        return action.moderator.get_username()

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        return {}  # not even "delete selected"
