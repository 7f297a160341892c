"""Accounts in the admin: Django's user admin plus the account's moderation (its
standing in the list, its record on its page, the moderator actions as buttons)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Exists, OuterRef, QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from accounts.admin.base import (
    ReadOnlyInline,
    moderator,
    reason_form,
)
from accounts.admin.permissions import PermissionLabels
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
from games.engine_words import preset_display_name
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
    verbose_name_plural = _("Sanctions (bans, chat mutes, playbans, warnings)")


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
    verbose_name_plural = _("Reports about this account")


class ModActionReceivedInline(ReadOnlyInline):
    model = ModAction
    fk_name = "target"
    fields = ("created_at", "action", "moderator", "reason", "game", "report")
    readonly_fields = fields
    show_change_link = False
    verbose_name_plural = _("Modlog: actions on this account")


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
    return selectors.ban_outcome(ban)


def _until(user: User, moment: Any) -> dict[str, Any]:
    """The values of a message that says until when: a time in the active time zone,
    and the zone's name."""
    return {"user": user, "until": formats.moment(moment), "zone": formats.zone_name()}


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
    return gettext("%(user)s is muted in chat until %(until)s (%(zone)s).") % _until(
        user, mute.ends_at
    )


# What the moderator reads once an account is marked, and once a mark is removed, by
# the mark's kind: a whole sentence each.
_MARKED = {
    FairPlayMark.Kind.CHEATING: _("%(user)s is marked for cheating and left the leaderboards."),
    FairPlayMark.Kind.BOOSTING: _("%(user)s is marked for boosting and left the leaderboards."),
}
_UNMARKED = {
    FairPlayMark.Kind.CHEATING: _("The cheating mark of %(user)s is removed."),
    FairPlayMark.Kind.BOOSTING: _("The boosting mark of %(user)s is removed."),
}


def _mark(request: HttpRequest, user: User, form: forms.Form) -> str:
    by, reason, kind = moderator(request), form.cleaned_data["reason"], form.cleaned_data["kind"]
    services.mark_create(user=user, moderator=by, kind=kind, reason=reason)
    done = str(_MARKED[FairPlayMark.Kind(kind)]) % {"user": user}
    if form.cleaned_data["revert"]:
        reverted = game_moderation.results_revert(user=user, moderator=by, reason=reason)
        taken_back = gettext("Rated results taken back: %(games)s.") % {
            "games": _games_per_family(reverted)
        }
        done = f"{done} {taken_back}"
    return done


def _revert(request: HttpRequest, user: User, form: forms.Form) -> str:
    reverted = game_moderation.results_revert(
        user=user, moderator=moderator(request), reason=form.cleaned_data["reason"]
    )
    return gettext("Rated results of %(user)s taken back: %(games)s.") % {
        "user": user,
        "games": _games_per_family(reverted),
    }


def _games_per_family(counts: dict[str, int]) -> str:
    """The games taken back in each rule family, as the language lists them: "2 games
    (Serbian Remi) and 1 game (Remik 51)"."""
    return formats.word_list(
        ngettext("%(count)s game (%(rules)s)", "%(count)s games (%(rules)s)", count)
        % {"count": formats.number(count), "rules": preset_display_name(rules)}
        for rules, count in sorted(counts.items())
    )


def _lift(lift: Any, said: Promise) -> Any:
    """An action that lifts a sanction, and the sentence that says it is done."""

    def perform(request: HttpRequest, user: User, form: forms.Form) -> str:
        lift(user=user, moderator=moderator(request), reason=form.cleaned_data["reason"])
        return str(said) % {"user": user}

    return perform


def _unmark(request: HttpRequest, user: User, form: forms.Form) -> str:
    kind = form.cleaned_data["kind"]
    services.mark_remove(
        user=user, moderator=moderator(request), kind=kind, reason=form.cleaned_data["reason"]
    )
    return str(_UNMARKED[FairPlayMark.Kind(kind)]) % {"user": user}


ACCOUNT_ACTIONS = (
    ObjectAction("ban", _("Ban"), roles.BAN, lambda obj, data: BanForm(data), _ban),
    ObjectAction(
        "unban",
        _("Unban"),
        roles.BAN,
        reason_form,
        _lift(services.ban_lift, _("The ban of %(user)s is lifted.")),
    ),
    ObjectAction("mute", _("Mute in chat"), roles.MUTE, lambda obj, data: MuteForm(data), _mute),
    ObjectAction(
        "unmute",
        pgettext_lazy("moderator action", "Unmute"),
        roles.MUTE,
        reason_form,
        _lift(services.mute_lift, _("The chat mute of %(user)s is lifted.")),
    ),
    ObjectAction(
        "lift-playban",
        _("Lift the playban"),
        roles.LIFT_PLAYBAN,
        reason_form,
        _lift(services.playban_lift, _("The playban of %(user)s is lifted.")),
    ),
    ObjectAction("mark", _("Fair-play mark"), roles.MARK, lambda obj, data: MarkForm(data), _mark),
    ObjectAction(
        "unmark",
        _("Remove a fair-play mark"),
        roles.MARK,
        lambda obj, data: UnmarkForm(data),
        _unmark,
    ),
    ObjectAction("revert", _("Take back rated results"), roles.MARK, reason_form, _revert),
)


class StandingFilter(admin.SimpleListFilter):
    title = _("standing")
    parameter_name = "standing"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [
            ("banned", gettext("Banned")),
            ("muted", gettext("Muted")),
            ("playbanned", gettext("Playbanned")),
            ("marked", gettext("Fair-play mark")),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        if value in ("banned", "muted", "playbanned", "marked"):
            return queryset.filter(**{value: True})
        return queryset


admin.site.unregister(User)


def _queue_on_username(username: str | None) -> None:
    """Wait for any other admin transaction that is giving an account this username.

    The admin checks that a name is free and writes it in one transaction; two staff
    members giving one name at once would both pass the check, and the second's write
    break the unique index (a server error). Here the second waits until the first's
    transaction ends, and its check then finds the name taken. SQLite's transactions
    already queue (IMMEDIATE)."""
    if username and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(hashtext(%s))", [f"username:{username.lower()}"]
            )


class AccountCreationForm(AdminUserCreationForm):
    """Django's form for adding an account, one username at a time."""

    def clean_username(self) -> str:
        _queue_on_username(self.cleaned_data.get("username"))
        name: str = super().clean_username()
        return name


class AccountChangeForm(UserChangeForm):
    """Django's form for changing an account, one username at a time."""

    def clean_username(self) -> str:
        name: str = self.cleaned_data.get("username", "")
        _queue_on_username(name)
        return name


@admin.register(User)
class AccountAdmin(ObjectActionsMixin, HiddenColumnsGuard, PermissionLabels, UserAdmin):
    """Django's user admin, plus the account's moderation: its standing in the list,
    its record on its page, and the moderator actions as buttons."""

    add_form = AccountCreationForm
    form = AccountChangeForm
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
            str(label)
            for flag, label in (
                ("banned", _("banned")),
                ("muted", _("muted")),
                ("playbanned", _("playbanned")),
                ("marked", _("fair-play mark")),
            )
            if getattr(user, flag, False)
        ]
        return formats.word_list(found) if found else "-"
