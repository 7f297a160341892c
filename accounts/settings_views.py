"""The settings pages: /settings/ (name, language, emails, chat, online status, the
email address), the password change, and deleting the account; and the pages that
links in emails open: the address verification and the password reset (Django's
views with the site's templates)."""

from __future__ import annotations

import math
from typing import Any

from axes.utils import reset as axes_reset  # type: ignore[import-untyped]
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import SetPasswordForm
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import deletion, mail_limits, preferences, verification
from accounts.authentication import request_user
from accounts.emails import PasswordResetForm, send_verification_email
from accounts.forms import (
    THROTTLED,
    AccountDeleteForm,
    EmailChangeForm,
    PasswordChangeForm,
    SettingsForm,
)
from remi_site.formats import sentence

NOTIFICATIONS_PATH = "/settings/notifications/"
VACATION_PATH = "/settings/vacation/"


def _settings_page(
    request: HttpRequest,
    *,
    form: SettingsForm | None = None,
    email_form: EmailChangeForm | None = None,
    status: int = 200,
) -> HttpResponse:
    user = request_user(request)
    context = {
        "form": form or SettingsForm(initial=preferences.settings_of(user), account=user),
        "email_form": email_form or EmailChangeForm(user=user),
        "notifications_url": NOTIFICATIONS_PATH,
        "vacation_url": VACATION_PATH,
    }
    return render(request, "accounts/settings.html", context, status=status)


@login_required
def settings_page(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _settings_page(request)
    form = SettingsForm(request.POST, account=request_user(request))
    if not form.is_valid():
        return _settings_page(request, form=form, status=400)
    preferences.settings_update(user=request_user(request), **form.cleaned_data)
    # Said in the language just chosen: the next page is shown in it.
    with translation.override(form.cleaned_data.get("language") or translation.get_language()):
        messages.success(request, _("Settings saved."))
    return redirect("me:settings")


@login_required
@require_POST
def email_change(request: HttpRequest) -> HttpResponse:
    user = request_user(request)
    form = EmailChangeForm(request.POST, user=user, request=request)
    if not form.is_valid():
        return _settings_page(request, email_form=form, status=_refused(form))
    if verification.asks_for_link(user=user, email=form.cleaned_data["email"]):
        wait = mail_limits.verification_wait(request, user=user)
        if wait is not None:
            form.add_error("email", mail_limits.wait_message(wait))
            return _too_many_mails(_settings_page(request, email_form=form, status=429), wait)
    profile = verification.email_change_request(user=user, email=form.cleaned_data["email"])
    if profile.pending_email:
        _send_link(request)
    elif user.email:
        messages.success(request, _("Your address stays %(email)s.") % {"email": user.email})
    else:
        messages.success(request, _("Your email address is removed."))
    return redirect("me:settings")


@login_required
@require_POST
def email_resend(request: HttpRequest) -> HttpResponse:
    user = request_user(request)
    if user.profile.pending_email:
        wait = mail_limits.verification_wait(request, user=user)
        if wait is not None:
            messages.error(request, mail_limits.wait_message(wait))
            return _too_many_mails(_settings_page(request, status=429), wait)
        _send_link(request)
    return redirect("me:settings")


def _too_many_mails(response: HttpResponse, wait: float) -> HttpResponse:
    response["Retry-After"] = str(math.ceil(wait))
    return response


def _send_link(request: HttpRequest) -> None:
    user = request_user(request)
    address = user.profile.pending_email
    if send_verification_email(request=request, user=user):
        messages.success(
            request,
            _("We sent a link to %(address)s: open it to confirm the address.")
            % {"address": address},
        )
    else:
        messages.error(
            request,
            _("The email to %(address)s could not be sent. Try again later.")
            % {"address": address},
        )


def verify_email(request: HttpRequest, token: str) -> HttpResponse:
    """The link from the verification email (it needs no login: it may be opened on
    another device)."""
    try:
        user = verification.email_verify(token=token)
    except verification.InvalidLink as exc:
        return render(request, "accounts/verify_email.html", {"error": exc.message}, status=400)
    return render(request, "accounts/verify_email.html", {"email": user.email})


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's: the old password and the new one twice. Other sessions end (their
    password hash no longer matches); this one goes on."""

    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("me:settings")
    form_class = PasswordChangeForm

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}

    def form_invalid(self, form: Any) -> HttpResponse:
        response = super().form_invalid(form)
        if form.has_error("old_password", THROTTLED):
            response.status_code = 429
        return response

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        messages.success(self.request, _("Password changed. Your other sessions have ended."))
        return response


class PasswordResetView(auth_views.PasswordResetView):
    """Django's: a link to every active account with this verified address (nothing
    is said about whether there is one)."""

    template_name = "accounts/password_reset.html"
    form_class = PasswordResetForm
    email_template_name = "accounts/email/password_reset.txt"
    subject_template_name = "accounts/email/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password-reset-done")

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        # Refused alike whether or not an account has the address (mail_limits).
        wait = mail_limits.reset_wait(self.request, email=form.cleaned_data["email"])
        if wait is None:
            return super().form_valid(form)
        form.add_error(None, mail_limits.wait_message(wait))
        page = self.render_to_response(self.get_context_data(form=form), status=429)
        return _too_many_mails(page, wait)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password-reset-complete")

    def form_valid(self, form: SetPasswordForm[Any]) -> HttpResponse:
        response = super().form_valid(form)
        # Failed logins that locked the account out no longer count: its owner
        # has just proved who they are.
        axes_reset(username=form.user.get_username())
        return response


@login_required
def account_delete(request: HttpRequest) -> HttpResponseBase:
    user = request_user(request)
    form = AccountDeleteForm(request.POST or None, user=user, request=request)
    if request.method == "POST" and form.is_valid():
        try:
            deletion.account_delete(user=user, password=form.cleaned_data["password"])
        except deletion.CannotDelete as exc:
            form.add_error(None, sentence(exc.message))
        else:
            logout(request)
            messages.success(request, _("Your account is deleted. Thank you for the games."))
            return redirect("home")
    status = _refused(form) if form.errors else 200
    return render(request, "accounts/delete.html", {"form": form}, status=status)


def _refused(form: Any) -> int:
    """The status of a form refused: 429 when its password's tries are spent."""
    return 429 if form.has_error("password", THROTTLED) else 400
