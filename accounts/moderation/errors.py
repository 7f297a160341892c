"""Why a moderation service refused a request (interfaces map ``status``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class ModerationError(Exception):
    """A refused request: a stable ``code``, a message for people, ``details``, and the
    HTTP status an interface answers with."""

    code = "moderation_error"
    status = 400

    def __init__(
        self, message: str, *, code: str | None = None, details: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.details = dict(details or {})


class InvalidRequest(ModerationError):
    """The request itself is wrong: reporting oneself, a line of another game."""

    code = "invalid"


class NotAllowed(ModerationError):
    """Not this moderator's right (another moderator's account, staff, oneself)."""

    code = "not_allowed"
    status = 403


class Conflict(ModerationError):
    """Not in a state that allows it: reported already, not banned, closed already."""

    code = "conflict"
    status = 409


class NotFound(ModerationError):
    """No such account, game or line, or one the reporter may not see."""

    code = "not_found"
    status = 404
