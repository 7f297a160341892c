"""Side effects of game changes, run only after the transaction commits.

Services call :func:`game_event_on_commit`; nothing is sent if the transaction
rolls back. Events go to the Channels group ``game-<public id>`` of the game
(players and spectators) and carry the game's ``ply`` so a client that
missed one notices the gap and re-reads the state over REST: a push is a
hint, the REST state is the truth. Events hold public information only;
a player's private updates (their new hand) go to that user's own group
(the live-play part adds those, and the deadline and bot scheduling, here).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

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


def game_event_on_commit(game_id: str, ply: int, event: Mapping[str, Any]) -> None:
    """Publish ``event`` once the current transaction commits (at once outside one)."""
    game_events_on_commit(game_id, [(ply, event)])


def game_events_on_commit(game_id: str, batch: list[tuple[int, Mapping[str, Any]]]) -> None:
    """Publish the events of ``batch`` once the current transaction commits, then run
    the after-commit work of the game once.

    The list is read when the transaction commits, so a service may register it at
    its first event and keep appending to it until the end of the transaction: one
    commit, one publication (``games.services._notify`` does that).
    """

    def after_commit() -> None:
        publish_game_events(game_id, batch)
        _game_committed(game_id)

    transaction.on_commit(after_commit)


def _game_committed(game_id: str) -> None:
    from games import notifications  # imports services, which import this module

    try:
        notifications.game_committed(game_id)
    except Exception:
        logger.exception("after-commit work of game %s failed", game_id)
