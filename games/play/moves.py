"""The move log: a move the engine just applied appended with its public event, and
a seat put out logged as a ``resign`` move (a player's own or the server's)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from games.engine import Deal as EngineDeal
from games.models import Deal, Game, Move, Seat
from games.play import events, sanctions


def log(
    game: Game,
    row: Deal,
    seat: Seat,
    deal: EngineDeal,
    *,
    user: User | None,
    payload: dict[str, Any],
    idempotency_key: str | None = None,
    save: bool = True,
) -> Move:
    """Append the move the engine just applied (``deal.last_event``) to the log
    (``save=False``: the caller inserts it, see ``store.save_play``)."""
    event = deal.last_event
    assert event is not None
    game.ply += 1
    public = event.public
    private = event.private
    move = Move(
        game=game,
        ply=game.ply,
        deal=row,
        seat=seat,
        user=user,
        kind=payload["type"],
        payload=payload,
        public=public,
        private=None if private == public else private,
        idempotency_key=idempotency_key,
    )
    if save:
        move.save(force_insert=True)
    events.notify(game, {"type": "move", "deal": row.number, "move": public})
    return move


def log_seat_out(
    game: Game, row: Deal, seat: Seat, *, reason: str | None = None, by: User | None = None
) -> None:
    """Mark ``seat`` out and log it as a ``resign`` move: the player's own (``by``),
    or the server's, carrying the ``reason`` (timeouts, absence)."""
    seat.status = Seat.Status.OUT
    game.ply += 1
    why = {} if reason is None else {"reason": reason}
    public = {"type": "resign", "seat": seat.position, **why}
    Move.objects.create(
        game=game,
        ply=game.ply,
        deal=row,
        seat=seat,
        user=by,
        kind="resign",
        payload={"type": "resign", **why},
        public=public,
    )
    events.notify(game, {"type": "move", "deal": row.number, "move": public})
    if reason is not None:
        sanctions.seat_abandoned(game=game, seat=seat, reason=reason)
