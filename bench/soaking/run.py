"""The soak itself: the ramp that measures the maximum move rate, then the paced load with
the faults, the samplers and the players, to an ``Outcome``.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from dataclasses import dataclass, field

import aiohttp

from bench.kit.measure import sample_memory
from bench.kit.stack import (
    Stack,
)
from bench.soaking.checks import Watch, watch_server
from bench.soaking.faults import Fault, Processes, fault_plan, inject_faults, watch_processes
from bench.soaking.limits import (
    HEALTH_WAIT_S,
    MEMORY_GROWTH,
    PROGRESS_EVERY_S,
    REQUEST_TIMEOUT_S,
    RETRY_FOR_S,
)
from bench.soaking.players import (
    MoveLog,
    Pace,
    Player,
    Players,
    Tally,
    keep_playing,
    one_bot_game,
    one_match,
    one_sleeper_game,
)
from bench.soaking.report import print_progress, print_ramp


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
