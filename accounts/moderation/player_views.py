"""What a player sees of moderation: the warning a moderator gave them (shown at
their next page until they acknowledge it), and what became of their reports."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from accounts.moderation import record, selectors, services
from accounts.moderation.errors import ModerationError

REPORTS_PER_PAGE = 20


def _next(request: HttpRequest) -> str:
    """Where the player was going (this site only), else home."""
    target = request.POST.get("next") or request.GET.get("next") or "/"
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return target
    return "/"


@login_required
@require_http_methods(["GET", "POST"])
def warning(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)  # login_required
    if request.method == "POST":
        pk = request.POST.get("warning", "")
        try:
            services.warning_acknowledge(user=user, pk=int(pk) if pk.isdigit() else 0)
        except ModerationError as error:
            raise Http404(error.message) from error
    unread = list(record.warnings_unread(user_id=user.pk))
    if not unread:
        return HttpResponseRedirect(_next(request))
    context = {"warning": unread[0], "next": _next(request)}
    return render(request, "moderation/warning.html", context)


@login_required
def my_reports(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)  # login_required
    page = Paginator(selectors.reports_by(reporter=user), REPORTS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    rows = [(report, record.report_outcome(report)) for report in page]
    return render(request, "moderation/my_reports.html", {"page": page, "rows": rows})
