"""Email addresses take effect only once their owner follows a signed link.

``User.email`` is the verified address, the only one anything sends mail to; an
address asked for (at signup, or a change) waits in ``Profile.pending_email`` until
the link sent to it comes back. The current address keeps working meanwhile.

A link is signed (``django.core.signing``): it names the user and the address and
works for ``LINK_MAX_AGE``, and only while that address is still the one waiting, so
asking for another address voids the older links. Following a link again after it
worked changes nothing.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.core import signing
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import Profile
from accounts.services import AccountError

SALT = "accounts.verify-email"
LINK_MAX_AGE = timedelta(days=3)


class InvalidLink(AccountError):
    code = "invalid_link"


def verification_token(*, user: User, email: str) -> str:
    """The signed part of the link that makes ``email`` the user's address."""
    return signing.dumps({"user": user.pk, "email": email}, salt=SALT)


def _read(token: str) -> tuple[int, str]:
    try:
        payload: Any = signing.loads(token, salt=SALT, max_age=LINK_MAX_AGE)
    except signing.SignatureExpired as exc:
        raise InvalidLink(_("This link has expired: ask for a new one in your settings.")) from exc
    except signing.BadSignature as exc:
        raise InvalidLink(_("This link is not valid.")) from exc
    try:
        return int(payload["user"]), str(payload["email"])
    except (TypeError, KeyError, ValueError) as exc:
        raise InvalidLink(_("This link is not valid.")) from exc


def asks_for_link(*, user: User, email: str) -> bool:
    """Whether asking for ``email`` mails a verification link (it is not the address the
    account already has, and not empty): :func:`email_change_request`'s rule."""
    email = User.objects.normalize_email(email).strip()
    return bool(email) and email.lower() != user.email.lower()


@transaction.atomic
def email_change_request(*, user: User, email: str) -> Profile:
    """Ask for ``email`` to become the user's address; it waits for its link.

    The address the account already has: nothing waits any more. Empty: the address
    is removed at once (no link is needed to stop receiving mail)."""
    email = User.objects.normalize_email(email).strip()
    locked = User.objects.select_for_update().get(pk=user.pk)
    profile = Profile.objects.select_for_update().get(user=locked)
    if not asks_for_link(user=locked, email=email):
        if not email and locked.email:
            locked.email = ""
            locked.save(update_fields=["email"])
        profile.pending_email = ""
    else:
        profile.pending_email = email
    profile.save(update_fields=["pending_email"])
    user.email = locked.email
    return profile


@transaction.atomic
def email_verify(*, token: str) -> User:
    """Make the address named by a link the user's verified address."""
    user_id, email = _read(token)
    user = User.objects.select_for_update().filter(pk=user_id, is_active=True).first()
    if user is None:
        raise InvalidLink(_("This link is not valid."))
    profile = Profile.objects.select_for_update().get(user=user)
    if user.email == email and not profile.pending_email:
        return user  # followed again: it already worked
    if profile.pending_email != email:
        raise InvalidLink(
            _(
                "This link is no longer valid: another address was asked for since. Use"
                " the newest link, or ask for one again in your settings."
            )
        )
    user.email = email
    user.save(update_fields=["email"])
    profile.pending_email = ""
    profile.save(update_fields=["pending_email"])
    return user
