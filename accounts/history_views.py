"""The history page: every game the signed-in player played, filtered and paginated,
with links to export it (the API's export, which the session authenticates)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from accounts.authentication import request_user
from accounts.forms import HistoryFilterForm
from accounts.history import history, history_entry

PAGE_SIZE = 25


@login_required
def history_page(request: HttpRequest) -> HttpResponse:
    user = request_user(request)
    form = HistoryFilterForm(request.GET or None)
    valid = not form.is_bound or form.is_valid()
    filters = {}
    if form.is_bound and valid:
        filters = {name: value for name, value in form.cleaned_data.items() if value}
    page = Paginator(history(user=user, filters=filters), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    query = {name: str(value) for name, value in filters.items()}
    export = reverse("accounts-api:games-export")
    context = {
        "form": form,
        "page": page,
        "games": [history_entry(game, user) for game in page.object_list],
        "query": urlencode(query),
        "export_csv": f"{export}?{urlencode({**query, 'format': 'csv'})}",
        "export_json": f"{export}?{urlencode({**query, 'format': 'json'})}",
    }
    return render(request, "accounts/history.html", context, status=200 if valid else 400)
