"""The move log as a user may see it: public forms, their own moves in full, everything
once the game is over."""

from __future__ import annotations

from typing import Any

from games.models import Game, Move
from games.read.results import deal_log
from games.read.selectors import User, seat_of, seating_view

# What ``move_entry`` shows of a logged move (not the payload as sent, nor its key).
_MOVE_LOG_FIELDS = ("ply", "deal", "seat", "user", "kind", "public", "private", "created_at")


def move_entry(move: Move, *, position: int, full: bool, own: bool) -> dict[str, Any]:
    """A logged move as a viewer may see it: its public form, or the private one (with
    the card drawn) for the mover, and for everyone once the game is over."""
    event = move.private if (full or own) and move.private is not None else move.public
    return {
        "ply": move.ply,
        "deal": move.deal.number if move.deal is not None else None,
        "seat": position,
        "kind": move.kind,
        "by_server": move.user_id is None,
        "event": event,
        "created_at": move.created_at,
    }


def move_log_for(*, game: Game, user: User, after: int = 0, limit: int = 500) -> dict[str, Any]:
    """The game's move log from ply ``after + 1``, as ``user`` may see it.

    While the game runs, every move shows its public form (the viewer's own moves
    their private one). Once the game is over the log is complete: every move's
    private form and each deal's dealt hands (from each seat's view of the deal as
    dealt): that is the replay. Each finished deal's result is in it from the start
    (``results.deal_log``).
    """
    viewer = seat_of(game, user)
    full = game.is_over
    # Each move's seat is one of the game's (already read); of its deal only the
    # number: the deal's snapshot and deck stay in the database.
    positions = {seat.pk: seat.position for seat in game.seats.all()}
    moves = list(
        Move.objects.filter(game=game, ply__gt=after)
        .select_related("deal")
        .only(*_MOVE_LOG_FIELDS, "deal__number")
        .order_by("ply")[: limit + 1]
    )
    more = len(moves) > limit
    moves = moves[:limit]
    entries = [
        move_entry(
            move,
            position=positions[move.seat_id],
            full=full,
            own=viewer is not None and move.seat_id == viewer.pk,
        )
        for move in moves
    ]
    return {
        "complete": full,
        "ply": game.ply,
        "moves": entries,
        "next_after": entries[-1]["ply"] if more else None,
        "deals": deal_log(game, complete=full),
        "seating": seating_view(game),
    }
