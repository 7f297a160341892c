"""The response to a login attempt while django-axes has the client locked out.

django-axes counts attempts per username and client address; the address is
``remi_site.client_ip.client_ip`` (``AXES_CLIENT_IP_CALLABLE``), the same as the
API's throttles use.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy

from remi_site.api_errors import error_json_response

LOCKED_OUT_CODE = "locked_out"
# Lazy: said in the language of the request that is refused.
LOCKED_OUT_MESSAGE = gettext_lazy("Too many failed login attempts. Try again later.")


def retry_after_seconds() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds())


def lockout_response(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: 429 with Retry-After, in the API's error shape for the API
    and as a page for the web login."""
    seconds = retry_after_seconds()
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = error_json_response(
            LOCKED_OUT_CODE, str(LOCKED_OUT_MESSAGE), status=429, details={"retry_after": seconds}
        )
    else:
        response = render(
            request, "accounts/locked_out.html", {"minutes": seconds // 60}, status=429
        )
    response["Retry-After"] = str(seconds)
    return response
