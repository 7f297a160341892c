"""The report queue in the admin: each report's page shows its game (with links to
its deals' pages, whose look at hidden cards is logged with the report as its reason),
the chat around the reported line and the account's record."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from accounts.admin.base import (
    ReadOnlyAdmin,
    account_link,
    game_link,
    moderator,
    reason_form,
)
from accounts.models import (
    Report,
    Sanction,
)
from accounts.moderation import roles, selectors, services
from accounts.moderation.admin_actions import ObjectAction, ObjectActionsMixin, reasoned_action
from accounts.moderation.forms import (
    ReasonForm,
)
from games.models import Deal
from remi_site import formats

# ------------------------------------------------------------------ reports


# What the moderator reads once a report is closed, by its outcome.
_CLOSED = {
    Report.Status.RESOLVED: _("Report #%(id)s is closed: action taken."),
    Report.Status.DISMISSED: _("Report #%(id)s is dismissed."),
}
# Where a report was made from (``Report.source``), as its list says it.
_SOURCES = {"chat": _("a chat line"), "game": _("a game"), "profile": _("a profile")}


def _close(outcome: str) -> Any:
    def perform(request: HttpRequest, report: Report, form: forms.Form) -> str:
        services.report_close(
            report=report,
            moderator=moderator(request),
            outcome=outcome,
            reason=form.cleaned_data["reason"],
        )
        return str(_CLOSED[Report.Status(outcome)]) % {"id": report.pk}

    return perform


def _report_context(report: Report) -> selectors.ReportContext:
    """The report's context, read once for the several fields of its page."""
    found: selectors.ReportContext | None = getattr(report, "_moderation_context", None)
    if found is None:
        found = selectors.report_context(report)
        report._moderation_context = found  # type: ignore[attr-defined]
    return found


def _sanction_span(sanction: Sanction) -> str:
    """A sanction in the account's record: its kind and how long it holds."""
    kind = sanction.get_kind_display()
    if sanction.kind == Sanction.Kind.WARNING:
        return kind  # a warning has no end: it stands until read
    if sanction.ends_at is None:
        return gettext("%(kind)s for good") % {"kind": kind}
    return gettext("%(kind)s until %(day)s") % {"kind": kind, "day": formats.day(sanction.ends_at)}


def _is_open(report: Report) -> bool:
    return report.status == Report.Status.OPEN


@admin.register(Report)
class ReportAdmin(ObjectActionsMixin, ReadOnlyAdmin):
    """The report queue: open reports first by the status filter; each report's page
    shows its game, the chat around the reported line and the account's record."""

    object_actions = (
        ObjectAction(
            "resolve",
            _("Resolve (action taken)"),
            roles.RESOLVE_REPORT,
            reason_form,
            _close(Report.Status.RESOLVED),
            _is_open,
        ),
        ObjectAction(
            "dismiss",
            # Refusing a report, not closing a notice (the table's "Dismiss").
            pgettext_lazy("moderator action", "Dismiss"),
            roles.RESOLVE_REPORT,
            reason_form,
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
        "led_to",
    )
    readonly_fields = fields

    @admin.display(description=_("modlog rows this report led to"))
    def led_to(self, report: Report) -> str:
        rows = report.mod_actions.select_related("moderator").order_by("created_at", "id")
        return format_html_join(
            mark_safe("<br>"),
            "{} · {} · {}: {}",
            (
                (
                    formats.moment(row.created_at),
                    row.get_action_display(),
                    row.moderator,
                    row.reason,
                )
                for row in rows
            ),
        ) or gettext("none")

    @admin.display(description=_("reported account"), ordering="reported__username")
    def reported_link(self, report: Report) -> str:
        return account_link(report.reported)

    @admin.display(description=_("game"))
    def game_link(self, report: Report) -> str:
        game = report.game
        if game is None:
            return gettext("none: reported from the profile")
        # Each deal's page, with the report as the reason its look at hidden cards is
        # logged (a reason the modlog keeps as it is written, like a moderator's own).
        query = urlencode({"reason": f"report #{report.pk}"})
        numbers = Deal.objects.filter(game=game).order_by("number").values_list("pk", "number")
        deals = format_html_join(
            " · ",
            '<a href="{}?{}">{}</a>',
            (
                (
                    reverse("admin:games_deal_change", args=[pk]),
                    query,
                    gettext("deal %(number)s") % {"number": formats.number(number)},
                )
                for pk, number in numbers
            ),
        )
        return format_html(
            "{} · {} {}",
            game_link(game),
            deals,
            gettext("(looking at hidden cards is logged)"),
        )

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
                        formats.clock(line.created_at),
                        line.user.get_username(),
                        line.text,
                        " " + gettext("(hidden)") if line.hidden_at else "",
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
            return gettext("none")
        return format_html_join(
            mark_safe("<br>"),
            '<a href="{}">#{}</a> {} · {} · {} · {}',
            (
                (
                    reverse("admin:accounts_report_change", args=[other.pk]),
                    other.pk,
                    formats.day(other.created_at),
                    other.get_reason_display(),
                    gettext("reported by %(reporter)s")
                    % {"reporter": other.reporter.get_username()},
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
                formats.day(sanction.created_at),
                _sanction_span(sanction),
                " " + gettext("(lifted)") if sanction.lifted_at else "",
                sanction.reason,
            )
            for sanction in context.sanctions
        ]
        lines += [
            (
                formats.day(mark.created_at),
                gettext("Fair-play mark: %(kind)s") % {"kind": mark.get_kind_display()},
                " " + gettext("(removed)") if mark.removed_at else "",
                mark.reason,
            )
            for mark in context.marks
        ]
        record = format_html_join(mark_safe("<br>"), "{} {}{}: {}", lines) or gettext("none")
        return format_html(
            '{}<br><a href="{}">{}</a>',
            record,
            reverse("admin:auth_user_change", args=[report.reported_id]),
            gettext("Moderate the account…"),
        )

    @admin.display(description=_("from"))
    def source(self, report: Report) -> str:
        return str(_SOURCES[report.source])

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
                    moderator=moderator(request),
                    outcome=Report.Status.DISMISSED,
                    reason=form.cleaned_data["reason"],
                )
                closed += 1
            self.message_user(
                request,
                ngettext("%(closed)s report dismissed.", "%(closed)s reports dismissed.", closed)
                % {"closed": formats.number(closed)},
                level=messages.SUCCESS,
            )

        return reasoned_action(
            self,
            request,
            queryset,
            title=gettext("Dismiss the selected reports"),
            form_class=ReasonForm,
            perform=perform,
        )
