"""The open-loop mode of ``bench/api.py`` (``--open-loop``): the latency a player feels.

Moves and the cheapest authenticated GET (``/api/v1/me/vacation``) arrive as two Poisson
processes, each at ``rate`` requests/s (half the maximum move rate measured just before in
a closed loop). The generator never waits for an answer before scheduling the next
request, and every latency is measured from the request's scheduled time, so a stall
(of the server or of this generator) shows in full instead of delaying the requests that
would have measured it (coordinated omission).

A move needs a game whose previous move has been answered: ``games`` matches are kept
going, each ready for its next move in a queue; an arrival that finds none ready waits
for one (counted as ``no game ready``: its latency still runs from its scheduled time).
Reads a move needs first (the starter of a deal, a new match) are the game's own,
untimed. A request counts in the cycle its answer arrives in; the last cycle waits for
every answer, so no slow one is left out.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from bench.kit.measure import percentile
from bench.kit.report import table
from bench.loadgen.players import Client, choose
from bench.loadgen.stalls import BUCKET_S, Sampler, Stalls, Timeline, sort_samples


@dataclass
class Cycle:
    """One cycle's latencies (seconds, from the scheduled time) and samples."""

    stalls: Stalls
    moves: list[float] = field(default_factory=list)
    gets: list[float] = field(default_factory=list)
    statuses: dict[str, int] = field(default_factory=dict)
    no_game_ready: int = 0
    load_average: float = 0.0

    def ratio(self) -> float:
        return percentile(self.moves, 0.99) / percentile(self.gets, 0.99)


class Game:
    """A 2-player match kept going; ``ready`` holds it whenever its next move is known."""

    def __init__(
        self,
        client: Client,
        tokens: tuple[str, str],
        ready: asyncio.Queue[Game],
        chosen_in: Callable[[float], None],
    ):
        self.client = client
        self.chosen_in = chosen_in  # told how long each move took to choose
        self.headers = [{"Authorization": f"Bearer {token}"} for token in tokens]
        self.ready = ready
        self.url = ""
        self.view: dict[str, Any] = {}
        self.views: list[dict[str, Any] | None] = [None, None]
        self.next: tuple[int, dict[str, Any], int] = (0, {}, 0)  # mover, action, ply

    async def new_match(self) -> None:
        _status, created = await self.client.post(
            "/api/v1/games", self.headers[0], {"preset": "serbian", "players": 2}
        )
        self.url = f"/api/v1/games/{created['id']}"
        await self.client.post(f"{self.url}/join", self.headers[1], {})
        _status, self.view = await self.client.post(f"{self.url}/start", self.headers[0])
        self.views = [None, None]
        self.views[self.view["you"]] = self.view

    async def prepare(self) -> None:
        """Decide the next move as ``play_pair`` does (a new match when this one ended),
        then queue the game as ready."""
        if self.view.get("status") != "active":
            await self.new_match()
        mover = self.view["to_move"]
        current = self.views[mover]
        if current is None or current["ply"] != self.view["ply"]:
            if self.view["deal"]["phase"] == "draw":
                current = self.view
            else:
                _status, current = await self.client.get(self.url, self.headers[mover])
                self.views[mover] = current
        began = time.perf_counter()
        action = choose(current)
        self.chosen_in(time.perf_counter() - began)
        self.next = (mover, action, current["ply"])
        self.ready.put_nowait(self)

    async def move(self) -> tuple[int, str]:
        """Send the prepared move; the status and, when refused, the error's code."""
        mover, action, ply = self.next
        status, body = await self.client.post(
            f"{self.url}/actions",
            {**self.headers[mover], "Idempotency-Key": secrets.token_hex(8)},
            {"action": action, "ply": ply},
        )
        if status == 200:
            self.view = self.views[mover] = body["game"]
            return status, ""
        self.views[mover] = None
        return status, body.get("error", {}).get("code", "")


class OpenLoop:
    """The two arrival processes and what they measure, into ``cycle`` (replaced at each
    cycle while the load goes on)."""

    def __init__(self, client: Client, tokens: list[str], rate: float, cycle: Cycle) -> None:
        self.client = client
        self.tokens = tokens
        self.rate = rate
        self.cycle = cycle
        self.in_flight = 0
        self.pending: set[asyncio.Task[None]] = set()

    def _sent(self) -> None:
        self.in_flight += 1
        self.cycle.stalls.in_flight.note(self.in_flight)

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.create_task(coroutine)
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def arrivals(self, seed: int, until: float, fire: Any) -> None:
        """Call ``fire(scheduled)`` at Poisson arrival times until ``until``, each
        call on time or as soon after as this loop gets to it (its lateness noted)."""
        rng = random.Random(seed)
        scheduled = time.perf_counter()
        while True:
            scheduled += rng.expovariate(self.rate)
            if scheduled >= until:
                return
            delay = scheduled - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            late = time.perf_counter() - scheduled
            self.cycle.stalls.generator_lag.note(late)
            self.cycle.stalls.lags.append(late)
            await fire(scheduled)

    async def fire_move(self, ready: asyncio.Queue[Game], scheduled: float) -> None:
        if ready.empty():
            self.cycle.no_game_ready += 1
        game = await ready.get()
        self._sent()
        self._spawn(self._move(game, scheduled))

    async def _move(self, game: Game, scheduled: float) -> None:
        cycle = self.cycle
        try:
            status, code = await game.move()
        finally:
            self.in_flight -= 1
        cycle.moves.append(time.perf_counter() - scheduled)
        if status != 200:
            key = f"move {status} {code}"
            cycle.statuses[key] = cycle.statuses.get(key, 0) + 1
        await game.prepare()

    async def fire_get(self, rng: random.Random, scheduled: float) -> None:
        self._sent()
        self._spawn(self._get(rng.choice(self.tokens), scheduled))

    async def _get(self, token: str, scheduled: float) -> None:
        cycle = self.cycle
        try:
            async with self.client.session.get(
                "/api/v1/me/vacation", headers={"Authorization": f"Bearer {token}"}
            ) as response:
                await response.read()
                status = response.status
        finally:
            self.in_flight -= 1
        cycle.gets.append(time.perf_counter() - scheduled)
        if status != 200:
            key = f"GET {status}"
            cycle.statuses[key] = cycle.statuses.get(key, 0) + 1


async def open_loop(
    url: str,
    tokens: list[str],
    rate: float,
    *,
    cycles: int,
    cycle_seconds: float,
    warmup: float,
    db_name: str,
    redis_url: str,
) -> list[Cycle]:
    """``cycles`` cycles of ``cycle_seconds`` after ``warmup`` s of the same load."""
    import os

    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=60)
    done: list[Cycle] = []
    async with aiohttp.ClientSession(url, connector=connector, timeout=timeout) as session:
        client = Client(session)
        ready: asyncio.Queue[Game] = asyncio.Queue()
        loop = OpenLoop(client, tokens, rate, Cycle(Stalls(time.perf_counter())))

        def chosen_in(seconds: float) -> None:
            loop.cycle.stalls.client_choice.note(seconds)

        games = [
            Game(client, (tokens[i], tokens[i + 1]), ready, chosen_in)
            for i in range(0, len(tokens), 2)
        ]
        await asyncio.gather(*(game.prepare() for game in games))
        began = time.perf_counter()
        sampler = Sampler(db_name, redis_url, loop.cycle.stalls)
        sampler.start()
        total = warmup + cycles * cycle_seconds
        get_rng = random.Random(3)
        generators = [
            asyncio.create_task(
                loop.arrivals(1, began + total, lambda at: loop.fire_move(ready, at))
            ),
            asyncio.create_task(
                loop.arrivals(2, began + total, lambda at: loop.fire_get(get_rng, at))
            ),
        ]
        try:
            await asyncio.sleep(warmup)
            for number in range(cycles):
                cycle = Cycle(Stalls(time.perf_counter()), load_average=os.getloadavg()[0])
                loop.cycle, sampler.stalls = cycle, cycle.stalls
                await asyncio.sleep(cycle_seconds)
                if number == cycles - 1:
                    await asyncio.gather(*generators)
                    await asyncio.gather(*loop.pending, return_exceptions=True)
                done.append(cycle)
        finally:
            samples = sampler.stop()
            for task in generators:
                task.cancel()
            await asyncio.gather(*generators, *loop.pending, return_exceptions=True)
    sort_samples(samples, [cycle.stalls for cycle in done], cycle_seconds)
    for cycle in done:
        cycle.moves.sort()
        cycle.gets.sort()
        cycle.stalls.lags.sort()
        cycle.stalls.pings.sort()
    return done


CYCLE_COLUMNS = (
    ("cycle", "d"),
    ("load", ".1f"),
    ("moves", "d"),
    ("p50 ms", ".1f"),
    ("p99 ms", ".1f"),
    ("GETs", "d"),
    ("p50 ms", ".1f"),
    ("p99 ms", ".1f"),
    ("p99 ratio", ".2f"),
    ("in flight max", ".0f"),
    ("late p99 ms", ".1f"),
    ("late max ms", ".1f"),
    ("no game", "d"),
)


def cycle_row(number: int, cycle: Cycle) -> tuple[Any, ...]:
    stalls = cycle.stalls
    return (
        number,
        cycle.load_average,
        len(cycle.moves),
        percentile(cycle.moves, 0.5),
        percentile(cycle.moves, 0.99),
        len(cycle.gets),
        percentile(cycle.gets, 0.5),
        percentile(cycle.gets, 0.99),
        cycle.ratio(),
        max(stalls.in_flight.peaks.values(), default=0.0),
        percentile(stalls.lags, 0.99),
        percentile(stalls.lags, 1.0),
        cycle.no_game_ready,
    )


def cycles_json(cycles: list[Cycle]) -> dict[str, Any]:
    """The cycles' figures by column (``--json``)."""
    names = [
        "cycle", "load", "moves", "move p50", "move p99", "GETs", "GET p50", "GET p99",
        "p99 ratio", "in flight max", "late p99", "late max", "no game",
    ]  # fmt: skip
    return {
        "cycles": [
            dict(zip(names, cycle_row(number, cycle), strict=True))
            for number, cycle in enumerate(cycles, 1)
        ]
    }


def print_open_loop(
    cycles: list[Cycle],
    rate: float,
    max_rate: float,
    seconds: float,
    collections: list[dict[str, Any]] | None = None,
) -> None:
    """Each cycle's latencies, their ratio and the requests in flight, then the medians;
    below, each cycle's timeline (one column per ``BUCKET_S``) beside what the stack did,
    with the web workers' slow garbage collections when ``--time-server`` timed them."""
    print(
        f"\nopen loop: moves and GET /api/v1/me/vacation each at {rate:.0f}/s (Poisson; half "
        f"the {max_rate:.0f} moves/s measured in a closed loop), {len(cycles)} cycles of "
        f"{seconds:.0f} s, latency from each request's scheduled time:"
    )
    print(
        table(CYCLE_COLUMNS, (cycle_row(number, cycle) for number, cycle in enumerate(cycles, 1)))
    )
    for number, cycle in enumerate(cycles, 1):
        if cycle.statuses:
            print(f"  cycle {number}, not 200: {cycle.statuses}")
    ratios = [cycle.ratio() for cycle in cycles]
    move_p99 = [percentile(cycle.moves, 0.99) for cycle in cycles]
    get_p99 = [percentile(cycle.gets, 0.99) for cycle in cycles]
    print(
        f"  median: move p99 {statistics.median(move_p99):.1f} ms, GET p99 "
        f"{statistics.median(get_p99):.1f} ms, p99 ratio {statistics.median(ratios):.2f} "
        f"(from {min(ratios):.2f} to {max(ratios):.2f}; the goal: at most 2)"
    )
    buckets = round(seconds / BUCKET_S)
    print(f"\n  each cycle, peak per {BUCKET_S:.0f} s:")
    for number, cycle in enumerate(cycles, 1):
        stalls = cycle.stalls
        rows: list[tuple[str, list[float], int]] = [
            ("in flight", stalls.in_flight.values(buckets), 1),
            ("generator late ms", stalls.generator_lag.values(buckets), 1000),
            ("generator GC ms", stalls.client_gc.values(buckets), 1000),
            ("generator choosing ms", stalls.client_choice.values(buckets), 1000),
            ("PostgreSQL busy", stalls.pg_active.values(buckets), 1),
            ("PostgreSQL lock waits", stalls.pg_lock_waits.values(buckets), 1),
            ("Redis PING ms", stalls.redis_ping.values(buckets), 1000),
        ]
        if collections is not None:
            server_gc = Timeline(stalls.began)
            for event in collections:
                server_gc.note(event["wall"], event["at"])
            rows.append(("server GC ms", server_gc.values(buckets), 1000))
        print(f"  cycle {number}:")
        for label, values, scale in rows:
            print(f"    {label:<22} " + " ".join(f"{value * scale:>4.0f}" for value in values))
        waits = ", ".join(f"{name} {count}" for name, count in stalls.pg_waits.most_common(5))
        print(f"    PostgreSQL's busy backends, sampled: {waits or 'none'}")
    if collections:
        print_collections(collections)


def print_collections(collections: list[dict[str, Any]]) -> None:
    """The web workers' slow collections, by generation and where they ran."""
    print("\n  the web workers' garbage collections of 5 ms or more, the whole run:")
    kinds: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for event in collections:
        where = "event loop" if event["on"] == "MainThread" else "a request thread"
        kinds.setdefault((event["generation"], where), []).append(event)
    for (generation, where), events in sorted(kinds.items()):
        walls = sorted(event["wall"] * 1000 for event in events)
        cpus = sorted(event["cpu"] * 1000 for event in events)
        print(
            f"    generation {generation} on {where}: {len(events)}, wall "
            f"{statistics.median(walls):.0f} ms median, {walls[-1]:.0f} at most; CPU "
            f"{statistics.median(cpus):.0f} ms median, {cpus[-1]:.0f} at most"
        )
