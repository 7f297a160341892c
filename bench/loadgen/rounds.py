"""The baseline of ``bench/api.py`` (the cheapest authenticated GET in a closed loop)
and its alternating rounds: the baseline then the moves, each round's ratio, and with
``--versus`` a server restarted with other settings every other round.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from dataclasses import dataclass, field

import aiohttp

from bench.kit.measure import SERVER_PROCESSES, cpu_seconds, cpu_used, percentile
from bench.kit.report import table
from bench.kit.stack import (
    Stack,
)
from bench.loadgen.players import Client, load


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
    columns = (
        ("round", "d"),
        ("GET/s", ".0f"),
        ("moves/s", ".0f"),
        ("ratio", ".2f"),
        ("p50 ms", ".1f"),
        ("p99 ms", ".1f"),
        ("load", ".1f"),
        ("settings", "<s"),
    )
    rows = [
        (number, measured.get_rate, measured.move_rate, measured.ratio, measured.move_p50)
        + (measured.move_p99, measured.load_average, measured.setting)
        for number, measured in enumerate(rounds, 1)
    ]
    print(table(columns, rows))
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
