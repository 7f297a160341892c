"""The HTTP status of each kind of ``GameError``."""

from __future__ import annotations

from games.errors import (
    Conflict,
    GameError,
    GameNotFound,
    IdempotencyKeyReused,
    IllegalMove,
    InvalidRequest,
    NotAllowed,
)
from remi_site.api_errors import ApiError

STATUS_OF: dict[type[GameError], int] = {
    InvalidRequest: 400,
    IllegalMove: 400,
    NotAllowed: 403,
    GameNotFound: 404,
    Conflict: 409,  # StalePly too: details.current_ply
    IdempotencyKeyReused: 422,
}


def api_error(error: GameError) -> ApiError:
    status = next((code for kind, code in STATUS_OF.items() if isinstance(error, kind)), 400)
    return ApiError(error.code, error.message, status=status, details=error.details)
