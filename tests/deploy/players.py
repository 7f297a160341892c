"""Two people playing through the proxy, each from an address of their own: the moves
come from examples/bot.py's player (REST), the events from a websocket that reconnects
when its node dies and subscribes again with the last ply it saw, as docs/websocket.md
tells clients to."""

from __future__ import annotations

import asyncio
import contextlib
import json
import ssl
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from examples import bot as example_bot

PASSWORD = "correct-horse-battery-staple"
# What a proxy answers while a node it chose is dying: read again.
PASSING_FAULTS = (httpx.HTTPError, ValueError, RuntimeError)


def http_client(url: str, address: str, context: ssl.SSLContext, **options: Any) -> httpx.Client:
    transport = httpx.HTTPTransport(local_address=address, verify=context)
    return httpx.Client(base_url=url, transport=transport, timeout=15, **options)


def sign_up(url: str, address: str, context: ssl.SSLContext, username: str) -> str:
    """A new account; its API token."""
    with http_client(url, address, context) as client:
        body = {"username": username, "password": PASSWORD}
        signed_up = client.post("/api/v1/auth/signup", json=body)
        assert signed_up.status_code == 201, signed_up.text
        login = client.post("/api/v1/auth/login", json={**body, "token_name": "deploy"})
        assert login.status_code == 200, login.text
    return str(login.json()["token"]["token"])


@dataclass
class Player:
    username: str
    address: str
    url: str
    context: ssl.SSLContext
    token: str = ""
    frames: list[dict[str, Any]] = field(default_factory=list)
    connections: int = 0
    # Plies whose move this player learnt of: from a `move` frame, or read over REST
    # after a `resync` (the moves it missed while it had no connection) or after a gap in
    # the plies (an event its node never sent: the node died between commit and send).
    seen_in_frames: list[int] = field(default_factory=list)
    read_after_resync: list[int] = field(default_factory=list)
    read_after_gap: list[int] = field(default_factory=list)
    last_ply: int = 0
    game_over_seen: bool = False
    _socket: ClientConnection | None = None
    _changed: asyncio.Event = field(default_factory=asyncio.Event)

    def __post_init__(self) -> None:
        self.token = sign_up(self.url, self.address, self.context, self.username)

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def api(self) -> httpx.AsyncClient:
        transport = httpx.AsyncHTTPTransport(local_address=self.address, verify=self.context)
        return httpx.AsyncClient(
            base_url=self.url, transport=transport, headers=self.headers, timeout=15
        )

    # ------------------------------------------------------------ events

    async def follow(self, game_id: str) -> None:
        """The game's events until it is over, reconnecting whenever the socket drops."""
        ws_url = self.url.replace("https://", "wss://") + "/ws/v1/"
        headers = {**self.headers, "Origin": self.url}
        while not self.game_over_seen:
            with contextlib.suppress(ConnectionClosed, OSError, InvalidStatus, TimeoutError):
                async with connect(
                    ws_url,
                    ssl=self.context,
                    local_addr=(self.address, 0),
                    additional_headers=headers,
                    open_timeout=10,
                ) as socket:
                    self._socket = socket
                    self.connections += 1
                    await self._listen(socket, game_id)
            self._socket = None
            if not self.game_over_seen:
                await asyncio.sleep(0.2)  # a client's reconnection backoff

    async def _listen(self, socket: ClientConnection, game_id: str) -> None:
        hello = json.loads(await socket.recv())
        assert hello["type"] == "hello", hello
        await socket.send(json.dumps({"type": "subscribe", "game": game_id, "ply": self.last_ply}))
        async for raw in socket:
            frame = json.loads(raw)
            self.frames.append({**frame, "connection": self.connections})
            if frame.get("game") != game_id:
                continue
            if frame["type"] == "move":
                if frame["ply"] > self.last_ply + 1:
                    await self._read_missed(game_id, into=self.read_after_gap)
                self.seen_in_frames.append(frame["ply"])
                self.last_ply = max(self.last_ply, frame["ply"])
            elif frame["type"] == "resync":
                await self._read_missed(game_id, into=self.read_after_resync)
            elif frame["type"] == "game_over":
                self.game_over_seen = True
            self._changed.set()
            if self.game_over_seen:
                return

    async def _read_missed(self, game_id: str, *, into: list[int]) -> None:
        async with self.api() as api:
            path = f"/api/v1/games/{game_id}/moves?after={self.last_ply}&page_size=100"
            while path:
                page = (await api.get(path)).json()
                for move in page["results"]:
                    into.append(move["ply"])
                    self.last_ply = max(self.last_ply, move["ply"])
                path = page["next"]

    async def drop_connection(self) -> None:
        """Close the socket (the follower connects again)."""
        if self._socket is not None:
            await self._socket.close()

    # ------------------------------------------------------------ moves

    async def play(self, game_id: str) -> None:
        """Play each of this player's turns until the game is over."""
        bot = example_bot.Bot(server=self.url, token=self.token)
        bot.say = lambda text: None
        async with self.api() as api:
            bot._api = api
            while True:
                with contextlib.suppress(*PASSING_FAULTS):
                    game = await bot.get(f"/api/v1/games/{game_id}")
                    if game["status"] != "active":
                        return
                    if game["to_move"] == game["you"]:
                        await bot.play_turn(game_id)
                        continue
                # Someone else's turn: wake at the next event, or look again in a while.
                self._changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), timeout=2)
