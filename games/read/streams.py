"""The state a user's event stream starts with (docs/websocket.md, "event stream"):
sent first on subscribing, so that a bot needs no other read to know what waits for it.
The frames are built by ``games.stream_events``, as the publisher builds the live ones."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from games.models import Game, Seat
from games.read.challenges import challenge_entry, challenge_list, direction_of
from games.read.game_lists import game_list
from games.read.queue import by_urgency
from games.stream_events import challenge_event, game_start_event, your_turn_event

# The first frames cover this many challenges and games at most (a client reads the
# rest from the lists).
STREAM_STATE_LIMIT = 100


def stream_state(*, user: User) -> list[dict[str, Any]]:
    """The frames a user's event stream starts with: each pending challenge to and
    from them (``challenge``), each running game they are still in (``game_start``),
    and their turn where a game waits for them (``your_turn``)."""
    frames: list[dict[str, Any]] = []
    challenges = challenge_list(user=user).order_by("created_at", "id")[:STREAM_STATE_LIMIT]
    for challenge in challenges:
        entry = challenge_entry(challenge)
        frames.append(challenge_event("challenge", entry, direction=direction_of(challenge, user)))
    games = game_list(user=user, filters={"mine": True, "status": Game.Status.ACTIVE})
    # The games waiting for the user first, the soonest deadline first, as every list of
    # their turns.
    for game in by_urgency(games, user)[:STREAM_STATE_LIMIT]:
        seat = next(s for s in game.seats.all() if s.user_id == user.pk)
        if seat.status == Seat.Status.OUT:
            continue
        frames.append(game_start_event(game.public_id, game.ply, seat.position))
        if game.to_move == seat.position:
            deadline = None if game.deadline_at is None else game.deadline_at.isoformat()
            frames.append(your_turn_event(game.public_id, game.ply, seat.position, deadline))
    return frames
