"""Load test of the public API against the production-mode stack on this machine.

    .venv/bin/python bench/api.py [--games 16] [--workers 2] [--seconds 40]

What it does, all on 127.0.0.1:

1. creates a scratch PostgreSQL database (dropped at the end) and migrates it;
2. creates 2 x ``--games`` users, each with a personal API token;
3. starts the web server as docs/deploy.md's process model does (``python -m remi_site.serve``:
   uvicorn with httptools and uvloop, ``--workers`` processes with a socket each) in
   production mode: ``SECRET_KEY``, ``DATABASE_URL``, ``REDIS_URL`` set, ``DEBUG=0``
   (HTTP, since there is no TLS proxy in front: ``SECURE_SSL_REDIRECT=0``);
4. plays ``--games`` concurrent 2-player serbian matches through the public API
   (create, join, start, then turns: ``draw``, ``lay`` when the hand holds an
   opening, ``discard``; a player told it is their turn draws at once, and the
   answer to each move carries their whole view), while other clients read random
   games' states (``GET /games/{id}``, ``--gets-per-second``); when a match ends the
   pair starts another;
5. prints accepted moves per second against the baseline, the cheapest authenticated
   GET (``/api/v1/me/vacation``) read in a loop by every player's token (as many
   requests in flight as players), and again by one token per game (as many in
   flight as the moves: a closed loop's rate depends on it); move latency p50/p99,
   state GET p50/p99, the CPU
   time per request of the web workers, PostgreSQL (the bench database's backends and
   the server's background processes), Redis and the load generator itself, the
   server's CPU per move next to its CPU per baseline GET (a ratio that the machine's
   other load changes little, unlike the rates of a latency-bound load), the
   throughput those CPU costs allow on an otherwise idle machine (the machine may be
   shared: compare the load average), the web workers' resident memory through the
   moves phase (start, peak, end), and the settings used;
6. with ``--rounds N``, then measures N short rounds, each the baseline GET then the
   moves (``--round-seconds`` each), and prints each round's ratio and move p99 with
   their median and range: the machine's load drifts within a minute, and one long
   move phase next to one long GET phase can land on different loads; with
   ``--versus NAME=VALUE`` every other round runs a server restarted with that
   setting (e.g. ``WEB_THREADS=4``), and each is compared with the round before it;
7. profiles one move in-process with pyinstrument and prints where the time goes;
   ``--time-server`` also splits each request's time in the web workers (waiting
   for a thread, in it and its CPU there, back to the event loop, sending).

The players are aiohttp clients on uvloop: the load generator shares the cores with
the server, so its own cost per request counts.

Bounded: ``--seconds`` of measured load (at most 120) after a short warm-up.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import secrets
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import psycopg
import uvloop

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.stack import (  # noqa: E402
    PG_ADMIN_URL,
    Stack,
    add_redis_options,
    add_web_options,
    private_redis,
)

# ------------------------------------------------------------------ setup


def django_setup(env: dict[str, str]) -> None:
    os.environ.update(env)
    import django

    django.setup()


def make_players(count: int) -> list[str]:
    """``count`` users with an API token each (in-process, through the services)."""
    from django.contrib.auth import get_user_model

    from accounts import services as account_services

    tokens = []
    for index in range(count):
        user = get_user_model().objects.create_user(
            username=f"bench{index}", password=secrets.token_urlsafe(16)
        )
        _token, raw = account_services.token_create(user=user, name="bench")
        tokens.append(raw)
    return tokens


# ------------------------------------------------------------------ the load


class Client:
    """The players' HTTP client: keep-alive connections to the server (aiohttp: the
    load generator shares the machine's cores with the server, so its own cost per
    request matters; httpx spent about twice as much CPU per request)."""

    def __init__(self, session: aiohttp.ClientSession) -> None:
        self.session = session

    async def get(self, url: str, headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
        async with self.session.get(url, headers=headers) as response:
            return response.status, await response.json()

    async def post(
        self, url: str, headers: dict[str, str], json: dict[str, Any] | None = None
    ) -> tuple[int, dict[str, Any]]:
        async with self.session.post(url, json=json, headers=headers) as response:
            return response.status, await response.json()


@dataclass
class Stats:
    move_latency: list[float] = field(default_factory=list)
    # The same latencies by kind of move (``move_kind``).
    latency_by_kind: dict[str, list[float]] = field(default_factory=dict)
    get_latency: list[float] = field(default_factory=list)
    accepted: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    games_finished: int = 0
    measuring: bool = False
    cpu: dict[str, float] = field(default_factory=dict)
    workers: list[float] = field(default_factory=list)  # CPU seconds of each web worker
    # Each web worker's resident memory (MB), sampled every second while measuring.
    memory: dict[int, list[float]] = field(default_factory=dict)

    def refuse(self, code: str) -> None:
        self.refused[code] = self.refused.get(code, 0) + 1


_rulesets: dict[str, Any] = {}  # the games' rulesets, parsed once


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """A client-side policy from the player's own view (with the engine's solver, as a
    bot or a UI hint would): draw; lay an opening (or, once opened, any meld) when the
    hand holds one; discard the card worth the most penalty."""
    from games.engine import Card, Ruleset, best_opening, card_penalty, meld_value

    deal = view["deal"]
    if deal["phase"] == "draw":
        return {"type": "draw"}
    hand = [Card.parse(pair["card"]) for pair in deal["hand"]]
    key = repr(view["ruleset"])
    ruleset = _rulesets.get(key)
    if ruleset is None:
        ruleset = _rulesets[key] = Ruleset.from_dict(view["ruleset"])
    actions = deal["actions"]
    if deal["must_return"]:
        return {"type": "discard", "card": deal["must_return"]}
    if "lay" in actions:
        melds = best_opening(hand, ruleset, keep=1)
        value = sum(meld_value(meld, ruleset) for meld in melds)
        opened = deal["opened"][deal["seat"]]
        if melds and (opened or value >= ruleset.opening_minimum):
            return {"type": "lay", "melds": [[str(c) for c in meld.cards] for meld in melds]}
    worst = max(hand, key=lambda card: (not card.is_joker, card_penalty(card, ruleset)))
    return {"type": "discard", "card": str(worst)}


async def timed_get(
    client: Client, url: str, headers: dict[str, str], stats: Stats
) -> dict[str, Any]:
    began = time.perf_counter()
    _status, body = await client.get(url, headers)
    if stats.measuring:
        stats.get_latency.append(time.perf_counter() - began)
    return body


async def play_pair(
    client: Client,
    host: str,
    guest: str,
    stats: Stats,
    stop: asyncio.Event,
    playing: dict[str, dict[str, str]],
) -> None:
    """Two players playing serbian matches one after another. A player who is told it
    is their turn (a websocket event would say so, with the ply) and has to draw just
    draws: the answer holds their whole view, which decides the rest of the turn. Only
    a player who must act without a fresh view of their own (the starter of a deal)
    reads the state first."""
    headers = [{"Authorization": f"Bearer {token}"} for token in (host, guest)]
    while not stop.is_set():
        _status, created = await client.post(
            "/api/v1/games", headers[0], {"preset": "serbian", "players": 2}
        )
        game_id = created["id"]
        url = f"/api/v1/games/{game_id}"
        await client.post(f"{url}/join", headers[1], {})
        _status, view = await client.post(f"{url}/start", headers[0])
        views: list[dict[str, Any] | None] = [None, None]
        views[view["you"]] = view
        playing[game_id] = headers[1]
        while not stop.is_set() and view["status"] == "active":
            mover = view["to_move"]
            current = views[mover]
            if current is not None and current["ply"] == view["ply"]:
                action = choose(current)
            elif view["deal"]["phase"] == "draw":
                action, current = {"type": "draw"}, view
            else:
                current = await timed_get(client, url, headers[mover], stats)
                action = choose(current)
            began = time.perf_counter()
            status, body = await client.post(
                f"{url}/actions",
                {**headers[mover], "Idempotency-Key": secrets.token_hex(8)},
                {"action": action, "ply": current["ply"]},
            )
            elapsed = time.perf_counter() - began
            if status != 200:
                stats.refuse(body["error"]["code"])
                views[mover] = None
                continue
            if stats.measuring:
                stats.accepted += 1
                stats.move_latency.append(elapsed)
                kind = move_kind(action, current, body["game"])
                stats.latency_by_kind.setdefault(kind, []).append(elapsed)
            view = views[mover] = body["game"]
        playing.pop(game_id, None)
        if view["status"] == "finished":
            stats.games_finished += 1


def move_kind(action: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> str:
    """The kind of an accepted move, for its latency: the action's type, or what the
    server did more than the action (ended the deal, and dealt the next one or ended
    the match)."""
    if after["status"] != "active":
        return "ends the match"
    if after["deal_number"] != before["deal_number"]:
        return "ends a deal"
    return str(action["type"])


async def poll_states(
    client: Client,
    per_second: float,
    stats: Stats,
    stop: asyncio.Event,
    playing: dict[str, dict[str, str]],
) -> None:
    """Players (and spectators) reading game states: ``per_second`` GETs of random games."""
    rng = random.Random(1)
    while not stop.is_set():
        await asyncio.sleep(rng.expovariate(per_second))
        if playing:
            game_id = rng.choice(list(playing))
            await timed_get(client, f"/api/v1/games/{game_id}", playing[game_id], stats)


def cpu_seconds(server_pid: int, db_name: str) -> dict[str, dict[int, float]]:
    """CPU time used so far, by process, by the web server (all workers), PostgreSQL,
    Redis and this load generator: where the machine's two cores go. PostgreSQL
    counts the backends serving the bench's database and the server's own background
    processes (WAL writer, checkpointer...), not other databases' backends (the
    machine may be shared)."""
    import psutil

    def used(process: psutil.Process) -> float:
        try:
            times = process.cpu_times()
            return float(times.user + times.system)
        except psutil.Error:
            return 0.0

    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        ours = {
            pid
            for (pid,) in conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s OR datname IS NULL",
                (db_name,),
            )
        }
    server = psutil.Process(server_pid)
    me = psutil.Process()
    out: dict[str, dict[int, float]] = {
        "uvicorn": {p.pid: used(p) for p in [server, *server.children(recursive=True)]},
        "postgres": {},
        "redis": {},
        "load generator": {me.pid: used(me)},
    }
    for process in psutil.process_iter(["name"]):
        name = process.info["name"] or ""
        if name.startswith("postgres") and process.pid in ours:
            out["postgres"][process.pid] = used(process)
        elif name.startswith("redis-server"):
            out["redis"][process.pid] = used(process)
    return out


async def sample_memory(server_pid: int, into: dict[int, list[float]]) -> None:
    """The web workers' resident memory, in MB, every second (until cancelled); the
    server's other children (multiprocessing's resource tracker) are left out."""
    import psutil

    server = psutil.Process(server_pid)
    while True:
        for worker in server.children(recursive=True):
            with contextlib.suppress(psutil.Error):
                if "spawn_main" in " ".join(worker.cmdline()):
                    into.setdefault(worker.pid, []).append(worker.memory_info().rss / 2**20)
        await asyncio.sleep(1.0)


def memory_summary(memory: dict[int, list[float]]) -> str:
    """Each web worker's sampled memory: at the start, at its peak, at the end."""
    return (
        "; ".join(
            f"{samples[0]:.0f} MB at the start, {max(samples):.0f} at most, {samples[-1]:.0f} "
            "at the end"
            for samples in memory.values()
            if samples
        )
        or "not sampled"
    )


def cpu_used(
    before: dict[str, dict[int, float]], after: dict[str, dict[int, float]]
) -> dict[str, float]:
    """CPU seconds between two ``cpu_seconds`` samples (a process new since the first
    one counts from its start)."""
    return {
        name: sum(seconds - before[name].get(pid, 0.0) for pid, seconds in after[name].items())
        for name in after
    }


async def load(
    url: str,
    tokens: list[str],
    seconds: float,
    warmup: float,
    server_pid: int,
    gets_per_second: float,
    db_name: str,
) -> Stats:
    stats = Stats()
    stop = asyncio.Event()
    connector = aiohttp.TCPConnector(limit=len(tokens))
    timeout = aiohttp.ClientTimeout(total=30)
    async with aiohttp.ClientSession(url, connector=connector, timeout=timeout) as session:
        client = Client(session)
        playing: dict[str, dict[str, str]] = {}
        tasks = [
            asyncio.create_task(play_pair(client, tokens[i], tokens[i + 1], stats, stop, playing))
            for i in range(0, len(tokens), 2)
        ]
        tasks += [
            asyncio.create_task(poll_states(client, gets_per_second / 4, stats, stop, playing))
            for _ in range(4)
        ]
        await asyncio.sleep(warmup)
        stats.measuring = True
        cpu_before = cpu_seconds(server_pid, db_name)
        began = time.perf_counter()
        sampler = asyncio.create_task(sample_memory(server_pid, stats.memory))
        await asyncio.sleep(seconds)
        sampler.cancel()
        await asyncio.gather(sampler, return_exceptions=True)
        stats.measuring = False
        measured = time.perf_counter() - began
        cpu_after = cpu_seconds(server_pid, db_name)
        stats.cpu = cpu_used(cpu_before, cpu_after)
        stats.workers = sorted(
            used - cpu_before["uvicorn"].get(pid, 0.0)
            for pid, used in cpu_after["uvicorn"].items()
            if pid != server_pid and used - cpu_before["uvicorn"].get(pid, 0.0) > 0.01 * seconds
        )
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    stats.move_latency.sort()
    for latencies in stats.latency_by_kind.values():
        latencies.sort()
    stats.get_latency.sort()
    stats.refused = dict(stats.refused)
    setattr(stats, "seconds", measured)  # noqa: B010
    return stats


@dataclass
class Baseline:
    rate: float  # requests/s
    server_ms: float  # CPU of the web workers, PostgreSQL and Redis per request
    latency: list[float] = field(default_factory=list)  # seconds, sorted


async def cheapest_get_rate(
    url: str, tokens: list[str], seconds: float, warmup: float, server_pid: int, db_name: str
) -> Baseline:
    """Requests/s of the cheapest authenticated GET (``/api/v1/me/vacation``) with the
    same clients and tokens as the moves, one request at a time per token, and the
    server's CPU per request: the baseline that the move rate is quoted against (a
    ratio holds on a shared, noisy machine)."""
    connector = aiohttp.TCPConnector(limit=len(tokens))
    timeout = aiohttp.ClientTimeout(total=30)
    done = 0
    latency: list[float] = []
    measuring = False
    stop = asyncio.Event()

    async def reader(token: str) -> None:
        nonlocal done
        headers = {"Authorization": f"Bearer {token}"}
        while not stop.is_set():
            began = time.perf_counter()
            _status, _body = await client.get("/api/v1/me/vacation", headers)
            if measuring:
                done += 1
                latency.append(time.perf_counter() - began)

    async with aiohttp.ClientSession(url, connector=connector, timeout=timeout) as session:
        client = Client(session)
        tasks = [asyncio.create_task(reader(token)) for token in tokens]
        await asyncio.sleep(warmup)
        cpu_before = cpu_seconds(server_pid, db_name)
        measuring, began = True, time.perf_counter()
        await asyncio.sleep(seconds)
        measuring, elapsed = False, time.perf_counter() - began
        cpu = cpu_used(cpu_before, cpu_seconds(server_pid, db_name))
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    server = sum(cpu[name] for name in SERVER_PROCESSES)
    return Baseline(done / elapsed, server / max(done, 1) * 1000, sorted(latency))


@dataclass
class Round:
    get_rate: float
    move_rate: float
    move_p50: float
    move_p99: float
    load_average: float
    setting: str = ""  # with --versus: which server settings the round measured

    @property
    def ratio(self) -> float:
        return self.move_rate / self.get_rate if self.get_rate else float("nan")


async def one_round(
    url: str,
    tokens: list[str],
    seconds: float,
    server_pid: int,
    gets_per_second: float,
    db_name: str,
) -> Round:
    """The baseline GET for ``seconds``, then the moves (new matches) for as long,
    each after a short warm-up: one ratio measured while the machine's load is about
    the same for both."""
    load_average = os.getloadavg()[0]
    baseline = await cheapest_get_rate(url, tokens, seconds, 1.0, server_pid, db_name)
    stats = await load(url, tokens, seconds, 2.0, server_pid, gets_per_second, db_name)
    measured = stats.seconds  # type: ignore[attr-defined]
    return Round(
        get_rate=baseline.rate,
        move_rate=stats.accepted / measured,
        move_p50=percentile(stats.move_latency, 0.50),
        move_p99=percentile(stats.move_latency, 0.99),
        load_average=load_average,
    )


def print_rounds(rounds: list[Round]) -> None:
    print(
        f"\n{len(rounds)} rounds, each the baseline GET then the moves "
        "(load average at the start of each):"
    )
    print(
        f"  {'round':>5} {'GET/s':>7} {'moves/s':>8} {'ratio':>6} {'p50 ms':>7} {'p99 ms':>7} "
        f"{'load':>5} settings"
    )
    for number, measured in enumerate(rounds, 1):
        print(
            f"  {number:>5} {measured.get_rate:>7.0f} {measured.move_rate:>8.0f} "
            f"{measured.ratio:>6.2f} {measured.move_p50:>7.1f} {measured.move_p99:>7.1f} "
            f"{measured.load_average:>5.1f} {measured.setting}"
        )
    for setting in dict.fromkeys(measured.setting for measured in rounds):
        print(f"  {setting + ': ' if setting else ''}" + _medians(rounds, setting))
    settings = list(dict.fromkeys(measured.setting for measured in rounds))
    if len(settings) == 2:
        _print_pairs(rounds, *settings)


def _medians(rounds: list[Round], setting: str) -> str:
    ratios = sorted(measured.ratio for measured in rounds if measured.setting == setting)
    p99s = sorted(measured.move_p99 for measured in rounds if measured.setting == setting)
    return (
        f"ratio: median {statistics.median(ratios):.2f}, from {ratios[0]:.2f} to "
        f"{ratios[-1]:.2f}; move p99: median {statistics.median(p99s):.0f} ms, from "
        f"{p99s[0]:.0f} to {p99s[-1]:.0f} ms"
    )


def _print_pairs(rounds: list[Round], first: str, second: str) -> None:
    """Each round of ``second`` against the round of ``first`` just before it: the two
    ran a minute apart, so the machine's drift weighs little on their quotient."""
    ratios: list[float] = []
    p99s: list[float] = []
    for before, after in zip(rounds, rounds[1:], strict=False):
        if before.setting == first and after.setting == second:
            ratios.append(after.ratio / before.ratio)
            p99s.append(after.move_p99 / before.move_p99)
    if ratios:
        print(
            f"  {second} against {first}, round by round ({len(ratios)} pairs): ratio x"
            f"{statistics.median(ratios):.2f} (median; from {min(ratios):.2f} to "
            f"{max(ratios):.2f}), move p99 x{statistics.median(p99s):.2f} (from "
            f"{min(p99s):.2f} to {max(p99s):.2f})"
        )


# The processes whose CPU is the server's cost of a request.
SERVER_PROCESSES = ("uvicorn", "postgres", "redis")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


def parse_versus(pairs: list[str]) -> dict[str, str]:
    settings: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise SystemExit(f"--versus {pair!r}: expected NAME=VALUE")
        settings[name] = value
    return settings


def switch_settings(
    stack: Stack,
    as_started: dict[str, str | None],
    versus: dict[str, str],
    use_versus: bool,
) -> str:
    """Restart the server with ``versus`` (or with the settings it started with) unless
    it runs with them already; returns the settings' label."""
    wanted: dict[str, str | None] = dict(versus) if use_versus else dict(as_started)
    if any(stack.env.get(name) != value for name, value in wanted.items()):
        stack.stop_server()
        for name, value in wanted.items():
            if value is None:
                stack.env.pop(name, None)
            else:
                stack.env[name] = value
        stack.start_server()
    return " ".join(
        f"{name}={value if value is not None else '(default)'}" for name, value in wanted.items()
    )


# ------------------------------------------------------------------ profile one move


def profile_moves(count: int) -> str:
    """Play ``count`` moves in-process through the whole Django stack (middleware, DRF,
    services, PostgreSQL, Redis) under pyinstrument; returns the report.

    The moves run in a worker thread of a running event loop, as under uvicorn (where
    Django runs each request in a thread and ``async_to_sync`` hands coroutines such
    as the Channels sends back to the server's loop)."""
    from asgiref.sync import async_to_sync, sync_to_async

    return str(async_to_sync(sync_to_async(_profile_moves, thread_sensitive=False))(count))


def _profile_moves(count: int) -> str:
    from django.contrib.auth import get_user_model
    from django.test import Client
    from pyinstrument import Profiler

    from accounts import services as account_services

    users = [
        get_user_model().objects.create_user(username=f"profile{i}", password="x") for i in range(2)
    ]
    clients = []
    for user in users:
        _token, raw = account_services.token_create(user=user, name="profile")
        clients.append(Client(HTTP_AUTHORIZATION=f"Bearer {raw}", HTTP_HOST="127.0.0.1"))
    game_id = (
        clients[0]
        .post("/api/v1/games", {"preset": "serbian", "players": 2}, content_type="application/json")
        .json()["id"]
    )
    clients[1].post(f"/api/v1/games/{game_id}/join", {}, content_type="application/json")
    view = clients[0].post(f"/api/v1/games/{game_id}/start").json()
    views = [clients[i].get(f"/api/v1/games/{game_id}").json() for i in range(2)]
    profiler = Profiler(interval=0.0002)
    done = 0
    while done < count and view["status"] == "active":
        mover = view["to_move"]
        current = views[mover]
        if current["ply"] != view["ply"]:
            current = clients[mover].get(f"/api/v1/games/{game_id}").json()
        action = choose(current)
        profiler.start()
        response = clients[mover].post(
            f"/api/v1/games/{game_id}/actions",
            {"action": action, "ply": current["ply"]},
            content_type="application/json",
        )
        profiler.stop()
        view = response.json()["game"]
        views[mover] = view
        done += 1
    return str(profiler.output_text(unicode=True, color=False, show_all=False))


def print_server_profile(out: Path) -> None:
    import pstats

    files = sorted(out.parent.glob(out.name + ".*"))
    if not files:
        print("no server profile was written")
        return
    stats = pstats.Stats(str(files[0]))
    for extra in files[1:]:
        stats.add(str(extra))
    print(f"\nserver profile ({len(files)} worker processes, cProfile, by own time):")
    stats.sort_stats("tottime").print_stats(25)
    stats.sort_stats("cumulative").print_stats(45)


def print_server_timing(out: Path, workers: int) -> None:
    """The means written by ``bench/asgi_timed.py``, once every worker has written them
    since the load stopped."""
    import json

    stopped = time.time()
    deadline = time.monotonic() + 15
    files: list[Path] = []
    while time.monotonic() < deadline:
        files = sorted(out.parent.glob(out.name + ".*"))
        if len(files) >= workers and all(f.stat().st_mtime > stopped for f in files):
            break
        time.sleep(0.2)
    else:
        print("the web workers did not write their timings")
        return
    print(
        "\nwhere a request's time goes in the web workers (mean ms per request, the "
        "warm-ups and both phases included; bench/asgi_timed.py):"
    )
    header = False
    for file in files:
        worker = file.name.rsplit(".", 1)[1]
        for kind, means in sorted(json.loads(file.read_text()).items()):
            requests = means.pop("requests")
            if not header:  # the phases as bench/asgi_timed.py names them, in its order
                print(
                    f"  {'worker':>8} {'kind':<13} {'requests':>8} "
                    + " ".join(f"{p:>7}" for p in means)
                )
                header = True
            print(
                f"  {worker:>8} {kind:<13} {requests:>8} "
                + " ".join(f"{ms:>7.2f}" for ms in means.values())
            )


# ------------------------------------------------------------------ main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=16, help="concurrent 2-player games")
    parser.add_argument("--workers", type=int, default=2, help="uvicorn worker processes")
    parser.add_argument("--seconds", type=float, default=40, help="measured load, at most 120")
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument(
        "--gets-per-second", type=float, default=50, help="state reads of random games"
    )
    parser.add_argument("--profile-moves", type=int, default=200)
    parser.add_argument(
        "--rounds",
        type=int,
        default=0,
        help="then N short rounds, each the baseline GET then the moves (--round-seconds "
        "each), and the ratio of each round: on a shared machine whose load drifts, the "
        "spread of the rounds says how far one long run's ratio can be trusted",
    )
    parser.add_argument("--round-seconds", type=float, default=8.0)
    parser.add_argument(
        "--profile-server",
        metavar="FILE",
        help="diagnostics: profile every thread of the web workers (slower), print the "
        "top functions and write the statistics to FILE.<pid>",
    )
    parser.add_argument(
        "--time-server",
        metavar="FILE",
        help="diagnostics: split each request's time in the web workers (waiting for a "
        "thread, in it, its CPU, back to the event loop, sending; bench/asgi_timed.py), "
        "print the means and write them to FILE.<pid>",
    )
    parser.add_argument(
        "--without-live-hook",
        action="store_true",
        help="diagnostics: switch off the live-play after-commit work to measure its cost",
    )
    parser.add_argument(
        "--versus",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="with --rounds: every other round runs a server restarted with this environment "
        "setting (repeatable), and each such round is compared with the one before it",
    )
    add_redis_options(parser)
    add_web_options(parser)
    args = parser.parse_args()
    seconds = min(args.seconds, 120.0)
    if args.versus and args.rounds < 2:
        parser.error("--versus needs --rounds 2 or more")

    app = "remi_site.asgi:application"
    if args.without_live_hook:
        app = "bench.asgi_without_live_hook:application"
    if args.profile_server:
        app = "bench.asgi_profiled:application"
    if args.time_server:
        app = "bench.asgi_timed:application"
    with (
        private_redis(args.redis_port, args.redis_db) as redis_url,
        Stack(
            args.workers, app, redis_url=redis_url, port=args.web_port, db_name=args.db_name
        ) as stack,
    ):
        if args.profile_server:
            stack.env["REMI_PROFILE_OUT"] = str(Path(args.profile_server).resolve())
        if args.time_server:
            timing_out = Path(args.time_server).resolve()
            for stale in timing_out.parent.glob(timing_out.name + ".*"):
                stale.unlink()
            stack.env["REMI_TIMING_OUT"] = str(timing_out)
        django_setup(stack.env)
        versus = parse_versus(args.versus)
        settings_as_started = {name: stack.env.get(name) for name in versus}
        # Before any --versus round restarts the server with other settings.
        settings_line = (
            f"uvicorn --workers {args.workers} (httptools, uvloop), "
            f"WEB_THREADS {stack.env.get('WEB_THREADS', '16')}, "
            f"DB_POOL_SIZE {stack.env.get('DB_POOL_SIZE', '8')}, prepared statements "
            f"{'off' if stack.env.get('DB_PREPARED_STATEMENTS') == '0' else 'on'}, "
            f"{args.gets_per_second:.0f} GET/s asked"
        )
        tokens = make_players(2 * args.games)
        stack.start_server()
        assert stack.server is not None
        load_before = os.getloadavg()
        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            baseline = runner.run(
                cheapest_get_rate(
                    stack.url,
                    tokens,
                    min(seconds, 20.0),
                    args.warmup,
                    stack.server.pid,
                    stack.db_name,
                )
            )
            # The same GET with as many requests in flight as the moves have (one per
            # game): a closed loop's rate depends on how many requests it keeps going.
            baseline_per_game = runner.run(
                cheapest_get_rate(
                    stack.url,
                    tokens[::2],
                    min(seconds, 20.0),
                    args.warmup,
                    stack.server.pid,
                    stack.db_name,
                )
            )
            stats = runner.run(
                load(
                    stack.url,
                    tokens,
                    seconds,
                    args.warmup,
                    stack.server.pid,
                    args.gets_per_second,
                    stack.db_name,
                )
            )
            rounds = []
            for number in range(min(args.rounds, 20)):
                setting = ""
                if versus:
                    setting = switch_settings(stack, settings_as_started, versus, number % 2 == 1)
                assert stack.server is not None
                measured_round = runner.run(
                    one_round(
                        stack.url,
                        tokens,
                        min(args.round_seconds, 30.0),
                        stack.server.pid,
                        args.gets_per_second,
                        stack.db_name,
                    )
                )
                measured_round.setting = setting
                rounds.append(measured_round)
        measured = stats.seconds  # type: ignore[attr-defined]
        print(
            f"\nbench/api.py: {args.games} concurrent 2-player games, uvicorn x{args.workers} "
            f"workers, PostgreSQL + Redis, production settings, {measured:.0f} s measured"
        )
        move_rate = stats.accepted / measured
        print(f"  accepted moves      {stats.accepted} ({move_rate:.0f} moves/s)")
        print(
            f"  baseline            {baseline.rate:.0f} requests/s of GET /api/v1/me/vacation "
            f"(same clients and tokens): moves are {move_rate / baseline.rate:.2f}x the "
            "cheapest authenticated GET"
        )
        print(
            f"  same, one per game  {baseline_per_game.rate:.0f} requests/s with {args.games} "
            f"clients ({args.games} requests in flight, as the moves; the baseline above has "
            f"{len(tokens)}): moves are {move_rate / baseline_per_game.rate:.2f}x it "
            f"({baseline_per_game.server_ms:.2f} ms of server CPU per GET)"
        )
        print(
            f"  its latency         p50 {percentile(baseline_per_game.latency, 0.50):.1f} ms   "
            f"p99 {percentile(baseline_per_game.latency, 0.99):.1f} ms: the floor of a move's "
            f"at {args.games} in flight (a closed loop's mean latency is the requests in "
            "flight over their rate: a move at 0.5x the GET's rate takes twice as long)"
        )
        print(
            f"  move latency        p50 {percentile(stats.move_latency, 0.50):.1f} ms   "
            f"p99 {percentile(stats.move_latency, 0.99):.1f} ms   "
            f"(p90 {percentile(stats.move_latency, 0.90):.1f}, "
            f"max {percentile(stats.move_latency, 1.0):.1f})"
        )
        for kind, latencies in sorted(stats.latency_by_kind.items(), key=lambda kv: -len(kv[1])):
            share = len(latencies) / max(stats.accepted, 1)
            print(
                f"    {kind:<16}  p50 {percentile(latencies, 0.50):.1f} ms   "
                f"p99 {percentile(latencies, 0.99):.1f} ms   ({share:.0%} of the moves)"
            )
        print(
            f"  state GET latency   p50 {percentile(stats.get_latency, 0.50):.1f} ms   "
            f"p99 {percentile(stats.get_latency, 0.99):.1f} ms   ({len(stats.get_latency)} GETs, "
            f"{len(stats.get_latency) / measured:.0f}/s)"
        )
        print(f"  refused moves       {stats.refused or 'none'}")
        print(f"  matches finished    {stats.games_finished}")
        requests = stats.accepted + len(stats.get_latency)
        print(
            f"  CPU, {os.cpu_count()} cores, load average before {load_before[0]:.1f}: "
            + ", ".join(
                f"{name} {used / measured * 100:.0f}% ({used / max(requests, 1) * 1000:.2f} ms/req)"
                for name, used in stats.cpu.items()
            )
        )
        server_s = sum(stats.cpu[name] for name in SERVER_PROCESSES)
        server_ms = server_s / max(requests, 1) * 1000
        per_move = server_s / max(stats.accepted, 1) * 1000
        total_ms = server_ms + stats.cpu["load generator"] / max(requests, 1) * 1000
        share = stats.accepted / max(requests, 1)
        cores = os.cpu_count() or 1
        print(
            f"  server CPU          {server_ms:.2f} ms/request (web + PostgreSQL + Redis), "
            f"{total_ms:.2f} with the load generator; web workers "
            + " / ".join(f"{used / measured * 100:.0f}%" for used in stats.workers)
        )
        print(
            f"  CPU per move        {per_move:.2f} ms of server CPU per accepted move (the "
            f"state reads of the phase included) vs {baseline.server_ms:.2f} ms per baseline "
            f"GET: a move costs {per_move / baseline.server_ms:.2f}x the GET's CPU "
            f"(CPU bound: moves at most {baseline.server_ms / per_move:.2f}x its rate)"
        )
        print(
            f"  idle-machine bound  {cores} cores / {total_ms:.2f} ms = "
            f"{cores * 1000 / total_ms:.0f} requests/s, i.e. about "
            f"{cores * 1000 / total_ms * share:.0f} moves/s at this mix"
        )
        print(
            f"  web workers' memory {memory_summary(stats.memory)} (resident, sampled every second)"
        )
        print(f"  settings            {settings_line}")
        if rounds:
            print_rounds(rounds)
        if args.profile_server:
            stack.stop_server()
            print_server_profile(Path(args.profile_server).resolve())
        if args.time_server:
            print_server_timing(Path(args.time_server).resolve(), args.workers)
        if args.profile_moves:
            print(f"\nprofile of {args.profile_moves} moves in-process (pyinstrument):")
            print(profile_moves(args.profile_moves))


if __name__ == "__main__":
    main()
