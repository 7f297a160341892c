"""The mail accounts send themselves: the link that verifies an address, and the
password reset (Django's ``PasswordResetView`` with our templates and this form). Each
is written in its recipient's saved language, whatever the page that asked. Links are
absolute URLs on ``SITE_URL``, like every link the site sends out (``make run`` sets it
from its port): never on the Host of the request that asked, which its sender chose.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.models import User
from django.core.mail import send_mail
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from rest_framework.request import Request

from accounts.verification import LINK_MAX_AGE, verification_token

log = logging.getLogger(__name__)


def language_of(user: User) -> str:
    """The user's saved language (the site's default for one without a profile)."""
    language = str(getattr(getattr(user, "profile", None), "language", "") or "")
    return language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def site_link(path: str) -> str:
    """``path`` (from ``reverse``) on the site's address."""
    return str(settings.SITE_URL).rstrip("/") + path


class PasswordResetForm(auth_forms.PasswordResetForm):
    """Django's, each link in the language of the account it is for."""

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        site = urlsplit(str(settings.SITE_URL))
        context = {**context, "protocol": site.scheme, "domain": site.netloc}
        with translation.override(language_of(context["user"])):
            super().send_mail(
                subject_template_name,
                email_template_name,
                context,
                from_email,
                to_email,
                html_email_template_name,
            )


def send_verification_email(*, request: HttpRequest | Request, user: User) -> bool:
    """Send the link for the user's pending address (none waiting: nothing is sent).
    False when the mail could not be handed to the mail server (logged)."""
    email = user.profile.pending_email
    if not email:
        return False
    path = reverse("accounts:verify-email", args=[verification_token(user=user, email=email)])
    context = {
        "user": user,
        "email": email,
        "link": site_link(path),
        "days": LINK_MAX_AGE.days,
    }
    with translation.override(language_of(user)):
        subject = render_to_string("accounts/email/verify_email_subject.txt", context)
        body = render_to_string("accounts/email/verify_email.txt", context)
    try:
        send_mail(" ".join(subject.split()), body, None, [email])
    except OSError:  # the mail server refused or is away (SMTPException is one)
        log.exception("the verification email to user %s was not sent", user.pk)
        return False
    return True
