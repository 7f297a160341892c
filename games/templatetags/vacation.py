"""``{% load vacation %}``: ``person|vacation_until``, the end of the vacation a player
is on (None when they are not), for the "on vacation until …" badge of their page."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import template

from games.read import queue

register = template.Library()


@register.filter
def vacation_until(user: Any) -> datetime | None:
    if user is None or not getattr(user, "pk", None):
        return None
    return queue.vacation_until(user)
