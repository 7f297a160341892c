"""The Content-Security-Policy header: django-csp's, with the page's own websocket.

``connect-src 'self'`` matches ``ws:``/``wss:`` of the page's host only in browsers
that follow CSP Level 3; older ones (Safari before 15.4) refuse the table's websocket
under it. So each response names its own websocket origin, the one the table's script
derives from the page's address (static/js/live.js): the same host and port, ``wss:``
under HTTPS. No other host may be reached.
"""

from __future__ import annotations

from csp.middleware import CSPMiddleware as BaseCSPMiddleware
from csp.middleware import PolicyParts
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponseBase


def websocket_origin(request: HttpRequest) -> str | None:
    """``ws://host[:port]`` (``wss://`` under HTTPS) of the request, or None when its
    host is not one of ALLOWED_HOSTS (such a request is refused anyway)."""
    try:
        host = request.get_host()
    except DisallowedHost:
        return None
    return f"{'wss' if request.is_secure() else 'ws'}://{host}"


class CSPMiddleware(BaseCSPMiddleware):
    """django-csp's middleware (settings.CONTENT_SECURITY_POLICY, the views' own
    decorators), plus the request's websocket origin in ``connect-src``."""

    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        origin = websocket_origin(request)
        if origin is not None:
            update = dict(parts.update or {})
            update["connect-src"] = [*update.get("connect-src", ()), origin]
            parts.update = update
        return parts
