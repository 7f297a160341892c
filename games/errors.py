"""Why a game service refused a request.

Services raise these; interfaces translate them (the API maps each class to an
HTTP status in ``games.api.errors``). ``code`` is stable and machine-readable:
an engine ``IllegalAction`` keeps its own code (``adjacent_jokers``,
``opening_too_low``, ...).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext

from games.refusals import refusal_text

if TYPE_CHECKING:
    from games.engine import IllegalAction


class GameError(Exception):
    """A refused request: a stable ``code``, a message for people, and ``details``."""

    code = "game_error"

    def __init__(
        self, message: str, *, code: str | None = None, details: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.details = dict(details or {})

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class InvalidRequest(GameError):
    """The request itself is wrong: an unknown preset, a bad house rule, a bad count."""

    code = "invalid"


class IllegalMove(GameError):
    """The engine refused the action; ``code`` is the engine's."""

    code = "illegal_action"


def illegal_move(error: IllegalAction) -> IllegalMove:
    """The engine's refusal as the services raise it: its code, said in the active language."""
    return IllegalMove(refusal_text(error), code=error.code)


class NotAllowed(GameError):
    """Not this user's game, turn or right (not the host, seat out, wrong invite code)."""

    code = "not_allowed"


class GameNotFound(GameError):
    """No such game, or a private game the user is not seated in."""

    code = "not_found"


class Conflict(GameError):
    """The game is not in a state that allows this (not in the lobby, full, over)."""

    code = "conflict"


class StalePly(Conflict):
    """The client's expected ply is not the game's: it must re-read the state."""

    code = "stale_ply"

    def __init__(self, current_ply: int, expected_ply: int) -> None:
        super().__init__(
            gettext("the game is at ply %(current)s, not %(expected)s: re-read the state")
            % {"current": current_ply, "expected": expected_ply},
            details={"current_ply": current_ply},
        )
        self.current_ply = current_ply


class IdempotencyKeyReused(GameError):
    """An idempotency key already used for a different action in this game."""

    code = "idempotency_key_reused"
