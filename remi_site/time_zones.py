"""Pages in the reader's time zone: a signed-in person's zone from their notification
settings (the one their emails use), else UTC. The API answers in UTC (ISO 8601 with
the offset), so it is left alone and pays no query for it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.http import HttpRequest, HttpResponseBase
from django.utils import timezone

from games.models import PlayerSettings


def account_zone(request: HttpRequest) -> tzinfo | None:
    """The signed-in person's chosen zone, or None (a visitor, the API, none chosen)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or request.path.startswith("/api/"):
        return None
    name = (
        PlayerSettings.objects.filter(user_id=user.pk).values_list("time_zone", flat=True).first()
    )
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):  # a zone the system's database dropped
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
