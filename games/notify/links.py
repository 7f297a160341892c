"""Absolute links in what is sent out: the site's address comes from ``SITE_URL``
(``make run`` sets it from its port)."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse


def absolute(path: str) -> str:
    """``path`` (from ``reverse``) on the site's address."""
    return str(settings.SITE_URL).rstrip("/") + path


def game_url(public_id: str) -> str:
    return absolute(reverse("games:detail", args=[public_id]))


def settings_url() -> str:
    return absolute(reverse("games:notification-settings"))


def unsubscribe_url(token: str) -> str:
    return absolute(reverse("games:unsubscribe", args=[token]))


def calendar_url(secret: str) -> str:
    return absolute(reverse("games:calendar", args=[secret]))
