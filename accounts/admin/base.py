"""What the accounts' admins share: read-only bases (rows that services write) and
links between the moderation pages."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext

from accounts.moderation.forms import ReasonForm
from accounts.moderation.hidden_columns import HiddenColumnsGuard, HiddenColumnsInline


class ReadOnlyAdmin(HiddenColumnsGuard):
    """Rows written by services only (ratings when a rated game finishes, moderation's
    records): staff look."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(HiddenColumnsInline):
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def account_link(user: User | None) -> str:
    if user is None:
        return gettext("the site")
    url = reverse("admin:auth_user_change", args=[user.pk])
    return format_html('<a href="{}">{}</a>', url, user.get_username())


def game_link(game: Any) -> str:
    if game is None:
        return "-"
    url = reverse("admin:games_game_change", args=[game.pk])
    return format_html('<a href="{}">{}</a>', url, game.public_id)


def moderator(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


def reason_form(obj: Any, data: Any) -> forms.Form:
    """The form of an action that asks only for the moderator's reason."""
    return ReasonForm(data)
