"""Side effects of game changes, run only after the transaction commits.

Services queue their public events in an :class:`Outbox` (one per game and
transaction, registered with :func:`outbox_on_commit`); nothing is sent if the
transaction rolls back. Events go to the Channels group ``game-<public id>`` of
the game (players and spectators) and carry the game's ``ply`` so a client that
missed one notices the gap and re-reads the state over REST: a push is a hint,
the REST state is the truth. Events hold public information only; a player's
private updates (their new hand) go to that user's own group, and the deadline
and bot scheduling run then too: ``games.live.publisher.game_committed`` does all
of it, once per commit, with one trip to the channel layer.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from games.live import publisher
from games.live.publisher import CommittedState

logger = logging.getLogger(__name__)


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
    commit, one publication (``games.play.events.notify`` does that).
    """
    transaction.on_commit(lambda: _game_committed(outbox.game_id, outbox.events, outbox.state))


def game_event_on_commit(game_id: str, ply: int, event: Mapping[str, Any]) -> None:
    """Publish ``event`` once the current transaction commits (at once outside one)."""
    game_events_on_commit(game_id, [(ply, event)])


def game_events_on_commit(game_id: str, batch: list[tuple[int, Mapping[str, Any]]]) -> None:
    """Publish the events of ``batch`` (read at commit time) once the current
    transaction commits, then run the after-commit work of the game once."""
    outbox_on_commit(Outbox(game_id, batch))


def game_notice_on_commit(game_id: str, event: Mapping[str, Any]) -> None:
    """Publish ``event``, news that changes nothing in the game (a deal's review made),
    to the game's group once the current transaction commits (at once outside one).

    Only the event is sent, at the game's ply as it then stands (it never signals a
    gap): none of a game change's after-commit work runs for it. ``game_committed``
    would read the state again, send the turn and the seats' hands once more and queue
    the bot's move or a "your turn" message again."""
    transaction.on_commit(lambda: _notice_committed(game_id, event))


StreamEvents = Callable[[], Sequence[tuple[int, Mapping[str, Any]]]]


def stream_events_on_commit(build: StreamEvents) -> None:
    """Send the ``(user id, event)`` pairs that ``build`` makes, each to that user's event
    stream, once the current transaction commits (at once outside one): the challenge
    events, which belong to no game. Built at the commit, they show what committed;
    registered first, they go before the events of what the rest of the transaction
    does (a challenge accepted, then its game starting). A game's own stream events
    are sent with its commit by ``publisher.game_committed``."""
    transaction.on_commit(lambda: _streams_committed(build))


def _streams_committed(build: StreamEvents) -> None:
    try:
        publisher.publish_stream_events(build())
    except Exception:
        logger.exception("could not publish the stream events of a commit")


def _game_committed(
    game_id: str,
    batch: Sequence[tuple[int, Mapping[str, Any]]],
    state: CommittedState | None,
) -> None:
    try:
        publisher.game_committed(game_id, batch, state)
    except Exception:
        logger.exception("after-commit work of game %s failed", game_id)


def _notice_committed(game_id: str, event: Mapping[str, Any]) -> None:
    try:
        publisher.publish_game_notice(game_id, event)
    except Exception:
        logger.exception("could not publish a notice of game %s", game_id)
