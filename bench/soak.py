"""Soak test of the production stack: minutes of paced load with the worker killed and
Redis restarted, checked for lost and doubled moves, missed deadlines and stalled bots.

    .venv/bin/python bench/soak.py [--minutes 10] [--fraction 0.8] [--kill-every 120]
        [--redis-restart-at SECONDS] [--ramp-seconds 40] [--web-workers 2] [--games 16]
        [--bot-games 4] [--sleeper-games 4] [--late-after 15] [--bot-stall 10] [--keep-db]

What it does, all on 127.0.0.1, every process started and stopped by this script (their
logs go to a temporary folder that it prints):

1. starts a Redis server of its own on a free port (nothing persisted), creates a
   scratch PostgreSQL database (dropped at the end), migrates it and creates the
   built-in bots (``manage.py ensure_bots``);
2. starts docs/deploy.md's process model in production mode (as ``bench/api.py`` does): the web
   server (``python -m remi_site.serve --workers``), one Celery worker and the beat;
3. measures, for ``--ramp-seconds``: ``--games`` 2-player matches played as fast as
   they go, as in ``bench/api.py``; their accepted moves/s is this run's maximum;
4. soaks, for ``--minutes``, at ``--fraction`` of that rate (one pace shared by every
   player): the same matches, plus ``--bot-games`` correspondence games against a
   built-in bot (level 1 or 2; the worker plays the bot's turns), plus
   ``--sleeper-games`` live games at the API's shortest turn (10 s) whose second
   player never moves, so that the deadline sweep must act: half of those players
   stay connected by websocket (the server plays their turns, then puts them out),
   half are away (the absent-player rule, with the shortest wait). A progress line
   every 30 s;
5. injects faults during the soak: every ``--kill-every`` seconds the worker's process
   group is killed (SIGKILL) and a new worker started at once; once, at
   ``--redis-restart-at`` (default: half-way), Redis is killed and started again on the
   same port, empty (the queue, the cache, the throttles and the channel layer are
   lost). After each fault it times how long ``/healthz`` took to be healthy again;
6. prints one table: moves accepted and the rate achieved against the target, error
   responses by status, transport errors by kind, and the checks, each of which must
   be 0: moves lost (answered 200 but not in the move log), moves doubled (a key
   logged twice, or more moves logged for a player in a game than it had accepted),
   deadlines missed (an active game's deadline passed more than ``--late-after`` s
   ago, sampled every second) and bot turns stalled (a bot to move for more than
   ``BOT_STALL_S`` + ``--late-after`` s, sampled every second), and web workers whose
   memory is still growing (sampled every second: a peak in the soak's second half
   more than 1.5 times the first half's).

Every move carries an ``Idempotency-Key`` and is retried with the same key after a
transport error, a 5xx or a 429, so a retry can never play a move twice. Exit status 0
when every check is 0 and no request was answered 500, else 1.

Bounded: at most 60 minutes of soak; every wait, retry and shutdown has a limit.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import json
import os
import re
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import psycopg
import redis
import uvloop

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.api import (  # noqa: E402
    choose,
    django_setup,
    make_players,
    memory_summary,
    percentile,
    sample_memory,
)
from bench.kit.stack import (  # noqa: E402
    REDIS_DB,
    Stack,
    add_redis_options,
    add_web_options,
    free_port,
)

PROGRESS_EVERY_S = 30.0
# A web worker's memory grows while it loads and fills its caches, then holds: a peak in
# the second half of the soak half again as high as in the first is a leak.
MEMORY_GROWTH = 1.5
# The pace lets players catch up at most this much of a stall at once, so that the
# offered rate never exceeds the target for long.
PACE_BURST_S = 1.0
# A move (or any request) is retried for this long before it is given up.
RETRY_FOR_S = 60.0
REQUEST_TIMEOUT_S = 30.0
# The API's shortest live turn and absent-player wait (games.play.create).
SLEEPER_SECONDS_PER_TURN = 10
SLEEPER_ABSENT_WAIT_S = 10
WS_PING_EVERY_S = 20.0
BOT_POLL_S = 0.5
SLEEPER_POLL_S = 1.0
SAMPLE_EVERY_S = 1.0
HEALTH_POLL_S = 0.25
HEALTH_WAIT_S = 180.0
STARTUP_WAIT_S = 120.0
STOP_WAIT_S = 15.0
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})


# ------------------------------------------------------------------ processes


class Service:
    """A process of the stack in a process group of its own (so that killing it kills
    its children too), its output appended to ``log``."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], log: Path) -> None:
        self.name = name
        self.argv = argv
        self.env = env
        self.log = log
        self.popen: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.popen = subprocess.Popen(
                self.argv,
                cwd=ROOT,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def exit_code(self) -> int | None:
        """None while running (or never started)."""
        return None if self.popen is None else self.popen.poll()

    def kill(self) -> None:
        """SIGKILL the whole process group, as a crash or an OOM kill would."""
        if self.popen is None:
            return
        self._signal(signal.SIGKILL)
        self.popen.wait(STOP_WAIT_S)

    def stop(self) -> None:
        """SIGTERM the group, then SIGKILL whatever is left after ``STOP_WAIT_S``."""
        if self.popen is None:
            return
        self._signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(STOP_WAIT_S)
        # Children of a leader that already exited (a Celery pool) may remain.
        self._signal(signal.SIGKILL)
        try:
            self.popen.wait(STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            print(f"{self.name} (pid {self.popen.pid}) did not exit", file=sys.stderr)

    def _signal(self, signum: int) -> None:
        assert self.popen is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signum)


class RedisServer(Service):
    def __init__(self, folder: Path, port: int = 0, db: int = REDIS_DB) -> None:
        self.port = port or free_port()
        super().__init__(
            "redis",
            [
                "redis-server",
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(folder),
            ],
            dict(os.environ),
            folder / "redis.log",
        )
        self.url = f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        super().start()
        self.wait_ready()

    def wait_ready(self) -> None:
        client = redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=1)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                if client.ping():
                    return
            except redis.RedisError:
                pass
            if self.exit_code() is not None:
                raise RuntimeError(f"redis-server exited; see {self.log}")
            time.sleep(0.1)
        raise RuntimeError(f"redis-server did not answer; see {self.log}")


def celery_worker(env: dict[str, str], logs: Path) -> Service:
    argv = [sys.executable, "-m", "celery", "-A", "remi_site", "worker", "--concurrency", "2"]
    argv += ["--without-mingle", "--without-gossip", "--loglevel", "WARNING"]
    return Service("worker", argv, env, logs / "worker.log")


def celery_beat(env: dict[str, str], logs: Path) -> Service:
    argv = [sys.executable, "-m", "celery", "-A", "remi_site", "beat", "--loglevel", "WARNING"]
    return Service("beat", argv, env, logs / "beat.log")


@dataclass
class Processes:
    """The stack's processes that faults are injected into, and beat."""

    redis: RedisServer
    env: dict[str, str]
    logs: Path
    worker: Service | None = None
    beat: Service | None = None
    worker_restarts: int = 0
    redis_restarts: int = 0
    restarting: str | None = None  # the service being killed and started again

    def services(self) -> list[tuple[str, Service | None]]:
        return [("worker", self.worker), ("beat", self.beat), ("redis", self.redis)]

    def start_background(self) -> None:
        self.worker = celery_worker(self.env, self.logs)
        self.worker.start()
        self.beat = celery_beat(self.env, self.logs)
        self.beat.start()

    def restart_worker(self) -> None:
        assert self.worker is not None
        self.restarting = "worker"
        try:
            self.worker.kill()
            self.worker = celery_worker(self.env, self.logs)
            self.worker.start()
        finally:
            self.restarting = None
        self.worker_restarts += 1

    def restart_redis(self) -> None:
        self.restarting = "redis"
        try:
            self.redis.kill()
            self.redis.start()
        finally:
            self.restarting = None
        self.redis_restarts += 1

    def stop_background(self) -> None:
        for service in (self.worker, self.beat):
            if service is not None:
                service.stop()


def ensure_bots(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "ensure_bots", "-v", "0"], cwd=ROOT, env=env, check=True
    )


def wait_healthy(url: str) -> None:
    """Until /healthz answers 200 (the worker and beat have reported), bounded."""
    import httpx

    deadline = time.monotonic() + STARTUP_WAIT_S
    body: Any = None
    while time.monotonic() < deadline:
        try:
            response = httpx.get(f"{url}/healthz", timeout=5)
            body = response.json()
            if response.status_code == 200:
                return
        except (httpx.HTTPError, ValueError) as error:
            body = repr(error)
        time.sleep(0.5)
    raise RuntimeError(f"/healthz did not answer 200 in {STARTUP_WAIT_S:.0f} s: {body}")


def user_ids(count: int) -> list[int]:
    """The ids of make_players' users bench0 .. bench{count-1}, in that order."""
    from django.contrib.auth import get_user_model

    names = [f"bench{index}" for index in range(count)]
    ids = dict(get_user_model().objects.filter(username__in=names).values_list("username", "id"))
    return [ids[name] for name in names]


# ------------------------------------------------------------------ what the players saw


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


# ------------------------------------------------------------------ the games


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


# ------------------------------------------------------------------ watching the server


@dataclass
class Watch:
    """Deadlines and bot turns as sampled from the database every second."""

    late_after: float
    stall_after: float
    samples: int = 0
    sample_errors: int = 0
    worst_overdue: float = 0.0  # the most overdue deadline seen, late or not
    worst_bot_wait: float = 0.0
    late: dict[tuple[int, int], float] = field(default_factory=dict)  # (game, ply): worst
    stalled: dict[tuple[int, int], float] = field(default_factory=dict)


OVERDUE_SQL = """
    SELECT id, ply, EXTRACT(EPOCH FROM clock_timestamp() - deadline_at)::float8
    FROM games_game
    WHERE status = 'active' AND deadline_at IS NOT NULL AND deadline_at < clock_timestamp()
"""
BOT_WAITING_SQL = """
    SELECT id, ply, EXTRACT(EPOCH FROM clock_timestamp() - updated_at)::float8
    FROM games_game
    WHERE status = 'active' AND bot_to_move
"""


async def watch_server(db_url: str, watch: Watch, stop: asyncio.Event) -> None:
    """Sample overdue deadlines and waiting bot turns every ``SAMPLE_EVERY_S``."""
    conn: psycopg.AsyncConnection[Any] | None = None
    try:
        while not stop.is_set():
            try:
                if conn is None or conn.closed:
                    conn = await psycopg.AsyncConnection.connect(db_url, autocommit=True)
                overdue = await (await conn.execute(OVERDUE_SQL)).fetchall()
                waiting = await (await conn.execute(BOT_WAITING_SQL)).fetchall()
            except psycopg.Error:
                watch.sample_errors += 1
                conn = None
            else:
                watch.samples += 1
                record_sample(watch, overdue, waiting)
            await pause(stop, SAMPLE_EVERY_S)
    finally:
        if conn is not None:
            await conn.close()


def record_sample(
    watch: Watch, overdue: list[tuple[int, int, float]], waiting: list[tuple[int, int, float]]
) -> None:
    for game, ply, seconds in overdue:
        watch.worst_overdue = max(watch.worst_overdue, seconds)
        if seconds > watch.late_after:
            watch.late[(game, ply)] = max(watch.late.get((game, ply), 0.0), seconds)
    for game, ply, seconds in waiting:
        watch.worst_bot_wait = max(watch.worst_bot_wait, seconds)
        if seconds > watch.stall_after:
            watch.stalled[(game, ply)] = max(watch.stalled.get((game, ply), 0.0), seconds)


@dataclass
class Fault:
    kind: str  # "worker" or "redis"
    at: float  # seconds into the soak
    took: float = 0.0  # seconds to kill and start again
    healthy_after: float | None = None  # /healthz 200 again (worker: the new one reported)
    failing: set[str] = field(default_factory=set)  # what /healthz said meanwhile


async def health(session: aiohttp.ClientSession) -> tuple[int, dict[str, Any]]:
    """/healthz's (status, body); status 0 when it did not answer."""
    try:
        async with session.get("/healthz") as response:
            body = await response.json(content_type=None)
            return response.status, body if isinstance(body, dict) else {}
    except (aiohttp.ClientError, TimeoutError, ValueError) as error:
        return 0, {"reasons": [f"no answer: {transport_kind(error)}"]}


async def time_recovery(session: aiohttp.ClientSession, fault: Fault, began: float) -> None:
    """How long after the fault /healthz answered 200 again; after a worker kill, also
    with a heartbeat of the new worker (the old one's stays fresh for a while)."""
    while time.monotonic() - began < HEALTH_WAIT_S:
        status, body = await health(session)
        since = time.monotonic() - began
        if status != 200:
            fault.failing.update(str(reason) for reason in body.get("reasons") or [status])
        else:
            age = body.get("worker_heartbeat_age")
            if fault.kind != "worker" or (age is not None and age < since):
                fault.healthy_after = since
                return
        await asyncio.sleep(HEALTH_POLL_S)


def fault_plan(soak_s: float, kill_every: float, redis_at: float) -> list[tuple[float, str]]:
    plan = []
    if kill_every > 0:
        at = kill_every
        while at < soak_s:
            plan.append((at, "worker"))
            at += kill_every
    if redis_at > 0:
        plan.append((redis_at, "redis"))
    return sorted(plan)


async def inject_faults(
    processes: Processes,
    session: aiohttp.ClientSession,
    plan: list[tuple[float, str]],
    soak_began: float,
    faults: list[Fault],
    stop: asyncio.Event,
) -> None:
    recoveries = []
    try:
        for at, kind in plan:
            if await pause(stop, soak_began + at - time.monotonic()):
                break
            fault = Fault(kind, time.monotonic() - soak_began)
            began = time.monotonic()
            restart = processes.restart_worker if kind == "worker" else processes.restart_redis
            try:
                await asyncio.to_thread(restart)
            except (OSError, RuntimeError, subprocess.SubprocessError) as error:
                fault.failing.add(f"restart failed: {error!r}")
            fault.took = time.monotonic() - began
            faults.append(fault)
            recoveries.append(asyncio.create_task(time_recovery(session, fault, began)))
        if recoveries:
            await asyncio.wait(recoveries, timeout=HEALTH_WAIT_S)
    finally:
        for task in recoveries:
            task.cancel()
        await asyncio.gather(*recoveries, return_exceptions=True)


def exited(stack: Stack, processes: Processes) -> list[tuple[str, int, int]]:
    """(name, pid, exit code) of the processes that exited without being told to."""
    found = []
    if stack.server is not None and stack.server.poll() is not None:
        found.append(("web", stack.server.pid, stack.server.returncode))
    for name, service in processes.services():
        if service is None or service.popen is None or name == processes.restarting:
            continue
        code = service.exit_code()
        if code is not None:
            found.append((name, service.popen.pid, code))
    return found


async def watch_processes(
    stack: Stack, processes: Processes, began: float, exits: list[str], stop: asyncio.Event
) -> None:
    """Note, every second, any process of the stack that has exited on its own (a
    worker that dies is not replaced before its next scheduled kill: the gap shows)."""
    seen: set[tuple[str, int]] = set()
    while not await pause(stop, 1.0):
        for name, pid, code in exited(stack, processes):
            if (name, pid) not in seen:
                seen.add((name, pid))
                exits.append(
                    f"{name} (pid {pid}) exited with {code} at {time.monotonic() - began:.0f} s"
                )


# ------------------------------------------------------------------ the run


@dataclass
class Outcome:
    max_rate: float = 0.0
    target: float = 0.0
    ramp: Tally = field(default_factory=Tally)
    soak: Tally = field(default_factory=Tally)
    soak_seconds: float = 0.0
    moves: MoveLog = field(default_factory=MoveLog)
    watch: Watch | None = None
    faults: list[Fault] = field(default_factory=list)
    exits: list[str] = field(default_factory=list)
    # Each web worker's resident memory (MB), every second of the soak.
    memory: dict[int, list[float]] = field(default_factory=dict)

    def memory_grown(self) -> list[int]:
        """The web workers whose memory at its peak in the soak's second half was more
        than ``MEMORY_GROWTH`` times its peak in the first half: still growing."""
        grown = []
        for pid, samples in self.memory.items():
            half = len(samples) // 2
            if half and max(samples[half:]) > MEMORY_GROWTH * max(samples[:half]):
                grown.append(pid)
        return grown


@dataclass
class Cast:
    """Who plays what."""

    pairs: list[tuple[Player, Player]]
    bot_humans: list[Player]
    sleeper_pairs: list[tuple[Player, Player]]

    @classmethod
    def of(cls, people: list[Player], games: int, bot_games: int, sleepers: int) -> Cast:
        pairs = [(people[2 * i], people[2 * i + 1]) for i in range(games)]
        rest = people[2 * games :]
        bot_humans, rest = rest[:bot_games], rest[bot_games:]
        sleeper_pairs = [(rest[2 * i], rest[2 * i + 1]) for i in range(sleepers)]
        return cls(pairs, bot_humans, sleeper_pairs)

    @staticmethod
    def size(games: int, bot_games: int, sleepers: int) -> int:
        return 2 * games + bot_games + 2 * sleepers


async def soak(
    args: argparse.Namespace, stack: Stack, processes: Processes, cast: Cast, db_url: str
) -> Outcome:
    outcome = Outcome()
    pace = Pace()
    connections = len(cast.pairs) + len(cast.bot_humans) + 2 * len(cast.sleeper_pairs) + 8
    connector = aiohttp.TCPConnector(limit=connections)
    timeout = aiohttp.ClientTimeout(total=REQUEST_TIMEOUT_S)
    probe_timeout = aiohttp.ClientTimeout(total=5)
    async with (
        aiohttp.ClientSession(stack.url, connector=connector, timeout=timeout) as session,
        aiohttp.ClientSession(stack.url, timeout=probe_timeout) as probe,
    ):
        players = Players(session, stack.url, pace)
        tasks = [
            asyncio.create_task(keep_playing(players, lambda h=h, g=g: one_match(players, h, g)))
            for h, g in cast.pairs
        ]
        try:
            outcome.max_rate = await measure(players, args.ramp_seconds)
            outcome.ramp, players.tally = players.tally, Tally()
            outcome.target = args.fraction * outcome.max_rate
            pace.set_rate(outcome.target)
            print_ramp(outcome)
            tasks += start_server_moved_games(players, cast)
            await run_soak(args, stack, processes, players, probe, db_url, outcome)
        finally:
            players.stop.set()
            done, pending = await asyncio.wait(tasks, timeout=RETRY_FOR_S + 10)
            for task in pending:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        outcome.soak = players.tally
        outcome.moves = players.moves
    return outcome


async def measure(players: Players, seconds: float) -> float:
    """Accepted moves/s after a short warm-up, players unpaced (as bench/api.py)."""
    warmup = min(5.0, seconds / 4)
    await asyncio.sleep(warmup)
    first, began = players.tally.accepted, time.perf_counter()
    await asyncio.sleep(seconds - warmup)
    return (players.tally.accepted - first) / (time.perf_counter() - began)


def start_server_moved_games(players: Players, cast: Cast) -> list[asyncio.Task[None]]:
    tasks = [
        asyncio.create_task(
            keep_playing(players, lambda h=human, lv=1 + i % 2: one_bot_game(players, h, lv))
        )
        for i, human in enumerate(cast.bot_humans)
    ]
    tasks += [
        asyncio.create_task(
            keep_playing(
                players,
                lambda h=host, s=sleeper, c=i % 2 == 0: one_sleeper_game(players, h, s, c),
            )
        )
        for i, (host, sleeper) in enumerate(cast.sleeper_pairs)
    ]
    return tasks


async def run_soak(
    args: argparse.Namespace,
    stack: Stack,
    processes: Processes,
    players: Players,
    probe: aiohttp.ClientSession,
    db_url: str,
    outcome: Outcome,
) -> None:
    soak_s = args.minutes * 60
    watch = outcome.watch = Watch(args.late_after, args.bot_stall + args.late_after)
    stop_watching = asyncio.Event()
    began = time.monotonic()
    plan = fault_plan(soak_s, args.kill_every, args.redis_restart_at)
    helpers = [
        asyncio.create_task(watch_server(db_url, watch, stop_watching)),
        asyncio.create_task(
            inject_faults(processes, probe, plan, began, outcome.faults, stop_watching)
        ),
        asyncio.create_task(watch_processes(stack, processes, began, outcome.exits, stop_watching)),
    ]
    assert stack.server is not None
    sampler = asyncio.create_task(sample_memory(stack.server.pid, outcome.memory))
    try:
        last = (0.0, 0)
        end, report_at = began + soak_s, began + PROGRESS_EVERY_S
        # A sleep may end a little early: a tenth of a second counts as arrived.
        while (now := time.monotonic()) < end - 0.1:
            await asyncio.sleep(min(report_at, end) - now)
            if time.monotonic() >= report_at - 0.1:
                elapsed = time.monotonic() - began
                print_progress(elapsed, last, players.tally, outcome, processes)
                last = (elapsed, players.tally.accepted)
                report_at += PROGRESS_EVERY_S
        outcome.soak_seconds = time.monotonic() - began
    finally:
        sampler.cancel()
        await asyncio.gather(sampler, return_exceptions=True)
        stop_watching.set()
        await asyncio.wait(helpers, timeout=HEALTH_WAIT_S + 10)
        for task in helpers:
            task.cancel()
        await asyncio.gather(*helpers, return_exceptions=True)


# ------------------------------------------------------------------ the checks


@dataclass
class Checks:
    lost: list[tuple[str, int, str, int]] = field(default_factory=list)
    keys_twice: int = 0
    over_accepted: dict[tuple[str, int], int] = field(default_factory=dict)
    unconfirmed_logged: int = 0
    server_moves: int = 0  # logged by the server itself (timeouts, seats out)
    bot_moves: int = 0

    @property
    def doubled(self) -> int:
        return self.keys_twice + sum(self.over_accepted.values())


def check_move_log(db_url: str, moves: MoveLog, humans: list[int]) -> Checks:
    """Compare what the clients saw accepted with the move log in PostgreSQL."""
    checks = Checks()
    logged: dict[tuple[str, int, str], list[int]] = {}
    with psycopg.connect(db_url) as conn:
        for game, user, key, ply in conn.execute(
            "SELECT g.public_id, m.user_id, m.idempotency_key, m.ply FROM games_move m "
            "JOIN games_game g ON g.id = m.game_id WHERE m.idempotency_key IS NOT NULL"
        ):
            logged.setdefault((game, user, key), []).append(ply)
        per_player = {
            (game, user): count
            for game, user, count in conn.execute(
                "SELECT g.public_id, m.user_id, count(*) FROM games_move m "
                "JOIN games_game g ON g.id = m.game_id WHERE m.user_id = ANY(%s) "
                "GROUP BY g.public_id, m.user_id",
                (humans,),
            )
        }
        row = conn.execute(
            "SELECT count(*) FILTER (WHERE user_id IS NULL), "
            "count(*) FILTER (WHERE user_id IS NOT NULL AND NOT user_id = ANY(%s)) "
            "FROM games_move",
            (humans,),
        ).fetchone()
        assert row is not None
        checks.server_moves, checks.bot_moves = row
    checks.lost = [
        (game, user, key, ply)
        for game, user, key, ply in moves.accepted
        if ply not in logged.get((game, user, key), ())
    ]
    checks.keys_twice = sum(len(plies) - 1 for plies in logged.values() if len(plies) > 1)
    maybe: Counter[tuple[str, int]] = Counter()
    for game, user, key in moves.unconfirmed:
        if (game, user, key) in logged:
            maybe[(game, user)] += 1
            checks.unconfirmed_logged += 1
    for player_game, count in per_player.items():
        extra = count - moves.per_player[player_game] - maybe[player_game]
        if extra > 0:
            checks.over_accepted[player_game] = extra
    return checks


# The level of a Django, uvicorn or Celery log line (not a word such as
# SERVER_CLOSED_CONNECTION_ERROR inside a traceback).
LOG_LEVEL_ERROR = re.compile(r"(^|[\s\[:/])(ERROR|CRITICAL)[\s:/\]]")


def log_problems(logs: Path) -> dict[str, Counter[str]]:
    """Per log: its ERROR and CRITICAL messages (without their time), counted. The 503s
    of /healthz during a fault are expected (the fault lines report them)."""
    found = {}
    for path in sorted(logs.glob("*.log")):
        messages: Counter[str] = Counter()
        with path.open(errors="replace") as lines:
            for line in lines:
                if LOG_LEVEL_ERROR.search(line) and "/healthz" not in line:
                    messages[without_time(line.strip())[:200]] += 1
        found[path.name] = messages
    return found


def without_time(line: str) -> str:
    """A log line without its leading timestamp (Django's or Celery's format)."""
    if line.startswith("[") and "] " in line:
        return line.split("] ", 1)[1]
    parts = line.split(" ", 2)
    return parts[2] if len(parts) == 3 and parts[0][:2].isdigit() else line


def count_lines(path: Path, text: str) -> int:
    if not path.exists():
        return 0
    with path.open(errors="replace") as lines:
        return sum(text in line for line in lines)


# ------------------------------------------------------------------ printing


def print_ramp(outcome: Outcome) -> None:
    print(
        f"ramp: {outcome.max_rate:.0f} accepted moves/s at most; soaking at {outcome.target:.0f}/s",
        flush=True,
    )


def print_progress(
    elapsed: float,
    last: tuple[float, int],
    tally: Tally,
    outcome: Outcome,
    processes: Processes,
) -> None:
    rate = (tally.accepted - last[1]) / max(elapsed - last[0], 1e-9)
    watch = outcome.watch
    assert watch is not None
    line = (
        f"[{elapsed:4.0f} s] moves {tally.accepted} ({rate:.0f}/s, target "
        f"{outcome.target:.0f}/s) | errors {dict(tally.move_errors + tally.other_errors)} "
        f"transport {dict(tally.transport)} | overdue worst {watch.worst_overdue:.1f} s, "
        f"late {len(watch.late)} | bot wait worst {watch.worst_bot_wait:.1f} s, stalled "
        f"{len(watch.stalled)} | restarts: worker {processes.worker_restarts}, redis "
        f"{processes.redis_restarts} | load {os.getloadavg()[0]:.1f}"
    )
    if outcome.exits:
        line += f" | EXITED: {'; '.join(outcome.exits)}"
    print(line, flush=True)


def describe_fault(fault: Fault) -> str:
    what = "worker killed" if fault.kind == "worker" else "Redis restarted"
    if fault.healthy_after is None:
        back = f"not healthy again within {HEALTH_WAIT_S:.0f} s"
    elif fault.kind == "worker":
        back = f"new worker's heartbeat after {fault.healthy_after:.1f} s"
    else:
        back = f"/healthz 200 again after {fault.healthy_after:.1f} s"
    failing = "; ".join(sorted(fault.failing)) or "/healthz 200 throughout"
    return f"{what} at {fault.at:.0f} s (took {fault.took:.1f} s): {back} ({failing})"


def print_report(
    args: argparse.Namespace,
    outcome: Outcome,
    checks: Checks,
    stack: Stack,
    logs: Path,
) -> int:
    soak, watch = outcome.soak, outcome.watch
    assert watch is not None
    seconds = max(outcome.soak_seconds, 1e-9)
    rate = soak.accepted / seconds
    latency = sorted(soak.latency)
    saw_500 = soak.move_errors[500] + soak.other_errors[500] + outcome.ramp.move_errors[500]
    saw_500 += outcome.ramp.other_errors[500]
    missed, stalled = len(watch.late), len(watch.stalled)
    grown = outcome.memory_grown()
    games, finished = outcome.ramp.games + soak.games, outcome.ramp.finished + soak.finished
    print(
        f"\nbench/soak.py: {seconds / 60:.1f} min at {args.fraction:.0%} of "
        f"{outcome.max_rate:.0f} moves/s, uvicorn x{args.web_workers}, 1 Celery worker "
        f"(concurrency 2) + beat, PostgreSQL + Redis, production settings"
    )
    rows = [
        ("moves accepted", f"{soak.accepted} ({rate:.0f}/s, target {outcome.target:.0f}/s: "
         f"{rate / max(outcome.target, 1e-9):.0%})"),
        ("move latency", f"p50 {percentile(latency, 0.5):.0f} ms, p99 "
         f"{percentile(latency, 0.99):.0f} ms, max {percentile(latency, 1.0):.0f} ms "
         "(retries included)"),
        ("retries replayed", f"{soak.replayed} (answered with the first result)"),
        ("moves given up", f"{soak.given_up} (no answer in {RETRY_FOR_S:.0f} s of retries; "
         f"{checks.unconfirmed_logged} of all unanswered were logged)"),
        ("move errors", f"{dict(sorted(soak.move_errors.items())) or 'none'}"),
        ("other errors", f"{dict(sorted(soak.other_errors.items())) or 'none'} "
         "(reads, creates, joins, starts)"),
        ("transport errors", f"{dict(soak.transport) or 'none'}"),
        ("moves lost", f"{len(checks.lost)}"),
        ("moves doubled", f"{checks.doubled}"),
        ("deadlines missed", f"{missed} (more than {args.late_after:.0f} s late; worst "
         f"overdue {watch.worst_overdue:.1f} s)"),
        ("bot turns stalled", f"{stalled} (more than {watch.stall_after:.0f} s; worst wait "
         f"{watch.worst_bot_wait:.1f} s; {count_lines(logs / 'worker.log', 'queued again')} "
         "rescued by the sweep)"),
        ("worker restarts", f"{sum(f.kind == 'worker' for f in outcome.faults)}"),
        ("Redis restarts", f"{sum(f.kind == 'redis' for f in outcome.faults)}"),
        ("games (whole run)", ", ".join(f"{kind} {n} ({finished[kind]} finished)"
                                        for kind, n in sorted(games.items())) or "none"),
        ("server's own moves", f"{checks.server_moves} (timeouts, seats out), bots "
         f"{checks.bot_moves} (whole run)"),
        ("websocket reconnects", f"{soak.ws_reconnects}"),
        ("web workers' memory", memory_summary(outcome.memory)),
        ("memory still growing", f"{len(grown)} web workers (a peak in the second half over "
         f"{MEMORY_GROWTH:g}x the first half's)"),
        ("samples", f"{watch.samples} ({watch.sample_errors} failed)"),
        ("unexpected exits", "; ".join(outcome.exits) or "none"),
        ("player errors", f"{dict(soak.crashes + outcome.ramp.crashes) or 'none'}"),
        ("ramp", f"{outcome.max_rate:.0f} moves/s over {args.ramp_seconds:.0f} s; errors "
         f"{dict(outcome.ramp.move_errors + outcome.ramp.other_errors) or 'none'}, "
         f"transport {dict(outcome.ramp.transport) or 'none'}"),
    ]  # fmt: skip
    for name, value in rows:
        print(f"  {name:<21} {value}")
    for fault in outcome.faults:
        print(f"    {describe_fault(fault)}")
    for name, messages in log_problems(logs).items():
        if messages:
            print(f"  {name}: {sum(messages.values())} ERROR/CRITICAL lines:")
            for message, count in messages.most_common(6):
                print(f"    {count} x {message}")
    for game, user, key, ply in checks.lost[:10]:
        print(f"  LOST: game {game}, user {user}, ply {ply}, key {key}")
    for (game, user), extra in list(checks.over_accepted.items())[:10]:
        print(f"  DOUBLED: game {game}, user {user}: {extra} more logged than accepted")
    print(
        f"  settings              --minutes {args.minutes:g} --fraction {args.fraction:g} "
        f"--kill-every {args.kill_every:g} --redis-restart-at {args.redis_restart_at:g} "
        f"--ramp-seconds {args.ramp_seconds:g} --games {args.games} --bot-games "
        f"{args.bot_games} --sleeper-games {args.sleeper_games} --late-after "
        f"{args.late_after:g}; BOT_STALL_S {stack.env['BOT_STALL_S']}, DEADLINE_SWEEP_S "
        f"{stack.env.get('DEADLINE_SWEEP_S', '1.0')}, WEB_THREADS "
        f"{stack.env.get('WEB_THREADS', '16')}, DB_POOL_SIZE "
        f"{stack.env.get('DB_POOL_SIZE', '8')}; sleepers: {SLEEPER_SECONDS_PER_TURN} s a "
        f"turn, absent wait {SLEEPER_ABSENT_WAIT_S} s; {os.cpu_count()} cores, load "
        f"average {os.getloadavg()[0]:.1f}"
    )
    print(f"  logs                  {logs}")
    ok = not (checks.lost or checks.doubled or missed or stalled or saw_500 or grown)
    print(f"  result                {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


# ------------------------------------------------------------------ main


def positive(kind: type[float] | type[int], at_most: float) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not 0 < value <= at_most:
            raise argparse.ArgumentTypeError(f"must be more than 0 and at most {at_most:g}")
        return value

    return parse


def at_least_zero(kind: type[float] | type[int], at_most: float) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not 0 <= value <= at_most:
            raise argparse.ArgumentTypeError(f"must be from 0 to {at_most:g}")
        return value

    return parse


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add = parser.add_argument
    add("--minutes", type=positive(float, 60), default=10.0, help="soak length (at most 60)")
    add("--ramp-seconds", type=positive(float, 120), default=40.0, help="the measuring ramp")
    add("--fraction", type=positive(float, 1), default=0.8, help="of the measured maximum")
    add(
        "--kill-every",
        type=at_least_zero(float, 3600),
        default=120.0,
        help="seconds between worker kills (0: none)",
    )
    add(
        "--redis-restart-at",
        type=at_least_zero(float, 3600),
        default=None,
        help="seconds into the soak (default: half-way; 0: no restart)",
    )
    add("--web-workers", type=positive(int, 16), default=2, help="web server processes")
    add("--games", type=positive(int, 200), default=16, help="concurrent 2-player matches")
    add("--bot-games", type=at_least_zero(int, 50), default=4, help="games against a bot")
    add("--sleeper-games", type=at_least_zero(int, 50), default=4, help="live, one idle player")
    add("--late-after", type=positive(float, 600), default=15.0, help="seconds: a missed one")
    add("--bot-stall", type=positive(float, 600), default=10.0, help="BOT_STALL_S, seconds")
    add("--keep-db", action="store_true", help="keep the scratch database (debugging)")
    add_redis_options(parser)
    add_web_options(parser)
    args = parser.parse_args(argv)
    soak_s = args.minutes * 60
    if args.redis_restart_at is None:
        args.redis_restart_at = soak_s / 2
    if args.redis_restart_at >= soak_s:
        parser.error(f"--redis-restart-at must be within the soak (less than {soak_s:g} s)")
    if args.ramp_seconds < 10:
        parser.error("--ramp-seconds must be at least 10 (a warm-up, then the measure)")
    if 0 < args.kill_every < 10:
        parser.error("--kill-every must be 0 (none) or at least 10 s (a worker takes seconds)")
    return args


def main() -> None:
    args = parse_args()
    logs = Path(tempfile.mkdtemp(prefix="remi-soak-"))
    print(f"logs in {logs}", flush=True)
    # A plain kill (SIGTERM) stops everything as Ctrl-C does.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    redis_server = RedisServer(logs, args.redis_port, args.redis_db)
    status = 1
    try:
        redis_server.start()
        stack = Stack(
            args.web_workers,
            redis_url=redis_server.url,
            log=logs / "web.log",
            keep_db=args.keep_db,
            port=args.web_port,
            db_name=args.db_name,
        )
        stack.env.update(
            {
                "REMI_VAR_DIR": str(logs),
                "CELERY_BEAT_SCHEDULE_FILENAME": str(logs / "celerybeat-schedule"),
                "BOT_STALL_S": f"{args.bot_stall:g}",
            }
        )
        with stack:
            status = run_with_stack(args, stack, redis_server, logs)
    finally:
        redis_server.stop()
    sys.exit(status)


def run_with_stack(
    args: argparse.Namespace, stack: Stack, redis_server: RedisServer, logs: Path
) -> int:
    processes = Processes(redis_server, stack.env, logs)
    try:
        ensure_bots(stack.env)
        django_setup(stack.env)
        count = Cast.size(args.games, args.bot_games, args.sleeper_games)
        tokens = make_players(count)
        ids = user_ids(count)
        people = [Player(token, user) for token, user in zip(tokens, ids, strict=True)]
        cast = Cast.of(people, args.games, args.bot_games, args.sleeper_games)
        processes.start_background()
        stack.start_server()
        wait_healthy(stack.url)
        print(f"stack up: {stack.url}, database {stack.db_name}, {redis_server.url}", flush=True)
        db_url = f"postgresql://postgres@127.0.0.1:5432/{stack.db_name}"
        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            outcome = runner.run(soak(args, stack, processes, cast, db_url))
        checks = check_move_log(db_url, outcome.moves, ids)
        return print_report(args, outcome, checks, stack, logs)
    finally:
        processes.stop_background()


if __name__ == "__main__":
    main()
