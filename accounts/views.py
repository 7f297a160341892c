"""Account web pages: signup, your profile, a player's public page and the leaderboard
(login/logout are Django's views)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import display_names, selectors, services
from accounts.authentication import request_user
from accounts.emails import send_verification_email
from accounts.forms import THROTTLED, LoginForm, ProfileForm, SignupForm, TokenCreateForm
from accounts.models import is_builtin_bot
from accounts.rating_chart import chart_of
from games import bot_ratings, ratings, stats
from games.chips import selectors as chips
from games.engine import PRESETS
from games.live import presence
from games.read import bot_strength
from remi_site.formats import sentence
from remi_site.throttling import scope_refusal


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        # Counted with the API's sign-ups from the same address (THROTTLE_SIGNUP).
        refusal = scope_refusal(
            request, "signup", _("Many accounts were made from your address: wait %(time)s.")
        )
        if refusal is not None:
            form.add_error(None, refusal)
            return render(request, "accounts/signup.html", {"form": form}, status=429)
        try:
            user = services.user_signup(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                email=form.cleaned_data["email"],
                display_name=form.cleaned_data["display_name"],
                language=translation.get_language(),
            )
        except services.UsernameTaken:  # taken since the form looked
            form.add_error("username", _("That username is taken."))
            return render(request, "accounts/signup.html", {"form": form})
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request, _("Welcome, %(display_name)s!") % {"display_name": user.profile.display_name}
        )
        if user.profile.pending_email:
            if send_verification_email(request=request, user=user):
                messages.info(
                    request,
                    _(
                        "We sent a link to %(pending_email)s: open it to confirm your address. "
                        "Until then we send nothing else to it."
                    )
                    % {"pending_email": user.profile.pending_email},
                )
            else:
                messages.error(
                    request, _("The confirmation email could not be sent: see Settings.")
                )
        next_url = request.GET.get("next", "")
        if url_has_allowed_host_and_scheme(next_url, {request.get_host()}):
            return redirect(next_url)
        return redirect("home")
    return render(request, "accounts/signup.html", {"form": form})


def _profile_page(
    request: HttpRequest,
    *,
    form: ProfileForm | None = None,
    token_form: TokenCreateForm | None = None,
    new_token: str | None = None,
    status: int = 200,
) -> HttpResponse:
    user = request_user(request)
    context = {
        "form": form or ProfileForm(instance=user.profile),
        "token_form": token_form or TokenCreateForm(),
        "tokens": selectors.token_list(user=user),
        "new_token": new_token,
        "ratings": ratings.ratings_of(user),
        "rating_changes": ratings.rating_history(user, limit=10),
        "rating_chart": chart_of(user),
        "stats": stats.player_stats(user),
        "chips": chips.chips_of(user=user),
        "chip_ledger": [chips.ledger_entry(row) for row in chips.ledger_of(user=user)[:10]],
    }
    return render(request, "accounts/profile.html", context, status=status)


def player(request: HttpRequest, username: str) -> HttpResponse:
    """Anyone's public page: profile, ratings, statistics and recent games."""
    person = selectors.public_user(username=username)
    if person is None:
        raise Http404(_("No such player."))
    context = {
        "person": person,
        "ratings": (
            bot_ratings.bot_ratings_of(person)
            if is_builtin_bot(person)
            else ratings.ratings_of(person)
        ),
        "rating_changes": ratings.rating_history(person, limit=10),
        "rating_chart": chart_of(person),
        "stats": stats.player_stats(person),
        "recent_games": stats.recent_games(person, viewer=request.user),
        "online": presence.shown_online([person])[person.pk],
        "chips": chips.balance_of(user=person),
        "strength": (
            bot_strength.level_strength(person.profile.bot_level)
            if person.profile.bot_level is not None and person.profile.is_bot
            else None
        ),
    }
    return render(request, "accounts/player.html", context)


def leaderboard(request: HttpRequest) -> HttpResponse:
    """The best established ratings of one rule family (``?rules=``, serbian by default)."""
    rules = request.GET.get("rules", "serbian")
    if rules not in PRESETS:
        rules = "serbian"
    context = {
        "rules": rules,
        "families": list(PRESETS),
        "players": display_names.named_apart(ratings.leaderboard(rules=rules)),
    }
    return render(request, "accounts/leaderboard.html", context)


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _profile_page(request)
    user = request_user(request)
    form = ProfileForm(request.POST, instance=user.profile)
    if not form.is_valid():
        return _profile_page(request, form=form, status=400)
    services.profile_update(
        user=user, **{field: form.cleaned_data[field] for field in form.Meta.fields}
    )
    messages.success(request, _("Profile saved."))
    return redirect("accounts:profile")


@login_required
@require_POST
def token_create(request: HttpRequest) -> HttpResponse:
    form = TokenCreateForm(request.POST)
    if not form.is_valid():
        return _profile_page(request, token_form=form, status=400)
    days = form.cleaned_data["expires_in_days"]
    try:
        _token, raw = services.token_create(
            user=request_user(request),
            name=form.cleaned_data["name"],
            expires_in=timedelta(days=days) if days else None,
            scopes=form.cleaned_data["scopes"],
        )
    except services.TooManyTokens as exc:
        form.add_error(None, sentence(exc.message))
        return _profile_page(request, token_form=form, status=400)
    # Rendered, not redirected: the raw token must not travel through the session.
    return _profile_page(request, new_token=raw)


@login_required
@require_POST
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    try:
        services.token_revoke(user=request_user(request), token_id=token_id)
    except services.TokenNotFound:
        messages.error(request, _("No such token."))
    else:
        messages.success(request, _("Token revoked."))
    return redirect("accounts:profile")


class LoginView(auth_views.LoginView):
    """Django's log-in page with ``LoginForm``: 429 when the address has made too many
    attempts (the API's rate), the form again otherwise."""

    template_name = "accounts/login.html"
    redirect_authenticated_user = True
    authentication_form = LoginForm

    def form_invalid(self, form: Any) -> HttpResponse:
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, THROTTLED):
            response.status_code = 429
        return response
