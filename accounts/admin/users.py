"""Accounts in the admin: Django's user admin plus the account's moderation (its
standing in the list, its record on its page, the moderator actions as buttons)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.db.models import Exists, OuterRef, QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.admin.base import (
    ReadOnlyInline,
    moderator,
    reason_form,
)
from accounts.models import (
    FairPlayMark,
    ModAction,
    Report,
    Sanction,
)
from accounts.moderation import roles, selectors, services
from accounts.moderation.admin_actions import ObjectAction, ObjectActionsMixin
from accounts.moderation.forms import (
    BanForm,
    MarkForm,
    MuteForm,
    UnmarkForm,
)
from accounts.moderation.hidden_columns import HiddenColumnsGuard
from games.play import moderation as game_moderation
from remi_site import formats


def _in_force_filter(kind: str) -> Exists:
    return Exists(
        Sanction.objects.filter(user=OuterRef("pk"), kind=kind).filter(
            selectors.in_force(timezone.now())
        )
    )


class SanctionInline(ReadOnlyInline):
    model = Sanction
    fk_name = "user"
    fields = ("kind", "reason", "created_by", "created_at", "ends_at", "lifted_at", "lifted_by")
    readonly_fields = fields
    verbose_name_plural = "Sanctions (bans, chat mutes, playbans)"


class FairPlayMarkInline(ReadOnlyInline):
    model = FairPlayMark
    fk_name = "user"
    fields = ("kind", "reason", "created_by", "created_at", "removed_at", "removed_by")
    readonly_fields = fields


class ReportReceivedInline(ReadOnlyInline):
    model = Report
    fk_name = "reported"
    fields = ("created_at", "reason", "reporter", "status", "text")
    readonly_fields = fields
    verbose_name_plural = "Reports about this account"


class ModActionReceivedInline(ReadOnlyInline):
    model = ModAction
    fk_name = "target"
    fields = ("created_at", "action", "moderator", "reason", "game", "report")
    readonly_fields = fields
    show_change_link = False
    verbose_name_plural = "Modlog: actions on this account"


def _ban(request: HttpRequest, user: User, form: forms.Form) -> str:
    assert isinstance(form, BanForm)
    ban = services.ban_create(
        user=user,
        moderator=moderator(request),
        reason=form.cleaned_data["reason"],
        ends_at=form.ends_at(),
        permanent=form.cleaned_data["permanent"],
        preset=form.cleaned_data["preset"],
    )
    # The ban ran the account's lifecycle on its commit (accounts.lifecycle): its games
    # are forfeited and its seats given up by now; this says what was done.
    games = ban.enforced.get("games") or {}  # type: ignore[attr-defined]
    until = "for good" if ban.ends_at is None else f"until {_when(ban.ends_at)}"
    return (
        f"{user} is banned {until}; {len(games.get('forfeited', []))} running game(s) "
        f"forfeited, {len(games.get('left', []))} lobby seat(s) given up."
    )


def _when(moment: Any) -> str:
    """A time in the admin's messages: in the active time zone, named."""
    return f"{formats.moment(moment)} ({formats.zone_name()})"


def _mute(request: HttpRequest, user: User, form: forms.Form) -> str:
    assert isinstance(form, MuteForm)
    ends_at = form.ends_at()
    assert ends_at is not None  # the form requires a length
    mute = services.mute_create(
        user=user,
        moderator=moderator(request),
        reason=form.cleaned_data["reason"],
        ends_at=ends_at,
        preset=form.cleaned_data["preset"],
    )
    assert mute.ends_at is not None
    return f"{user} is muted in chat until {_when(mute.ends_at)}."


def _mark(request: HttpRequest, user: User, form: forms.Form) -> str:
    by, reason = moderator(request), form.cleaned_data["reason"]
    services.mark_create(user=user, moderator=by, kind=form.cleaned_data["kind"], reason=reason)
    done = f"{user} is marked for {form.cleaned_data['kind']} and left the leaderboards."
    if form.cleaned_data["revert"]:
        reverted = game_moderation.results_revert(user=user, moderator=by, reason=reason)
        done += f" Rated results taken back: {_games_per_family(reverted)}."
    return done


def _revert(request: HttpRequest, user: User, form: forms.Form) -> str:
    reverted = game_moderation.results_revert(
        user=user, moderator=moderator(request), reason=form.cleaned_data["reason"]
    )
    return f"Rated results of {user} taken back: {_games_per_family(reverted)}."


def _games_per_family(counts: dict[str, int]) -> str:
    return ", ".join(f"{count} {rules} game(s)" for rules, count in sorted(counts.items()))


def _lift(lift: Any, what: str) -> Any:
    def perform(request: HttpRequest, user: User, form: forms.Form) -> str:
        lift(user=user, moderator=moderator(request), reason=form.cleaned_data["reason"])
        return f"{what} of {user} lifted."

    return perform


def _unmark(request: HttpRequest, user: User, form: forms.Form) -> str:
    kind = form.cleaned_data["kind"]
    services.mark_remove(
        user=user, moderator=moderator(request), kind=kind, reason=form.cleaned_data["reason"]
    )
    return f"The {kind} mark of {user} is removed."


ACCOUNT_ACTIONS = (
    ObjectAction("ban", "Ban", roles.BAN, lambda obj, data: BanForm(data), _ban),
    ObjectAction("unban", "Unban", roles.BAN, reason_form, _lift(services.ban_lift, "The ban")),
    ObjectAction("mute", "Mute in chat", roles.MUTE, lambda obj, data: MuteForm(data), _mute),
    ObjectAction(
        "unmute", "Unmute", roles.MUTE, reason_form, _lift(services.mute_lift, "The chat mute")
    ),
    ObjectAction(
        "lift-playban",
        "Lift the playban",
        roles.LIFT_PLAYBAN,
        reason_form,
        _lift(services.playban_lift, "The playban"),
    ),
    ObjectAction("mark", "Fair-play mark", roles.MARK, lambda obj, data: MarkForm(data), _mark),
    ObjectAction(
        "unmark", "Remove a mark", roles.MARK, lambda obj, data: UnmarkForm(data), _unmark
    ),
    ObjectAction("revert", "Take back rated results", roles.MARK, reason_form, _revert),
)


class StandingFilter(admin.SimpleListFilter):
    title = "standing"
    parameter_name = "standing"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [
            ("banned", "Banned"),
            ("muted", "Muted"),
            ("playbanned", "Playbanned"),
            ("marked", "Fair-play mark"),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        if value in ("banned", "muted", "playbanned", "marked"):
            return queryset.filter(**{value: True})
        return queryset


admin.site.unregister(User)


@admin.register(User)
class AccountAdmin(ObjectActionsMixin, HiddenColumnsGuard, UserAdmin):
    """Django's user admin, plus the account's moderation: its standing in the list,
    its record on its page, and the moderator actions as buttons."""

    object_actions = ACCOUNT_ACTIONS
    list_display = ("username", "email", "is_staff", "is_active", "standing", "date_joined")
    list_filter = (StandingFilter, "is_staff", "is_superuser", "is_active", "groups")
    inlines = [SanctionInline, FairPlayMarkInline, ReportReceivedInline, ModActionReceivedInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[User]:
        return (
            super()
            .get_queryset(request)
            .annotate(
                banned=_in_force_filter(Sanction.Kind.BAN),
                muted=_in_force_filter(Sanction.Kind.MUTE),
                playbanned=_in_force_filter(Sanction.Kind.PLAYBAN),
                marked=Exists(
                    FairPlayMark.objects.filter(user=OuterRef("pk"), removed_at__isnull=True)
                ),
            )
        )

    @admin.display(description=_("standing"))
    def standing(self, user: Any) -> str:
        found = [
            label
            for flag, label in (
                ("banned", "banned"),
                ("muted", "muted"),
                ("playbanned", "playbanned"),
                ("marked", "fair-play mark"),
            )
            if getattr(user, flag, False)
        ]
        return ", ".join(found) or "-"
