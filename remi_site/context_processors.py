"""What every page's template may show beyond the request: the queue of games waiting
for the signed-in player (the header's "your turn" count and its "next game" button)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from games.read import queue


def my_turn(request: HttpRequest) -> dict[str, Any]:
    """``my_turn_count``: counted (one indexed query) only when a template shows it, and
    never for a visitor."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"my_turn_count": 0}
    return {"my_turn_count": SimpleLazyObject(lambda: queue.my_turn_count(user))}
