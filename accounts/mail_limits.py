"""How often anyone may make the site send a link by email: the password reset, and the
address verification asked for again (or for a new address).

Each request is counted twice, on DRF's throttles (the fail-open cache of
``remi_site.throttling``: while Redis is away requests go on, not a 500):

- per client address (``remi_site.client_ip``, ``PROXY_COUNT``): rate ``mail_client``
  (``THROTTLE_MAIL_CLIENT``), so one client cannot mail many inboxes;
- per recipient: rate ``mail_recipient`` (``THROTTLE_MAIL_RECIPIENT``), so many clients
  cannot fill one inbox. A reset counts the address typed into the form, whether or not
  an account has it, so a refusal says nothing about which addresses are known; a
  verification counts the account that asks.
"""

from __future__ import annotations

import hashlib
import math
from typing import Any, cast

from django.contrib.auth.models import User
from django.http import HttpRequest
from django.utils.translation import ngettext
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

from remi_site import formats
from remi_site.throttling import ClientIpIdentMixin

CLIENT_SCOPE = "mail_client"
RECIPIENT_SCOPE = "mail_recipient"


class _MailThrottle(ClientIpIdentMixin, SimpleRateThrottle):
    def __init__(self, scope: str, ident: str) -> None:
        self.scope = scope
        self.ident = ident
        super().__init__()

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.ident}


def _wait(request: HttpRequest | Request, *, recipient: str) -> float | None:
    client = _MailThrottle(CLIENT_SCOPE, "")
    client.ident = client.get_ident(request)
    for throttle in (client, _MailThrottle(RECIPIENT_SCOPE, recipient)):
        if not throttle.allow_request(cast(Any, request), cast(Any, None)):
            # wait() is None only when more requests are due than the rate allows.
            return float(throttle.wait() or 60)
    return None


def reset_wait(request: HttpRequest, *, email: str) -> float | None:
    """None if a password reset for ``email`` may be mailed now (and it is counted), else
    the seconds to wait. The address is kept only as a digest, case folded as the reset
    form finds accounts (``email__iexact``)."""
    digest = hashlib.sha256(email.strip().casefold().encode()).hexdigest()
    return _wait(request, recipient=f"reset:{digest}")


def verification_wait(request: HttpRequest | Request, *, user: User) -> float | None:
    """None if the user's verification link may be mailed now (and it is counted), else
    the seconds to wait."""
    return _wait(request, recipient=f"verify:{user.pk}")


def wait_message(seconds: float) -> str:
    """What a refused request is told, in the request's language."""
    minutes = max(1, math.ceil(seconds / 60))
    return ngettext(
        "Too many emails were asked for. Try again in %(minutes)s minute.",
        "Too many emails were asked for. Try again in %(minutes)s minutes.",
        minutes,
    ) % {"minutes": formats.number(minutes)}
