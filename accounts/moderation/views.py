"""The report page: a signed-in player reports an account, from its profile, a game
(``?user=<username>&game=<id>``) or a line of chat (``?message=<id>``). Rate-limited
with the API's reports together (``THROTTLE_REPORT``)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from accounts.moderation import services
from accounts.moderation.errors import ModerationError
from accounts.moderation.forms import ReportForm
from accounts.moderation.targets import ReportTarget, report_target
from remi_site import formats
from remi_site.throttling import scope_refusal
from remi_site.whole_numbers import whole_number


def _message_id(request: HttpRequest) -> int | None:
    return whole_number(request.GET.get("message", ""))


@login_required
def report(request: HttpRequest) -> HttpResponse:
    reporter = request.user
    assert isinstance(reporter, User)  # login_required
    try:
        target = report_target(
            reporter=reporter,
            username=request.GET.get("user") or None,
            game_id=request.GET.get("game") or None,
            message_id=_message_id(request),
        )
    except ModerationError as error:
        context = {"error": error}
        return render(request, "moderation/report_refused.html", context, status=error.status)
    form = ReportForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        # Counted with the API's reports (THROTTLE_REPORT): both count against one rate.
        refusal = scope_refusal(request, "report", _("You have sent many reports: wait %(time)s."))
        if refusal is not None:
            form.add_error(None, refusal)
            return _page(request, target, form, status=429)
        try:
            services.report_create(
                reporter=reporter,
                reported=target.reported,
                reason=form.cleaned_data["reason"],
                text=form.cleaned_data["text"],
                game=target.game,
                chat_message=target.chat_message,
            )
        except ModerationError as error:
            form.add_error(None, formats.sentence(error.message))
            return _page(request, target, form, status=error.status)
        return render(request, "moderation/report_sent.html", {"target": target})
    return _page(request, target, form)


def _page(
    request: HttpRequest, target: ReportTarget, form: ReportForm, *, status: int = 200
) -> HttpResponse:
    context = {"target": target, "form": form}
    return render(request, "moderation/report.html", context, status=status)
