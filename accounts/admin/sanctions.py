"""Sanctions, abandonments and fair-play marks in the admin (read-only: moderators act
from an account's page), with the pairs page that finds boosting."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, path
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.admin.base import (
    ReadOnlyAdmin,
)
from accounts.models import (
    Abandonment,
    FairPlayMark,
    Sanction,
)
from accounts.moderation import selectors
from accounts.moderation.forms import (
    PairsForm,
)

# ------------------------------------------------------------------ sanctions and marks


class InForceFilter(admin.SimpleListFilter):
    title = _("in force")
    parameter_name = "in_force"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", gettext("In force")), ("no", gettext("Ended or lifted"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        now = selectors.in_force(timezone.now())
        if self.value() == "yes":
            return queryset.filter(now)
        if self.value() == "no":
            return queryset.exclude(now)
        return queryset


@admin.register(Sanction)
class SanctionAdmin(ReadOnlyAdmin):
    list_display = ("user", "kind", "reason", "created_by", "created_at", "ends_at", "lifted_at")
    list_filter = ("kind", InForceFilter)
    search_fields = ("user__username", "reason")
    list_select_related = ("user", "created_by")
    date_hierarchy = "created_at"


@admin.register(Abandonment)
class AbandonmentAdmin(ReadOnlyAdmin):
    list_display = ("user", "game", "reason", "created_at")
    list_filter = ("reason",)
    search_fields = ("user__username", "game__public_id")
    list_select_related = ("user", "game")


@admin.register(FairPlayMark)
class FairPlayMarkAdmin(ReadOnlyAdmin):
    """Marks are made on the account's page; the pairs page finds boosting."""

    list_display = ("user", "kind", "reason", "created_by", "created_at", "removed_at")
    list_filter = ("kind", ("removed_at", admin.EmptyFieldListFilter))
    search_fields = ("user__username", "reason")
    list_select_related = ("user", "created_by")
    change_list_template = "admin/accounts/fairplaymark/change_list.html"

    def get_urls(self) -> list[URLPattern]:
        pairs = self.admin_site.admin_view(self.pairs_view)
        own = [path("pairs/", pairs, name="accounts_fairplaymark_pairs")]
        return own + super().get_urls()

    def pairs_view(self, request: HttpRequest) -> HttpResponse:
        """Pairs of accounts that play each other unusually often, with lopsided results."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        form = PairsForm(request.GET or None)
        since = timezone.now() - timedelta(days=form.value("days"))
        pairs = selectors.suspicious_pairs(
            since=since,
            min_games=form.value("min_games"),
            min_share=form.value("min_share"),
            min_lopsided=form.value("min_lopsided"),
        )
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Accounts that play each other unusually often"),
            "opts": self.opts,
            "form": form,
            "pairs": pairs,
            "since": since,
        }
        return TemplateResponse(request, "admin/accounts/fairplaymark/pairs.html", context)
