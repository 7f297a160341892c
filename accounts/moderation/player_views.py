"""What a player sees of moderation: the warning a moderator gave them (shown at
their next page until they acknowledge it), their sanctions with one appeal each (a
banned player appeals by the signed link of the banned page), and what became of
their reports."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from accounts.models import Sanction
from accounts.moderation import appeals, record, selectors, services
from accounts.moderation.errors import ModerationError
from accounts.moderation.forms import AppealForm
from remi_site.formats import sentence
from remi_site.whole_numbers import whole_number

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
            services.warning_acknowledge(user=user, pk=whole_number(pk) or 0)
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


@login_required
def my_sanctions(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)  # login_required
    context = {"sanctions": record.sanctions_told(user=user)}
    return render(request, "moderation/my_sanctions.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def appeal(request: HttpRequest, pk: int) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)  # login_required
    try:
        sanction = appeals.sanction_of_player(user=user, pk=pk)
    except ModerationError as error:
        raise Http404(error.message) from error
    return _appeal_page(request, sanction, done_url=reverse("moderation:my-sanctions"))


@require_http_methods(["GET", "POST"])
def appeal_by_link(request: HttpRequest, token: str) -> HttpResponse:
    """A banned (signed-out) player's appeal, by the signed link of the banned page."""
    try:
        sanction = appeals.sanction_of_token(token)
    except ModerationError as error:
        raise Http404(error.message) from error
    return _appeal_page(request, sanction, done_url=request.path)


def _appeal_page(request: HttpRequest, sanction: Sanction, *, done_url: str) -> HttpResponse:
    found = record.appeal_of(sanction)
    form = AppealForm(request.POST or None)
    status = 200
    if found is None and request.method == "POST" and form.is_valid():
        try:
            appeals.appeal_create(sanction=sanction, text=form.cleaned_data["text"])
        except ModerationError as error:
            form.add_error(None, sentence(error.message))
            status = error.status
        else:
            return HttpResponseRedirect(done_url)
    elif request.method == "POST":
        status = 409 if found is not None else 400
    context = {"sanction": sanction, "appeal": found, "form": form}
    return render(request, "moderation/appeal.html", context, status=status)
