"""A bot account plays through the API with its tokens only: it never signs in with a
password, so it never has a session (web pages, session API calls, a browser's
websocket).

:class:`NoBotSignIn` sits in ``AUTHENTICATION_BACKENDS`` before Django's
``ModelBackend``: for a bot account it raises ``PermissionDenied``, which makes
``django.contrib.auth.authenticate`` fail at once, whatever the password and whichever
form asked (the login page, ``POST /api/v1/auth/login``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

BOT_SIGN_IN_CODE = "bot_account"
BOT_SIGN_IN_MESSAGE = (
    "A bot account does not sign in with a password: it uses its API tokens "
    "(Authorization: Bearer <token>)."
)


def is_bot_account(username: str) -> bool:
    """Whether ``username`` names a bot account (built in or external)."""
    return get_user_model().objects.filter(username=username, profile__is_bot=True).exists()


class NoBotSignIn:
    """Refuses a password sign-in as a bot account; lets every other through to the
    next backend (returning None). It has no ``get_user``: it never signs anyone in,
    so no session names it (``force_login`` skips it too)."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        if username is not None and is_bot_account(username):
            raise PermissionDenied(BOT_SIGN_IN_MESSAGE)
        return None
