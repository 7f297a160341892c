"""Unsubscribe links that work without logging in: the link carries who and what,
signed with the site's secret key (``django.core.signing``), so nobody can make one
for someone else. They do not expire: an old email's link must still work."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from django.core import signing

_SALT = "games.notify.unsubscribe"


class Kind(StrEnum):
    """What an unsubscribe link turns off: one kind of email, or every message about
    one game (``GAME``: a per-game mute)."""

    TURN = "turn"
    DIGEST = "digest"
    REMINDER = "reminder"
    STRIKE = "strike"
    GAME_OVER = "game_over"
    CHALLENGE = "challenge"
    GAME = "game"


@dataclass(frozen=True)
class Unsubscribe:
    user_id: int
    kind: Kind
    game_id: str = ""  # the game's public id, for ``Kind.GAME``


def unsubscribe_token(unsubscribe: Unsubscribe) -> str:
    return signing.dumps(
        [unsubscribe.user_id, str(unsubscribe.kind), unsubscribe.game_id], salt=_SALT
    )


def unsubscribe_read(token: str) -> Unsubscribe | None:
    """What ``token`` asks for, or None when it is not one of ours (a bad signature,
    or a shape this code never signed)."""
    try:
        data = signing.loads(token, salt=_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, list) or len(data) != 3:
        return None
    user_id, kind, game_id = data
    if not isinstance(user_id, int) or not isinstance(game_id, str) or kind not in set(Kind):
        return None
    if (kind == Kind.GAME) != bool(game_id):
        return None
    return Unsubscribe(user_id=user_id, kind=Kind(kind), game_id=game_id)
