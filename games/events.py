"""Side effects of game changes, run only after the transaction commits.

Services queue their public events in an :class:`Outbox` (one per game and
transaction, registered with :func:`outbox_on_commit`); nothing is sent if the
transaction rolls back. Events go to the Channels group ``game-<public id>`` of
the game (players and spectators) and carry the game's ``ply`` so a client that
missed one notices the gap and re-reads the state over REST: a push is a hint,
the REST state is the truth. Events hold public information only; a player's
private updates (their new hand) go to that user's own group, and the deadline
and bot scheduling run then too: ``games.notifications.game_committed`` does all
of it, once per commit, with one trip to the channel layer.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

if TYPE_CHECKING:
    from games.engine import Deal as EngineDeal
    from games.models import Game, Seat

logger = logging.getLogger(__name__)


def game_group(public_id: str) -> str:
    """The Channels group of a game's players and spectators."""
    return f"game-{public_id}"


def publish_game_event(game_id: str, ply: int, event: Mapping[str, Any]) -> None:
    """Send a public game event to the game's group, if a channel layer is configured."""
    publish_game_events(game_id, [(ply, event)])


def publish_game_events(game_id: str, batch: Sequence[tuple[int, Mapping[str, Any]]]) -> None:
    """Send public game events, in order, to the game's group (one trip to the event
    loop for all of them), if a channel layer is configured.

    ``game_id`` is the game's public id. A broken channel layer must never turn a
    committed move into an error response, so failures are logged, not raised.
    """
    layer = get_channel_layer()
    if layer is None or not batch:
        return
    group = game_group(game_id)
    messages = [
        {"type": "game.event", "game": game_id, "ply": ply, "event": dict(event)}
        for ply, event in batch
    ]

    async def send_all() -> None:
        for message in messages:
            await layer.group_send(group, message)

    try:
        async_to_sync(send_all)()
    except Exception:
        logger.exception("could not publish %d event(s) of game %s", len(messages), game_id)


@dataclass
class CommittedState:
    """A game as the transaction that changed it committed it, from the service's
    memory: the after-commit work (``games.notifications``) uses it instead of
    reading the game, its deal and its seats again."""

    game: Game
    deal: EngineDeal | None
    seats: Sequence[Seat]
    # Positions whose hand changed (None: every seat's, e.g. a new deal).
    hands: frozenset[int] | None = None
    # A new turn started (the turn passed, or a deal began): the turn's deadline was
    # set and its "your turn" work is due. None: not known.
    new_turn: bool | None = None
    # Per-seat views of ``deal`` built so far (``view``): the private updates and the
    # API's answer share them.
    views: dict[int, dict[str, Any]] = field(default_factory=dict)

    def view(self, position: int) -> dict[str, Any]:
        """The engine's view of the deal for ``position``, as a dict (built once)."""
        built = self.views.get(position)
        if built is None:
            assert self.deal is not None
            built = self.views[position] = self.deal.view(position).to_dict()
        return built


@dataclass
class Outbox:
    """What one transaction has to say about a game once it commits: its public
    events in order, and (set by the service at the end, when it has them in memory)
    the committed state, so that the after-commit work need not read it again."""

    game_id: str
    events: list[tuple[int, Mapping[str, Any]]] = field(default_factory=list)
    state: CommittedState | None = None


def outbox_on_commit(outbox: Outbox) -> None:
    """Run the after-commit work of ``outbox`` once the current transaction commits.

    The outbox is read when the transaction commits, so a service may register it at
    its first event and keep filling it until the end of the transaction: one
    commit, one publication (``games.services._notify`` does that).
    """
    transaction.on_commit(lambda: _game_committed(outbox.game_id, outbox.events, outbox.state))


def game_event_on_commit(game_id: str, ply: int, event: Mapping[str, Any]) -> None:
    """Publish ``event`` once the current transaction commits (at once outside one)."""
    game_events_on_commit(game_id, [(ply, event)])


def game_events_on_commit(game_id: str, batch: list[tuple[int, Mapping[str, Any]]]) -> None:
    """Publish the events of ``batch`` (read at commit time) once the current
    transaction commits, then run the after-commit work of the game once."""
    outbox_on_commit(Outbox(game_id, batch))


def _game_committed(
    game_id: str,
    batch: Sequence[tuple[int, Mapping[str, Any]]],
    state: CommittedState | None,
) -> None:
    from games import notifications  # imports services, which import this module

    try:
        notifications.game_committed(game_id, batch, state)
    except Exception:
        logger.exception("after-commit work of game %s failed", game_id)
