"""The soak's players: paced 2-player matches, games against a built-in bot and live
games whose second player never moves; every move carries an ``Idempotency-Key`` and is
retried with it, and every accepted move is logged for the checks.
"""

from __future__ import annotations

import asyncio
import errno
import json
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from bench.loadgen.players import choose
from bench.soaking.limits import (
    BOT_POLL_S,
    PACE_BURST_S,
    RETRY_FOR_S,
    RETRY_STATUSES,
    SLEEPER_ABSENT_WAIT_S,
    SLEEPER_POLL_S,
    SLEEPER_SECONDS_PER_TURN,
    WS_PING_EVERY_S,
)


@dataclass
class Tally:
    """Counts of one phase (the ramp, then the soak)."""

    accepted: int = 0
    replayed: int = 0  # retries answered with the first result (Idempotent-Replayed)
    given_up: int = 0  # moves retried for RETRY_FOR_S without an answer
    move_errors: Counter[int] = field(default_factory=Counter)
    other_errors: Counter[int] = field(default_factory=Counter)
    transport: Counter[str] = field(default_factory=Counter)
    ws_reconnects: int = 0
    crashes: Counter[str] = field(default_factory=Counter)
    latency: list[float] = field(default_factory=list)
    games: Counter[str] = field(default_factory=Counter)
    finished: Counter[str] = field(default_factory=Counter)


@dataclass
class MoveLog:
    """What the clients saw of their moves, for the check against the database."""

    # (game, user id, idempotency key, ply logged) of every move answered 200.
    accepted: list[tuple[str, int, str, int]] = field(default_factory=list)
    per_player: Counter[tuple[str, int]] = field(default_factory=Counter)
    # (game, user id, key) sent but never answered: logged or not, both are right.
    unconfirmed: set[tuple[str, int, str]] = field(default_factory=set)


@dataclass(frozen=True)
class Player:
    token: str
    user_id: int


class Pace:
    """One schedule of move slots shared by every player: ``rate`` moves/s in all
    (none: as fast as they go)."""

    def __init__(self) -> None:
        self.rate: float | None = None
        self.next_slot = 0.0

    def set_rate(self, rate: float) -> None:
        self.rate = rate
        self.next_slot = time.monotonic()

    async def wait(self) -> None:
        if self.rate is None:
            return
        now = time.monotonic()
        slot = max(self.next_slot, now - PACE_BURST_S)
        self.next_slot = slot + 1 / self.rate
        if slot > now:
            await asyncio.sleep(slot - now)


def transport_kind(error: BaseException) -> str:
    if isinstance(error, TimeoutError):
        return "timeout"
    if isinstance(error, aiohttp.ServerDisconnectedError):
        return "server disconnected"
    if isinstance(error, aiohttp.ClientConnectorError):
        if error.os_error.errno == errno.ECONNREFUSED:
            return "connection refused"
        return f"connect failed ({error.os_error.strerror})"
    if isinstance(error, aiohttp.ClientOSError) and error.errno == errno.ECONNRESET:
        return "connection reset"
    if isinstance(error, aiohttp.ClientResponseError):
        return f"{type(error).__name__} {error.status}"
    return type(error).__name__


async def pause(stop: asyncio.Event, seconds: float) -> bool:
    """Sleep ``seconds`` or until ``stop`` is set; whether it is set."""
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except TimeoutError:
        return False
    return True


class Players:
    """The players' side: requests with retries, idempotent moves, the pace."""

    def __init__(self, session: aiohttp.ClientSession, origin: str, pace: Pace) -> None:
        self.session = session
        self.origin = origin  # the site's URL
        self.pace = pace
        self.stop = asyncio.Event()
        self.tally = Tally()
        self.moves = MoveLog()

    async def send(
        self, method: str, path: str, headers: dict[str, str], body: Any
    ) -> tuple[int, Any, str | None]:
        """One attempt: (status, JSON body or {}, Retry-After). An error page that is not
        JSON is still an answer with a status."""
        async with self.session.request(method, path, json=body, headers=headers) as response:
            raw = await response.read()
            try:
                data = json.loads(raw) if raw else {}
            except ValueError:
                data = {}
            return response.status, data, response.headers.get("Retry-After")

    async def call(
        self,
        method: str,
        path: str,
        player: Player,
        body: Any = None,
        *,
        key: str | None = None,
    ) -> tuple[int, Any] | None:
        """The request, retried (with the same idempotency key) after a transport error,
        a 5xx or a 429 for up to ``RETRY_FOR_S``; None when it never got an answer.
        Every error answer and transport error is counted."""
        headers = {"Authorization": f"Bearer {player.token}"}
        if key is not None:
            headers["Idempotency-Key"] = key
        errors = self.tally.move_errors if key is not None else self.tally.other_errors
        give_up_at = time.monotonic() + RETRY_FOR_S
        delay = 0.1
        while True:
            try:
                status, data, retry_after = await self.send(method, path, headers, body)
            except (aiohttp.ClientError, TimeoutError) as error:
                self.tally.transport[transport_kind(error)] += 1
            else:
                if status >= 400:
                    errors[status] += 1
                if status not in RETRY_STATUSES:
                    return status, data
                if status == 429 and retry_after and retry_after.isdigit():
                    delay = min(max(float(retry_after), delay), 5.0)
            if time.monotonic() + delay > give_up_at:
                return None
            await asyncio.sleep(delay)
            delay = min(delay * 2, 2.0)

    async def view(self, game: str, player: Player) -> dict[str, Any] | None:
        answer = await self.call("GET", f"/api/v1/games/{game}", player)
        if answer is None or answer[0] != 200:
            return None
        view: dict[str, Any] = answer[1]
        return view

    async def move(
        self, game: str, player: Player, action: dict[str, Any], ply: int
    ) -> dict[str, Any] | None:
        """Play ``action`` at ``ply``, paced; the mover's view after it when accepted,
        None when refused or given up (the caller re-reads the game)."""
        await self.pace.wait()
        key = secrets.token_hex(12)
        sent = (game, player.user_id, key)
        # Until answered, the move may or may not be logged (also if this is cancelled).
        self.moves.unconfirmed.add(sent)
        began = time.perf_counter()
        answer = await self.call(
            "POST", f"/api/v1/games/{game}/actions", player, {"action": action, "ply": ply}, key=key
        )
        if answer is None:
            self.tally.given_up += 1
            return None
        self.moves.unconfirmed.discard(sent)
        status, body = answer
        if status != 200:
            return None
        self.tally.accepted += 1
        self.tally.replayed += bool(body.get("replayed"))
        self.tally.latency.append(time.perf_counter() - began)
        self.moves.accepted.append((game, player.user_id, key, body["move"]["ply"]))
        self.moves.per_player[(game, player.user_id)] += 1
        view: dict[str, Any] = body["game"]
        return view

    async def new_match(
        self, host: Player, guest: Player, options: dict[str, Any]
    ) -> tuple[str, dict[str, Any]] | None:
        """A 2-player game created by ``host``, joined by ``guest`` and started: (id, the
        host's view), or None when a step failed (the game is left as it is)."""
        created = await self.call("POST", "/api/v1/games", host, options)
        if created is None or created[0] != 201:
            return None
        game: str = created[1]["id"]
        joined = await self.call("POST", f"/api/v1/games/{game}/join", guest, {})
        if joined is None or joined[0] != 200:
            return None
        started = await self.call("POST", f"/api/v1/games/{game}/start", host)
        if started is not None and started[0] == 200:
            return game, started[1]
        # A retried start whose first answer was lost finds the game started.
        view = await self.view(game, host)
        if view is None or view["status"] != "active":
            return None
        return game, view

    async def stay_connected(self, player: Player, game: str) -> None:
        """Hold a websocket open for ``player``, subscribed to ``game`` and pinging, so
        that the server counts them present; reconnect when it drops. With the site's
        own Origin, as a browser sends it: the server refuses a handshake without one."""
        headers = {"Authorization": f"Bearer {player.token}"}
        delay = 0.5
        while not self.stop.is_set():
            try:
                async with self.session.ws_connect(
                    "/ws/v1/", headers=headers, origin=self.origin
                ) as ws:
                    await ws.send_json({"type": "subscribe", "game": game, "ply": None})
                    delay = 0.5
                    await self._listen(ws)
            except (aiohttp.ClientError, TimeoutError) as error:
                self.tally.transport[f"websocket: {transport_kind(error)}"] += 1
            if await pause(self.stop, delay):
                return
            self.tally.ws_reconnects += 1
            delay = min(delay * 2, 5.0)

    async def _listen(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        """Read (and ignore) events, ping every ``WS_PING_EVERY_S``, until it closes."""
        ping_at = time.monotonic() + WS_PING_EVERY_S
        while True:
            try:
                message = await ws.receive(timeout=max(0.1, ping_at - time.monotonic()))
            except TimeoutError:
                message = None
            if message is not None and message.type in (
                aiohttp.WSMsgType.CLOSE,
                aiohttp.WSMsgType.CLOSED,
                aiohttp.WSMsgType.CLOSING,
                aiohttp.WSMsgType.ERROR,
            ):
                return
            if time.monotonic() >= ping_at:
                await ws.send_json({"type": "ping"})
                ping_at = time.monotonic() + WS_PING_EVERY_S


async def play_match(
    players: Players, seats: dict[int, Player], game: str, view: dict[str, Any]
) -> None:
    """Two players through one match, as bench/api.py plays it: a player told it is
    their turn to draw just draws (the answer holds their whole view); only a player
    who must act without a fresh view of their own reads the state first. A refused
    or given-up move re-reads the game."""
    views: dict[int, dict[str, Any]] = {view["you"]: view}
    while not players.stop.is_set() and view["status"] == "active":
        mover = view["to_move"]
        action: dict[str, Any] = {}
        current = views.get(mover)
        if mover is None:
            current = None
        elif current is not None and current["ply"] == view["ply"]:
            action = choose(current)
        elif view["deal"]["phase"] == "draw":
            action, current = {"type": "draw"}, view
        else:
            current = await players.view(game, seats[mover])
            if current is not None and current["to_move"] == mover:
                action = choose(current)
            else:
                current = None
        answer = None
        if current is not None and mover is not None:
            answer = await players.move(game, seats[mover], action, current["ply"])
        if answer is None:
            views.clear()
            fresh = await players.view(game, seats[0])
            if fresh is None:
                return
            if mover is None and await pause(players.stop, 0.5):
                return
            view = views[0] = fresh
            continue
        view = views[mover] = answer
    if view["status"] == "finished":
        players.tally.finished["matches"] += 1


async def play_alone(
    players: Players, kind: str, game: str, player: Player, view: dict[str, Any], poll_s: float
) -> None:
    """``player``'s turns of a game whose other seat the server moves (a bot, or the
    timeouts of a sleeper): move when it is their turn, else read the game every
    ``poll_s`` until it is."""
    while not players.stop.is_set() and view["status"] == "active":
        answer = None
        if view["to_move"] == view["you"]:
            answer = await players.move(game, player, choose(view), view["ply"])
        elif await pause(players.stop, poll_s):
            return
        fresh = answer or await players.view(game, player)
        if fresh is None:
            return
        view = fresh
    if view["status"] == "finished":
        players.tally.finished[kind] += 1


async def one_match(players: Players, host: Player, guest: Player) -> None:
    started = await players.new_match(host, guest, {"preset": "serbian", "players": 2})
    if started is None:
        await pause(players.stop, 1.0)
        return
    game, view = started
    players.tally.games["matches"] += 1
    seats = {view["you"]: host, 1 - view["you"]: guest}
    await play_match(players, seats, game, view)


async def one_bot_game(players: Players, human: Player, level: int) -> None:
    options = {"preset": "serbian", "bots": 1, "level": level, "time_control": "correspondence"}
    created = await players.call("POST", "/api/v1/games/play-now", human, options)
    if created is None or created[0] != 201:
        await pause(players.stop, 1.0)
        return
    view = created[1]
    players.tally.games["bot games"] += 1
    await play_alone(players, "bot games", view["id"], human, view, BOT_POLL_S)


async def one_sleeper_game(
    players: Players, host: Player, sleeper: Player, connected: bool
) -> None:
    """A live game whose ``sleeper`` never moves: connected, its turns time out (the
    server plays them, then puts the seat out); away, the absent-player rule applies."""
    options = {
        "preset": "serbian",
        "players": 2,
        "time_control": "live",
        "seconds_per_turn": SLEEPER_SECONDS_PER_TURN,
        "absent_wait_s": SLEEPER_ABSENT_WAIT_S,
    }
    started = await players.new_match(host, sleeper, options)
    if started is None:
        await pause(players.stop, 1.0)
        return
    game, view = started
    kind = "sleepers connected" if connected else "sleepers away"
    players.tally.games[kind] += 1
    presence = asyncio.create_task(players.stay_connected(sleeper, game)) if connected else None
    try:
        await play_alone(players, kind, game, host, view, SLEEPER_POLL_S)
    finally:
        if presence is not None:
            presence.cancel()
            await asyncio.gather(presence, return_exceptions=True)


async def keep_playing(players: Players, one_game: Callable[[], Awaitable[None]]) -> None:
    """Games one after another until the stop."""
    while not players.stop.is_set():
        try:
            await one_game()
        except Exception as error:  # a bug here must not end the load silently: counted
            players.tally.crashes[repr(error)[:160]] += 1
            await pause(players.stop, 1.0)
