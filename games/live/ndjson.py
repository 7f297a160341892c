"""The event streams as NDJSON over plain HTTP, beside the websocket (docs/api.md):
``curl`` can follow them, and any language's HTTP client is enough for a bot.

A stream is the same Channels groups a websocket connection joins, read by a channel
of its own and written out one JSON object a line, with an empty line every
``KEEPALIVE_S`` so that proxies and clients see the connection alive. The frames are
the websocket's (docs/asyncapi.yaml); nothing is built here that the publisher did not
build. A game's stream ends when its game is over and the review of its last deal has
been announced (``GameEnd``); any stream ends when the account is closed (ban,
deletion), when a game's player may no longer see it (they left a private game:
``unsubscribed``), when its client goes, or when the channel layer is lost (the client
reconnects, as after a websocket's 1012).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
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
# The frames that end a game: after them nothing more happens in it but the review of
# its last deal, which a stream waits for this long at most (its worker may be down).
GAME_ENDS = frozenset({"game_over", "game_aborted"})
REVIEW_WAIT_S = 20.0
OVER = frozenset({"finished", "aborted"})


@dataclass
class GameEnd:
    """When a game's stream has said everything: the game is over (``game_over``,
    ``game_aborted``, or a first ``game_full`` of a game already over) and every deal
    whose end it sent (``deal_over``) has had its ``review_ready``, or ``REVIEW_WAIT_S``
    have passed since the game ended. A game followed from after its end has no review
    to wait for: it is read through the API."""

    over_at: float | None = None
    # The deals it sent the end of, and those whose review it announced (in either
    # order: a review made at once may be announced before its deal's end arrives).
    ended: set[int] = field(default_factory=set)
    reviewed: set[int] = field(default_factory=set)

    def see(self, frame: Mapping[str, Any]) -> None:
        kind = frame.get("type")
        if kind == "deal_over":
            self.ended.add(frame["deal"])
        elif kind == "review_ready":
            self.reviewed.add(frame["deal"])
        over = kind in GAME_ENDS or (kind == "game_full" and frame["view"]["status"] in OVER)
        if over and self.over_at is None:
            self.over_at = time.monotonic()

    def done(self) -> bool:
        if self.over_at is None:
            return False
        return self.ended <= self.reviewed or self.waited_s() <= 0

    def waited_s(self) -> float:
        """How long the stream may still wait for a review (the game being over)."""
        assert self.over_at is not None
        return self.over_at + REVIEW_WAIT_S - time.monotonic()

    def timeout_s(self, keepalive_s: float) -> float:
        return keepalive_s if self.over_at is None else max(0.0, min(keepalive_s, self.waited_s()))


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
    for a player, each private one, until the game ends (``GameEnd``)."""

    def frame_of(message: Mapping[str, Any]) -> dict[str, Any] | None:
        if message["type"] not in ("game.event", "user.event"):
            return None
        if message.get("game") != game_id:
            return None
        return {**message["event"], "game": game_id, "ply": message["ply"]}

    groups = [game_group(game_id)]
    if slot.user_id is not None:
        groups.append(user_group(slot.user_id))
    lines = _lines(slot, groups, first, frame_of, keepalive_s, games=(game_id,), end=GameEnd())
    async for chunk in lines:
        yield chunk


async def _lines(
    slot: Slot,
    groups: list[str],
    first: Callable[[], Any],
    frame_of: Callable[[Mapping[str, Any]], dict[str, Any] | None],
    keepalive_s: float | None,
    *,
    games: tuple[str, ...],
    end: GameEnd | None = None,
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
            if end is not None:
                end.see(frame)
        while end is None or not end.done():
            timeout = keepalive_s if end is None else end.timeout_s(keepalive_s)
            try:
                message = await asyncio.wait_for(layer.receive(channel), timeout=timeout)
            except TimeoutError:
                if end is not None and end.done():
                    return
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
            if end is not None:
                end.see(frame)
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
