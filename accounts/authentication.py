"""API token authentication: knox's, plus last-used tracking.

Clients send ``Authorization: Bearer <token>`` (``REST_KNOX["AUTH_HEADER_PREFIX"]``).
"""

from __future__ import annotations

import binascii
from datetime import timedelta
from hmac import compare_digest
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from knox.auth import TokenAuthentication
from knox.crypto import hash_token
from knox.settings import CONSTANTS, knox_settings
from rest_framework import exceptions
from rest_framework.request import Request

from accounts.models import ApiToken, Sanction
from accounts.moderation.selectors import (
    ban_in_force_subquery,
    sanction_details,
    sanction_get,
    sanction_message,
)
from remi_site.api_errors import ApiError
from remi_site.prepared import PreparedQuery

# Every API request looks its token up: the query is compiled to SQL once. It reads
# whether the token's user is banned in the same trip (``ban_id``).
_TOKENS_BY_KEY = PreparedQuery(
    lambda key: (
        ApiToken.objects.filter(token_key=key)
        .select_related("user")
        .annotate(ban_id=ban_in_force_subquery("user_id"))
    ),
    "\x00token-key\x00",
)

# Write last_used at most this often per token: one UPDATE a minute, not one a request.
LAST_USED_RESOLUTION = timedelta(minutes=1)


def request_user(request: HttpRequest | Request) -> User:
    """The signed-in user of a request that a permission (or login_required) already
    checked, typed as a User rather than ``User | AnonymousUser``."""
    user = request.user
    if not isinstance(user, User) or not user.is_authenticated:
        raise PermissionDenied(_("Authentication required."))
    return user


class AccountBanned(ApiError, exceptions.AuthenticationFailed):
    """The credentials are right but the account is banned: 403 ``banned``, with the
    reason and the end in ``details``. An ``AuthenticationFailed`` too, so that whatever
    refuses bad credentials (the websocket's token check) refuses these."""

    def __init__(self, ban: Sanction) -> None:
        super().__init__("banned", sanction_message(ban), status=403, details=sanction_details(ban))


class ApiTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, token: bytes) -> tuple[Any, ApiToken]:
        """knox's, with the candidate token rows read by a query compiled once."""
        message = _("Invalid token.")
        # A token is printable ASCII; DRF hands the header over as its Latin-1 bytes, so
        # any other byte ("Bearer é", a NUL that PostgreSQL cannot even compare) is a
        # wrong token, not a server error.
        text = token.decode("latin-1")
        if not (text.isascii() and text.isprintable()):
            raise exceptions.AuthenticationFailed(message)
        for auth_token in _TOKENS_BY_KEY(text[: CONSTANTS.TOKEN_KEY_LENGTH]):
            if self._cleanup_token(auth_token):
                continue
            try:
                digest = hash_token(text)
            except (TypeError, binascii.Error):
                raise exceptions.AuthenticationFailed(message) from None
            if compare_digest(digest, auth_token.digest):
                if knox_settings.AUTO_REFRESH and auth_token.expiry:
                    self.renew_token(auth_token)
                return self.validate_user(auth_token)
        raise exceptions.AuthenticationFailed(message)

    def validate_user(self, auth_token: ApiToken) -> tuple[Any, ApiToken]:
        user, token = super().validate_user(auth_token)
        ban_id = getattr(auth_token, "ban_id", None)
        if ban_id is not None:
            raise AccountBanned(sanction_get(ban_id))
        now = timezone.now()
        if token.last_used is None or now - token.last_used >= LAST_USED_RESOLUTION:
            ApiToken.objects.filter(pk=token.pk).update(last_used=now)
            token.last_used = now
        return user, token

    def _cleanup_token(self, auth_token: ApiToken) -> bool:
        # knox also sweeps all the user's other expired tokens here, one query more on
        # every request; we only refuse (and delete) the expired token in hand.
        if auth_token.is_expired(timezone.now()):
            auth_token.delete()
            return True
        return False
