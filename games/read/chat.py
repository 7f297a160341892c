"""Table chat as a viewer reads it: the visible lines of a game, oldest first (and,
for a moderator, every line with the hidden ones marked). The writes (a line posted,
a line hidden by a moderator) are ``games.play.chat``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from games.models import ChatMessage, Game
from games.read.selectors import user_card

CHAT_PAGE = 100  # lines per read


def messages_for(*, game: Game, after: int = 0, limit: int = CHAT_PAGE) -> list[dict[str, Any]]:
    """The visible lines of ``game``'s chat with an id above ``after``, oldest first.

    The caller has already checked that the viewer may see the game (a selector's
    ``game_get``): chat is as visible as the table.
    """
    rows = (
        ChatMessage.objects.filter(game=game, id__gt=after, hidden_at__isnull=True)
        .select_related("user__profile")
        .order_by("id")[:limit]
    )
    return [message_entry(row) for row in rows]


def lines_for_moderator(*, game: Game, limit: int = CHAT_PAGE) -> list[dict[str, Any]]:
    """The last ``limit`` lines of ``game``'s chat, hidden ones included and marked,
    oldest first: what a moderator at the table judges (and may show again). Only for
    moderators: the callers check the role."""
    rows = (
        ChatMessage.objects.filter(game=game)
        .select_related("user__profile")
        .order_by("-id")[:limit]
    )
    return [{**message_entry(row), "hidden": row.hidden_at is not None} for row in reversed(rows)]


def message_entry(message: ChatMessage) -> dict[str, Any]:
    sent: datetime = message.created_at
    return {
        "id": message.pk,
        "ply": message.ply,
        "user": user_card(message.user),
        "text": message.text,
        "sent_at": sent.isoformat().replace("+00:00", "Z"),
    }
