"""The accounts' admin: profiles, API tokens, ratings, and moderation.

Moderation (the "moderator" group, ``accounts.moderation.roles``): an account's page
shows its sanctions, fair-play marks, reports and modlog, with a button for each
action the moderator may take (ban, unban, mute, unmute, lift a playban, mark, remove
a mark, take back rated results); the report queue links each report to its game,
the chat around the reported line and the account's record; the modlog is read-only
for everyone, superusers included. Every action asks for a reason and goes through a
service, which writes the modlog (``accounts.moderation.services``,
``games.play.moderation``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from accounts.models import (
    Abandonment,
    ApiToken,
    FairPlayMark,
    ModAction,
    Profile,
    Rating,
    RatingChange,
    Report,
    Sanction,
)
from accounts.moderation import roles, selectors, services
from accounts.moderation.admin_actions import ObjectAction, ObjectActionsMixin, reasoned_action
from accounts.moderation.forms import (
    BanForm,
    MarkForm,
    MuteForm,
    PairsForm,
    ReasonForm,
    UnmarkForm,
)
from games.models import Deal
from games.play import moderation as game_moderation


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
    """Rows written by services only (ratings when a rated game finishes, moderation's
    records): staff look."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class _ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(_ReadOnlyAdmin):
    list_display = ("user", "rules", "rating", "sigma", "games", "updated_at")
    list_filter = ("rules",)
    search_fields = ("user__username",)
    ordering = ("rules", "-rating")


@admin.register(RatingChange)
class RatingChangeAdmin(_ReadOnlyAdmin):
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


# ------------------------------------------------------------------ helpers


def _account_link(user: User | None) -> str:
    if user is None:
        return "the site"
    url = reverse("admin:auth_user_change", args=[user.pk])
    return format_html('<a href="{}">{}</a>', url, user.get_username())


def _game_link(game: Any) -> str:
    if game is None:
        return "-"
    url = reverse("admin:games_game_change", args=[game.pk])
    return format_html('<a href="{}">{}</a>', url, game.public_id)


def _in_force_filter(kind: str) -> Exists:
    return Exists(
        Sanction.objects.filter(user=OuterRef("pk"), kind=kind).filter(
            selectors.in_force(timezone.now())
        )
    )


# ------------------------------------------------------------------ accounts


class SanctionInline(_ReadOnlyInline):
    model = Sanction
    fk_name = "user"
    fields = ("kind", "reason", "created_by", "created_at", "ends_at", "lifted_at", "lifted_by")
    readonly_fields = fields
    verbose_name_plural = "Sanctions (bans, chat mutes, playbans)"


class FairPlayMarkInline(_ReadOnlyInline):
    model = FairPlayMark
    fk_name = "user"
    fields = ("kind", "reason", "created_by", "created_at", "removed_at", "removed_by")
    readonly_fields = fields


class ReportReceivedInline(_ReadOnlyInline):
    model = Report
    fk_name = "reported"
    fields = ("created_at", "reason", "reporter", "status", "text")
    readonly_fields = fields
    verbose_name_plural = "Reports about this account"


class ModActionReceivedInline(_ReadOnlyInline):
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
        moderator=_moderator(request),
        reason=form.cleaned_data["reason"],
        ends_at=form.ends_at(),
    )
    # The ban has committed: from now on every request of the account is refused.
    done = game_moderation.ban_enforce(user=user)
    until = "for good" if ban.ends_at is None else f"until {ban.ends_at:%Y-%m-%d %H:%M} UTC"
    return (
        f"{user} is banned {until}; {len(done.forfeited)} running game(s) forfeited, "
        f"{len(done.left)} lobby seat(s) given up."
    )


def _mute(request: HttpRequest, user: User, form: forms.Form) -> str:
    assert isinstance(form, MuteForm)
    mute = services.mute_create(
        user=user,
        moderator=_moderator(request),
        reason=form.cleaned_data["reason"],
        ends_at=form.ends_at(),
    )
    assert mute.ends_at is not None
    return f"{user} is muted in chat until {mute.ends_at:%Y-%m-%d %H:%M} UTC."


def _mark(request: HttpRequest, user: User, form: forms.Form) -> str:
    moderator, reason = _moderator(request), form.cleaned_data["reason"]
    services.mark_create(
        user=user, moderator=moderator, kind=form.cleaned_data["kind"], reason=reason
    )
    done = f"{user} is marked for {form.cleaned_data['kind']} and left the leaderboards."
    if form.cleaned_data["revert"]:
        reverted = game_moderation.results_revert(user=user, moderator=moderator, reason=reason)
        done += f" Rated results taken back: {_games_per_family(reverted)}."
    return done


def _revert(request: HttpRequest, user: User, form: forms.Form) -> str:
    reverted = game_moderation.results_revert(
        user=user, moderator=_moderator(request), reason=form.cleaned_data["reason"]
    )
    return f"Rated results of {user} taken back: {_games_per_family(reverted)}."


def _games_per_family(counts: dict[str, int]) -> str:
    return ", ".join(f"{count} {rules} game(s)" for rules, count in sorted(counts.items()))


def _moderator(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


def _lift(lift: Any, what: str) -> Any:
    def perform(request: HttpRequest, user: User, form: forms.Form) -> str:
        lift(user=user, moderator=_moderator(request), reason=form.cleaned_data["reason"])
        return f"{what} of {user} lifted."

    return perform


def _unmark(request: HttpRequest, user: User, form: forms.Form) -> str:
    kind = form.cleaned_data["kind"]
    services.mark_remove(
        user=user, moderator=_moderator(request), kind=kind, reason=form.cleaned_data["reason"]
    )
    return f"The {kind} mark of {user} is removed."


def _reason_form(obj: Any, data: Any) -> forms.Form:
    return ReasonForm(data)


ACCOUNT_ACTIONS = (
    ObjectAction("ban", "Ban", roles.BAN, lambda obj, data: BanForm(data), _ban),
    ObjectAction("unban", "Unban", roles.BAN, _reason_form, _lift(services.ban_lift, "The ban")),
    ObjectAction("mute", "Mute in chat", roles.MUTE, lambda obj, data: MuteForm(data), _mute),
    ObjectAction(
        "unmute", "Unmute", roles.MUTE, _reason_form, _lift(services.mute_lift, "The chat mute")
    ),
    ObjectAction(
        "lift-playban",
        "Lift the playban",
        roles.LIFT_PLAYBAN,
        _reason_form,
        _lift(services.playban_lift, "The playban"),
    ),
    ObjectAction("mark", "Fair-play mark", roles.MARK, lambda obj, data: MarkForm(data), _mark),
    ObjectAction(
        "unmark", "Remove a mark", roles.MARK, lambda obj, data: UnmarkForm(data), _unmark
    ),
    ObjectAction("revert", "Take back rated results", roles.MARK, _reason_form, _revert),
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
class AccountAdmin(ObjectActionsMixin, UserAdmin):
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


# ------------------------------------------------------------------ reports


def _close(outcome: str) -> Any:
    def perform(request: HttpRequest, report: Report, form: forms.Form) -> str:
        services.report_close(
            report=report,
            moderator=_moderator(request),
            outcome=outcome,
            reason=form.cleaned_data["reason"],
        )
        return f"Report #{report.pk} {outcome}."

    return perform


def _report_context(report: Report) -> selectors.ReportContext:
    """The report's context, read once for the several fields of its page."""
    found: selectors.ReportContext | None = getattr(report, "_moderation_context", None)
    if found is None:
        found = selectors.report_context(report)
        report._moderation_context = found  # type: ignore[attr-defined]
    return found


def _is_open(report: Report) -> bool:
    return report.status == Report.Status.OPEN


@admin.register(Report)
class ReportAdmin(ObjectActionsMixin, _ReadOnlyAdmin):
    """The report queue: open reports first by the status filter; each report's page
    shows its game, the chat around the reported line and the account's record."""

    object_actions = (
        ObjectAction(
            "resolve",
            "Resolve (action taken)",
            roles.RESOLVE_REPORT,
            _reason_form,
            _close(Report.Status.RESOLVED),
            _is_open,
        ),
        ObjectAction(
            "dismiss",
            "Dismiss",
            roles.RESOLVE_REPORT,
            _reason_form,
            _close(Report.Status.DISMISSED),
            _is_open,
        ),
    )
    list_display = ("created_at", "status", "reason", "reported_link", "reporter", "source")
    list_filter = ("status", "reason")
    search_fields = ("reported__username", "reporter__username", "text", "game__public_id")
    list_select_related = ("reported", "reporter", "game")
    date_hierarchy = "created_at"
    actions = ["dismiss_reports"]
    fields = (
        "status",
        "reason",
        "created_at",
        "reporter",
        "reported_link",
        "text",
        "game_link",
        "chat_context",
        "earlier_reports",
        "account_record",
        "resolved_at",
        "resolved_by",
        "resolution",
    )
    readonly_fields = fields

    @admin.display(description=_("reported account"), ordering="reported__username")
    def reported_link(self, report: Report) -> str:
        return _account_link(report.reported)

    @admin.display(description=_("game"))
    def game_link(self, report: Report) -> str:
        game = report.game
        if game is None:
            return "- (reported from the profile)"
        # Each deal's page, with the report as the reason its look at hidden cards is logged.
        query = urlencode({"reason": f"report #{report.pk}"})
        numbers = Deal.objects.filter(game=game).order_by("number").values_list("pk", "number")
        deals = format_html_join(
            " · ",
            '<a href="{}?{}">deal {}</a>',
            (
                (reverse("admin:games_deal_change", args=[pk]), query, number)
                for pk, number in numbers
            ),
        )
        return format_html("{} · {} (looking at hidden cards is logged)", _game_link(game), deals)

    @admin.display(description=_("chat around the reported line"))
    def chat_context(self, report: Report) -> str:
        context = _report_context(report)
        if not context.chat:
            return "-"
        return format_html(
            "<ol class='chat-context'>{}</ol>",
            format_html_join(
                "",
                "<li>{}{} <b>{}</b>: {}{}{}</li>",
                (
                    (
                        "» " if line.pk == report.chat_message_id else "",
                        f"{line.created_at:%H:%M:%S}",
                        line.user.get_username(),
                        line.text,
                        " (hidden)" if line.hidden_at else "",
                        " «" if line.pk == report.chat_message_id else "",
                    )
                    for line in context.chat
                ),
            ),
        )

    @admin.display(description=_("earlier reports about the account"))
    def earlier_reports(self, report: Report) -> str:
        earlier = _report_context(report).earlier_reports
        if not earlier:
            return "none"
        return format_html_join(
            mark_safe("<br>"),
            '<a href="{}">#{}</a> {} · {} · by {} · {}',
            (
                (
                    reverse("admin:accounts_report_change", args=[other.pk]),
                    other.pk,
                    f"{other.created_at:%Y-%m-%d}",
                    other.get_reason_display(),
                    other.reporter.get_username(),
                    other.get_status_display(),
                )
                for other in earlier
            ),
        )

    @admin.display(description=_("the account's sanctions and marks"))
    def account_record(self, report: Report) -> str:
        context = _report_context(report)
        lines = [
            (
                f"{sanction.created_at:%Y-%m-%d}",
                sanction.get_kind_display(),
                "for good" if sanction.ends_at is None else f"until {sanction.ends_at:%Y-%m-%d}",
                " (lifted)" if sanction.lifted_at else "",
                sanction.reason,
            )
            for sanction in context.sanctions
        ]
        lines += [
            (
                f"{mark.created_at:%Y-%m-%d}",
                f"{mark.get_kind_display()} mark",
                "",
                " (removed)" if mark.removed_at else "",
                mark.reason,
            )
            for mark in context.marks
        ]
        record = format_html_join(mark_safe("<br>"), "{} {} {}{}: {}", lines) or "none"
        return format_html(
            '{}<br><a href="{}">Moderate the account…</a>',
            record,
            reverse("admin:auth_user_change", args=[report.reported_id]),
        )

    @admin.display(description=_("from"))
    def source(self, report: Report) -> str:
        return report.source

    def has_dismiss_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.has_perm(roles.RESOLVE_REPORT))

    @admin.action(description=_("Dismiss the selected reports"), permissions=["dismiss"])
    def dismiss_reports(
        self, request: HttpRequest, queryset: QuerySet[Report]
    ) -> HttpResponse | None:
        def perform(reports: QuerySet[Report], form: forms.Form) -> None:
            closed = 0
            for report in reports.filter(status=Report.Status.OPEN):
                services.report_close(
                    report=report,
                    moderator=_moderator(request),
                    outcome=Report.Status.DISMISSED,
                    reason=form.cleaned_data["reason"],
                )
                closed += 1
            self.message_user(
                request,
                _("%(closed)s report(s) dismissed.") % {"closed": closed},
                level=messages.SUCCESS,
            )

        return reasoned_action(
            self,
            request,
            queryset,
            title="Dismiss the selected reports",
            form_class=ReasonForm,
            perform=perform,
        )


# ------------------------------------------------------------------ sanctions and marks


class InForceFilter(admin.SimpleListFilter):
    title = "in force"
    parameter_name = "in_force"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "In force"), ("no", "Ended or lifted")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        now = selectors.in_force(timezone.now())
        if self.value() == "yes":
            return queryset.filter(now)
        if self.value() == "no":
            return queryset.exclude(now)
        return queryset


@admin.register(Sanction)
class SanctionAdmin(_ReadOnlyAdmin):
    list_display = ("user", "kind", "reason", "created_by", "created_at", "ends_at", "lifted_at")
    list_filter = ("kind", InForceFilter)
    search_fields = ("user__username", "reason")
    list_select_related = ("user", "created_by")
    date_hierarchy = "created_at"


@admin.register(Abandonment)
class AbandonmentAdmin(_ReadOnlyAdmin):
    list_display = ("user", "game", "reason", "created_at")
    list_filter = ("reason",)
    search_fields = ("user__username", "game__public_id")
    list_select_related = ("user", "game")


@admin.register(FairPlayMark)
class FairPlayMarkAdmin(_ReadOnlyAdmin):
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
            "title": "Accounts that play each other unusually often",
            "opts": self.opts,
            "form": form,
            "pairs": pairs,
            "since": since,
        }
        return TemplateResponse(request, "admin/accounts/fairplaymark/pairs.html", context)


# ------------------------------------------------------------------ the modlog


@admin.register(ModAction)
class ModActionAdmin(_ReadOnlyAdmin):
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
        return "the site" if action.moderator is None else action.moderator.get_username()

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        return {}  # not even "delete selected"
