"""Why a game service refused a request.

Services raise these; interfaces translate them (the API maps each class to an
HTTP status in ``games.api.errors``). ``code`` is stable and machine-readable:
an engine ``IllegalAction`` keeps its own code (``adjacent_jokers``,
``opening_too_low``, ...).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


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
            f"the game is at ply {current_ply}, not {expected_ply}: re-read the state",
            details={"current_ply": current_ply},
        )
        self.current_ply = current_ply


class IdempotencyKeyReused(GameError):
    """An idempotency key already used for a different action in this game."""

    code = "idempotency_key_reused"
