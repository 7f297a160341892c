"""The event streams as NDJSON over plain HTTP, beside the websocket (docs/api.md):
``curl`` can follow them, and any language's HTTP client is enough for a bot.

A stream is the same Channels groups a websocket connection joins, read by a channel
of its own and written out one JSON object a line, with an empty line every
``KEEPALIVE_S`` so that proxies and clients see the connection alive. The frames are
the websocket's (docs/asyncapi.yaml); nothing is built here that the publisher did not
build. A stream ends when its game ends, when the account is closed (ban, deletion),
when a game's player may no longer see it (they left a private game: ``unsubscribed``),
or when the channel layer is lost (the client reconnects, as after a websocket's 1012).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from channels.layers import get_channel_layer
from redis.exceptions import RedisError

from games.live import limits
from games.live.publisher import game_group, user_group
from remi_site.renderers import JSONRenderer

logger = logging.getLogger(__name__)

KEEPALIVE_S = 7.0
KEEPALIVE = b"\n"
# The last frames of a game's stream: after them nothing more happens in it.
GAME_ENDS = frozenset({"game_over", "game_aborted"})


@dataclass
class Slot:
    """One open stream counted against its owner's connections, as a websocket is: an
    account's (``WS_MAX_CONNECTIONS_PER_USER``) or, without one, its client address's
    (``WS_MAX_WATCHERS_PER_ADDRESS``). Taken before the stream starts, so that a refusal
    is a plain 429; refreshed while it lives, released when it ends."""

    user_id: int | None
    scope: Mapping[str, Any]
    id: str = field(default_factory=lambda: f"ndjson-{secrets.token_hex(8)}")

    async def take(self) -> bool:
        if self.user_id is not None:
            return await limits.connection_slot_take(self.user_id, self.id)
        return await limits.watcher_slot_take(self.scope, self.id)

    async def refresh(self) -> None:
        if self.user_id is not None:
            await limits.connection_slot_refresh(self.user_id, self.id)
        else:
            await limits.watcher_slot_refresh(self.scope, self.id)

    async def release(self) -> None:
        if self.user_id is not None:
            await limits.connection_slot_release(self.user_id, self.id)
        else:
            await limits.watcher_slot_release(self.scope, self.id)


def line(frame: Mapping[str, Any]) -> bytes:
    """One frame, one line; written as the API writes its JSON (dates as ISO 8601)."""
    return JSONRenderer().render(frame) + b"\n"


async def account_lines(
    slot: Slot, first: Callable[[], Any], *, keepalive_s: float | None = None
) -> AsyncIterator[bytes]:
    """The user's event stream: the state (``await first()``: its frames) then each
    ``stream.event`` of the user's group."""

    def frame_of(message: Mapping[str, Any]) -> dict[str, Any] | None:
        return dict(message["event"]) if message["type"] == "stream.event" else None

    assert slot.user_id is not None
    lines = _lines(slot, [user_group(slot.user_id)], first, frame_of, keepalive_s, games=())
    async for chunk in lines:
        yield chunk


async def game_lines(
    slot: Slot,
    game_id: str,
    first: Callable[[], Any],
    *,
    keepalive_s: float | None = None,
) -> AsyncIterator[bytes]:
    """A game's stream as one seat (or a spectator: ``user_id`` None, or not seated)
    sees it: the whole game (``await first()``: its frames) then each public event and,
    for a player, each private one, until the game ends."""

    def frame_of(message: Mapping[str, Any]) -> dict[str, Any] | None:
        if message["type"] not in ("game.event", "user.event"):
            return None
        if message.get("game") != game_id:
            return None
        return {**message["event"], "game": game_id, "ply": message["ply"]}

    groups = [game_group(game_id)]
    if slot.user_id is not None:
        groups.append(user_group(slot.user_id))
    async for chunk in _lines(slot, groups, first, frame_of, keepalive_s, games=(game_id,)):
        yield chunk


async def _lines(
    slot: Slot,
    groups: list[str],
    first: Callable[[], Any],
    frame_of: Callable[[Mapping[str, Any]], dict[str, Any] | None],
    keepalive_s: float | None,
    *,
    games: tuple[str, ...],
) -> AsyncIterator[bytes]:
    keepalive_s = KEEPALIVE_S if keepalive_s is None else keepalive_s
    layer = get_channel_layer()
    if layer is None:  # pragma: no cover - the site always has one
        return
    channel = await layer.new_channel()
    try:
        # Joined before the state is read, so that no change is lost between the two
        # (a change already in the state may come again: clients ignore a ply they have).
        for group in groups:
            await layer.group_add(group, channel)
        for frame in await first():
            yield line(frame)
        while True:
            try:
                message = await asyncio.wait_for(layer.receive(channel), timeout=keepalive_s)
            except TimeoutError:
                yield KEEPALIVE
                await slot.refresh()
                continue
            if message["type"] == "account.closed":
                return
            if message["type"] == "game.access_ended" and message.get("game") in games:
                # The user left a private game or was removed: nothing more of it.
                yield line({"type": "unsubscribed", "game": message["game"]})
                return
            frame = frame_of(message)
            if frame is None:
                continue
            yield line(frame)
            if frame.get("type") in GAME_ENDS:
                return
    except RedisError:
        logger.warning("an event stream lost its channel layer; the client reconnects")
    finally:
        await _leave(layer, channel, groups, slot)


async def _leave(layer: Any, channel: str, groups: list[str], slot: Slot) -> None:
    try:
        for group in groups:
            await layer.group_discard(group, channel)
        await slot.release()
    except RedisError:
        logger.warning("an event stream could not leave its groups (the channel layer is lost)")
