"""Pages in the reader's time zone: a signed-in person's zone from their notification
settings (the one their emails use); a visitor's (or a person's who chose none) the
browser's, which static/js/zone.js keeps in the ``remi_tz`` cookie; else UTC. The API
answers in UTC (ISO 8601 with the offset), so it is left alone and pays no query for it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.http import HttpRequest, HttpResponseBase
from django.utils import timezone

from games.models import PlayerSettings

BROWSER_ZONE_COOKIE = "remi_tz"


def account_zone(request: HttpRequest) -> tzinfo | None:
    """The signed-in person's chosen zone, else the browser's; None for the API or when
    neither is known."""
    if request.path.startswith("/api/"):
        return None
    user = getattr(request, "user", None)
    name = None
    if user is not None and user.is_authenticated:
        name = (
            PlayerSettings.objects.filter(user_id=user.pk)
            .values_list("time_zone", flat=True)
            .first()
        )
    return _zone(name) or _zone(request.COOKIES.get(BROWSER_ZONE_COOKIE))


def _zone(name: str | None) -> tzinfo | None:
    """The zone of an IANA name; None for none, or one this system does not know (a
    cookie can hold anything)."""
    if not name or len(name) > 64:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


class AccountTimeZoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        zone = account_zone(request)
        if zone is None:
            return self.get_response(request)
        with timezone.override(zone):
            return self.get_response(request)
