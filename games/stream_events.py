"""The frames of a user's event stream (``{"type": "subscribe", "stream": "events"}`` on
``/ws/v1/``; docs/websocket.md): what a player or a bot needs to know without
watching any game: challenges to and from them, their games starting and finishing,
and their turn coming.

Built here, once, for the publisher (after a commit) and for the consumer (the state
sent first on subscribing), so both send the same shapes. Every frame has
``"stream": "events"``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

STREAM = "events"

ChallengeEvent = Literal[
    "challenge",
    "challenge_answered",
    "challenge_accepted",
    "challenge_declined",
    "challenge_cancelled",
]
Direction = Literal["in", "out"]


def challenge_event(
    kind: ChallengeEvent, challenge: Mapping[str, Any], *, direction: Direction
) -> dict[str, Any]:
    """A challenge changed (``challenge``: it was made; ``challenge_answered``: one of
    several invited accounts accepted, the game waits for the others); ``direction`` is
    ``in`` for an account challenged and ``out`` for the challenger."""
    return {"type": kind, "stream": STREAM, "direction": direction, "challenge": dict(challenge)}


def game_start_event(game_id: str, ply: int, seat: int) -> dict[str, Any]:
    """A game the user sits in is under way (``seat``: theirs)."""
    return {"type": "game_start", "stream": STREAM, "game": game_id, "ply": ply, "seat": seat}


def your_turn_event(game_id: str, ply: int, seat: int, deadline_at: str | None) -> dict[str, Any]:
    """It is the user's turn in ``game_id`` at ``ply`` (send the move with that ply)."""
    return {
        "type": "your_turn",
        "stream": STREAM,
        "game": game_id,
        "ply": ply,
        "seat": seat,
        "deadline_at": deadline_at,
    }


def game_finish_event(
    game_id: str,
    ply: int,
    seat: int,
    *,
    status: str,
    winners: list[int] | None,
    totals: list[int] | None = None,
) -> dict[str, Any]:
    """A game the user sat in is over: ``finished`` (with the ``winners``' seats and the
    match's final ``totals``, one per seat) or ``aborted`` (both null)."""
    return {
        "type": "game_finish",
        "stream": STREAM,
        "game": game_id,
        "ply": ply,
        "seat": seat,
        "status": status,
        "winners": winners,
        "totals": totals,
    }
