"""What an API token may do: its scopes, and the one table of the scope each API call
needs.

A token is created with the scopes it needs (lichess-style) and can do nothing else; a
web session, and every token made before scopes existed, has them all. The table maps
an endpoint (its URL name) and method to one scope; a read (GET) needs ``read`` unless
the table says otherwise, and a write the table does not name needs ``account``, the
widest, so that a new endpoint is closed to narrow tokens until someone decides.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import permissions
from rest_framework.request import Request

from remi_site.api_errors import ApiError

READ = "read"
PLAY = "play"
CHALLENGE = "challenge"
BOT_PLAY = "bot:play"
ACCOUNT = "account"

SCOPE_CHOICES = [
    (READ, _("Read: your games, events and streams")),
    (PLAY, _("Play: moves, turns, resigning, chat")),
    (CHALLENGE, _("Challenge: send, accept and decline challenges, open tables, rematches")),
    (BOT_PLAY, _("Bot play: play as a bot account, and turn this account into one")),
    (ACCOUNT, _("Account: tokens, profile, settings, deletion")),
]
ALL_SCOPES = [scope for scope, _label in SCOPE_CHOICES]


def all_scopes() -> list[str]:
    """A fresh list of every scope (a model field's default must not be shared)."""
    return list(ALL_SCOPES)


# Which scopes satisfy a need: a bot account's ``bot:play`` token plays too.
_SATISFIED_BY: dict[str, set[str]] = {PLAY: {PLAY, BOT_PLAY}}

_SAFE_METHODS = frozenset(permissions.SAFE_METHODS)

# (namespace:url name) -> the scope a write needs, or {method: scope} where it differs.
# Reads need ``read`` unless ``_READS`` says otherwise.
_WRITES: dict[str, str] = {
    # accounts
    "accounts-api:me": ACCOUNT,
    "accounts-api:me-bot": BOT_PLAY,
    "accounts-api:me-settings": ACCOUNT,
    "accounts-api:me-email": ACCOUNT,
    "accounts-api:me-password": ACCOUNT,
    "accounts-api:me-delete": ACCOUNT,
    "accounts-api:tokens": ACCOUNT,
    "accounts-api:token": ACCOUNT,
    "accounts-api:reports": ACCOUNT,
    "accounts-api:me-warning-acknowledge": ACCOUNT,
    # tables and challenges: offering or accepting a game
    "games-api:games": CHALLENGE,
    "games-api:play-now": CHALLENGE,
    "games-api:rematch": CHALLENGE,
    "games-api:challenges": CHALLENGE,
    "games-api:challenge": CHALLENGE,
    "games-api:challenge-accept": CHALLENGE,
    "games-api:challenge-decline": CHALLENGE,
    "games-api:challenge-cancel": CHALLENGE,
    # a game in hand
    "games-api:invite-join": PLAY,
    "games-api:join": PLAY,
    "games-api:leave": PLAY,
    "games-api:start": PLAY,
    "games-api:abort": PLAY,
    "games-api:resign": PLAY,
    "games-api:actions": PLAY,
    "games-api:turn": PLAY,
    "games-api:ready": PLAY,
    "games-api:hint": PLAY,
    "games-api:chat": PLAY,
    "games-api:melds-check": PLAY,
    "games-api:absent": PLAY,
    "games-api:note": PLAY,
    "games-api:premove": PLAY,
    "games-api:extra-time": PLAY,
    "games-api:extra-time-grant": PLAY,
    "games-api:extra-time-decline": PLAY,
    # the table in view (its player is told of a turn only when it goes unseen)
    "games-api:seen": PLAY,
    # the account's own arrangements
    "games-api:chips": ACCOUNT,
    "games-api:vacation": ACCOUNT,
    "games-api:vacation-start": ACCOUNT,
    "games-api:vacation-end": ACCOUNT,
    "games-api:notification-settings": ACCOUNT,
    "games-api:push-subscriptions": ACCOUNT,
    "games-api:calendar-reset": ACCOUNT,
    "games-api:mute": ACCOUNT,
}

# Reads that show more than games: the account's tokens and private settings.
_READS: dict[str, str] = {
    "accounts-api:tokens": ACCOUNT,
    "accounts-api:token": ACCOUNT,
    "accounts-api:me-settings": ACCOUNT,
    "accounts-api:me-email": ACCOUNT,
    "games-api:push-subscriptions": ACCOUNT,
    "games-api:notification-settings": ACCOUNT,
}


def scope_needed(view_name: str, method: str) -> str:
    """The scope a call needs: ``view_name`` is the URL's ``namespace:name``."""
    if method.upper() in _SAFE_METHODS:
        return _READS.get(view_name, READ)
    return _WRITES.get(view_name, ACCOUNT)


def token_scopes(auth: Any) -> list[str]:
    """The scopes of what authenticated a request: a token's own, or all of them for a
    web session (``auth`` is then None)."""
    scopes = getattr(auth, "scopes", None)
    return list(ALL_SCOPES) if scopes is None else list(scopes)


def has_scope(scopes: list[str] | set[str], needed: str) -> bool:
    return bool(set(scopes) & _SATISFIED_BY.get(needed, {needed}))


class InsufficientScope(ApiError):
    """403 ``insufficient_scope``: the token lacks the scope named in ``details``."""

    def __init__(self, needed: str) -> None:
        super().__init__(
            "insufficient_scope",
            gettext("This token lacks the scope %(scope)s needed here.") % {"scope": needed},
            status=403,
            details={"scope": needed},
        )


class TokenScopePermission(permissions.BasePermission):
    """Refuses a call the request's token has no scope for (a session has every scope).
    With the default ``IsAuthenticated`` in settings, on every API view; views open to
    visitors list it themselves when a token must still be scoped."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.auth is None:
            return True  # a session, or a visitor: the other permissions decide
        match = request.resolver_match
        view_name = match.view_name if match is not None else ""
        needed = scope_needed(view_name, request.method or "GET")
        if not has_scope(token_scopes(request.auth), needed):
            raise InsufficientScope(needed)
        return True
