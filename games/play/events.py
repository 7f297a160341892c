"""A command's events for after its commit: each public event queued on the locked
game's outbox (``games.live.outbox``), and the state the transaction is about to
commit handed to the after-commit work so that it need not read it again."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction

from games.engine import Deal as EngineDeal
from games.live import outbox, publisher
from games.models import Game, Seat


def notify(game: Game, event: Mapping[str, Any]) -> None:
    """Queue a public event for after the commit. The game row locked by this
    transaction collects them, so that one commit publishes its events at once."""
    _outbox(game).events.append((game.ply, dict(event)))


def access_ended(*, user_id: int, game_id: str) -> None:
    """Once the transaction commits, tell the user's websockets that they may no longer
    see the game (they left a private game's lobby, or were removed from it): each stops
    following it before the game's next event."""
    transaction.on_commit(lambda: publisher.publish_access_ended(user_id, game_id))


def _outbox(game: Game) -> outbox.Outbox:
    pending: outbox.Outbox | None = getattr(game, "_outbox", None)
    if pending is None:
        pending = game._outbox = outbox.Outbox(game.public_id)  # type: ignore[attr-defined]
        outbox.outbox_on_commit(pending)
    return pending


def hands_played(seats: Sequence[Seat], mover: Seat) -> frozenset[int]:
    """The hands a move in the same deal changed: the mover's, and those of the seats
    the server played for (out). A new deal changes every hand."""
    return frozenset({mover.position, *(s.position for s in seats if s.status == Seat.Status.OUT)})


def committed(
    game: Game,
    deal: EngineDeal | None,
    seats: list[Seat],
    *,
    hands: frozenset[int] | None,
    new_turn: bool,
) -> publisher.CommittedState | None:
    """Hand the state this transaction is about to commit to its after-commit work, so
    that it need not read it again; called last in the transaction. Not when the
    transaction is nested in another (a savepoint): the outer one may change the game
    again before it commits, so the work then reads the state it committed."""
    if transaction.get_connection().savepoint_ids:
        return None
    state = publisher.CommittedState(
        game=game, deal=deal, seats=seats, hands=hands, new_turn=new_turn
    )
    _outbox(game).state = state
    return state
