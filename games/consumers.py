"""The websocket endpoint ``/ws/v1/``: live game events (protocol: docs/websocket.md).

Thin: authenticate (session cookie or ``Authorization: Bearer`` token, set by the
ASGI stack; Origin checked there too), authorise a subscription with the same
rule as the REST API (public games, or private ones the user sits in), join the
Channels groups, forward events. Each connection is in its user's group
(private updates: their own hand) and in the group of each game it subscribed to
(public events). State is never built here: events are built after commit by
``games.notifications`` and ``games.events``.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games import notifications, selectors
from games.errors import GameNotFound
from games.events import game_group

CLOSE_UNAUTHENTICATED = 4401
MAX_SUBSCRIPTIONS = 50
PRESENCE_REFRESH_S = notifications.PRESENCE_TTL_S / 3


@database_sync_to_async
def _subscription(user: Any, game_id: str) -> dict[str, Any]:
    game = selectors.game_get(public_id=game_id, user=user)
    seat = selectors.seat_of(game, user)
    return {
        "ply": game.ply,
        "status": game.status,
        "seat": None if seat is None else seat.position,
    }


class GameEventsConsumer(AsyncJsonWebsocketConsumer):
    user: Any
    games: set[str]

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.games = set()
        self._refresher: asyncio.Task[None] | None = None
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            # Stop now: a refused client need not send a disconnect, and waiting for
            # one would hold a task and a channel-layer read open until shutdown.
            raise StopConsumer
        await self.channel_layer.group_add(
            notifications.user_group(self.user.pk), self.channel_name
        )
        await self.accept()
        await self._touch()
        self._refresher = asyncio.create_task(self._refresh_presence())
        await self.send_json(
            {
                "type": "hello",
                "protocol": notifications.PROTOCOL_VERSION,
                "user": self.user.get_username(),
            }
        )

    async def disconnect(self, code: int) -> None:
        if self._refresher is not None:
            self._refresher.cancel()
        if self.user is None or not self.user.is_authenticated:
            return
        for game_id in list(self.games):
            await self.channel_layer.group_discard(game_group(game_id), self.channel_name)
        await self.channel_layer.group_discard(
            notifications.user_group(self.user.pk), self.channel_name
        )
        await database_sync_to_async(notifications.presence_drop)(
            user_id=self.user.pk, channel=self.channel_name, games=sorted(self.games)
        )
        await database_sync_to_async(notifications.presence_drop)(
            user_id=self.user.pk, channel=self.channel_name, games=[]
        )

    # ---------------------------------------------------------------- client messages

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            await self._error("bad_message", "send a JSON object")
            return
        kind = content.get("type")
        if kind == "subscribe":
            await self._subscribe(content)
        elif kind == "unsubscribe":
            await self._unsubscribe(content)
        elif kind == "ping":
            await self._touch()
            await self.send_json({"type": "pong"})
        else:
            await self._error("unknown_type", f"unknown message type {kind!r}")

    async def _subscribe(self, content: dict[str, Any]) -> None:
        game_id = content.get("game")
        last_ply = content.get("ply")
        if not isinstance(game_id, str) or not (last_ply is None or isinstance(last_ply, int)):
            await self._error("bad_message", "subscribe needs game (string), ply (int or null)")
            return
        if game_id not in self.games and len(self.games) >= MAX_SUBSCRIPTIONS:
            await self._error("too_many_subscriptions", f"at most {MAX_SUBSCRIPTIONS} games")
            return
        # Join first, then read the ply: no event can fall between the two.
        await self.channel_layer.group_add(game_group(game_id), self.channel_name)
        try:
            info = await _subscription(self.user, game_id)
        except GameNotFound:
            await self.channel_layer.group_discard(game_group(game_id), self.channel_name)
            await self._error("not_found", "no such game", game=game_id)
            return
        self.games.add(game_id)
        await self._touch()
        await self.send_json({"type": "subscribed", "game": game_id, **info})
        if last_ply is not None and last_ply != info["ply"]:
            await self.send_json({"type": "resync", "game": game_id, "ply": info["ply"]})

    async def _unsubscribe(self, content: dict[str, Any]) -> None:
        game_id = content.get("game")
        if isinstance(game_id, str) and game_id in self.games:
            self.games.discard(game_id)
            await self.channel_layer.group_discard(game_group(game_id), self.channel_name)
            await database_sync_to_async(notifications.presence_drop)(
                user_id=self.user.pk, channel=self.channel_name, games=[game_id]
            )
        await self.send_json({"type": "unsubscribed", "game": game_id})

    async def _error(self, code: str, message: str, **extra: Any) -> None:
        await self.send_json({"type": "error", "code": code, "message": message, **extra})

    # ---------------------------------------------------------------- presence

    async def _touch(self) -> None:
        await database_sync_to_async(notifications.presence_touch)(
            user_id=self.user.pk, channel=self.channel_name, games=sorted(self.games)
        )

    async def _refresh_presence(self) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            while True:
                await asyncio.sleep(PRESENCE_REFRESH_S)
                await self._touch()

    # ---------------------------------------------------------------- channel layer events

    async def game_event(self, message: dict[str, Any]) -> None:
        """A public event of a game this connection subscribed to."""
        if message["game"] in self.games:
            await self.send_json(
                {**message["event"], "game": message["game"], "ply": message["ply"]}
            )

    async def user_event(self, message: dict[str, Any]) -> None:
        """A private event for this user (their own hand): only their connections get it."""
        await self.send_json({**message["event"], "game": message["game"], "ply": message["ply"]})
