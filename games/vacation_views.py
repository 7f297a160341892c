"""The vacation page, /settings/vacation/: the days left, the vacation being taken (from
when, until when) and the forms that start one or end it early. The writes are
``games.play.vacation``'s, as over the API (``/api/v1/me/vacation``)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from accounts.authentication import request_user
from games.errors import GameError
from games.play import vacation
from remi_site.formats import sentence


class VacationStartForm(forms.Form):
    days = forms.DecimalField(
        label=gettext_lazy("Days of vacation, from now"),
        min_value=0.5,
        max_digits=5,
        decimal_places=1,
        widget=forms.NumberInput(attrs={"step": "0.5", "min": "0.5"}),
    )


@login_required
@require_http_methods(["GET", "POST"])
def vacation_settings(request: HttpRequest) -> HttpResponse:
    """Start a vacation (``action=start`` with ``days``) or end it now (``action=end``)."""
    user = request_user(request)
    form = VacationStartForm()
    status = 200
    refusal = ""
    if request.method == "POST":
        action = request.POST.get("action", "start")
        try:
            if action == "end":
                vacation.vacation_end(user=user)
                messages.success(request, _("Welcome back: your vacation is over."))
                return redirect("games:vacation-settings")
            form = VacationStartForm(request.POST)
            if form.is_valid():
                vacation.vacation_start(user=user, days=float(form.cleaned_data["days"]))
                messages.success(request, _("Enjoy your vacation."))
                return redirect("games:vacation-settings")
            status = 400
        except GameError as error:
            refusal = sentence(error.message)
            status = 400
    state = vacation.vacation_state(user=user)
    context = {
        "form": form,
        "refusal": refusal,
        "days_left": round(state.days_left, 1),
        "until": state.until,
        "started_at": state.started_at,
        "cap": vacation.vacation_cap(),
        "per_year": round(vacation.vacation_rate_per_day() * 365),
    }
    return render(request, "games/vacation_settings.html", context, status=status)
