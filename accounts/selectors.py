"""Reads for accounts."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import ApiToken


def token_list(*, user: User) -> QuerySet[ApiToken]:
    """The user's tokens that still work, newest first."""
    return ApiToken.objects.filter(user=user).filter(
        Q(expiry__isnull=True) | Q(expiry__gt=timezone.now())
    )


def public_user(*, username: str) -> User | None:
    """An active user by username (any case), with the profile; None if there is none.

    PostgreSQL runs ``username__iexact`` as ``UPPER(username::text) = UPPER(%s)``: the
    index ``auth_user_username_upper`` (``games`` migration 0009) is on that very
    expression, so the lookup is one index probe, not a scan of every user."""
    return (
        User.objects.select_related("profile")
        .filter(username__iexact=username, is_active=True)
        .order_by("pk")
        .first()
    )


def closed_account_with_password(*, username: str, password: str) -> bool:
    """Whether ``username`` names an account that is closed (inactive) and ``password``
    is its password: what a login that the backends refused may say without telling
    anything to someone who does not know the password."""
    user = User.objects.filter(username=username, is_active=False).first()
    return user is not None and user.has_usable_password() and user.check_password(password)
