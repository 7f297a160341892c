"""The mail accounts send themselves: the link that verifies an address.

(Password reset mail is Django's ``PasswordResetView``, with our templates.) Links are
absolute URLs on the host the request came to, as Django's password reset builds
them, so that a link works on whatever address the site is reached at.
"""

from __future__ import annotations

import logging

from django.contrib.auth.models import User
from django.core.mail import send_mail
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from rest_framework.request import Request

from accounts.verification import LINK_MAX_AGE, verification_token

log = logging.getLogger(__name__)


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
        "link": request.build_absolute_uri(path),
        "days": LINK_MAX_AGE.days,
    }
    subject = render_to_string("accounts/email/verify_email_subject.txt", context)
    body = render_to_string("accounts/email/verify_email.txt", context)
    try:
        send_mail(" ".join(subject.split()), body, None, [email])
    except OSError:  # the mail server refused or is away (SMTPException is one)
        log.exception("the verification email to user %s was not sent", user.pk)
        return False
    return True
