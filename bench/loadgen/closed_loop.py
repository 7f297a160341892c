"""The closed loop of ``bench/api.py``: the baseline GET with as many requests in flight
as players and as games, then the moves, and the report of their rates, latencies and
CPU costs.
"""

from __future__ import annotations

import argparse
import asyncio
import os

from bench.kit.measure import SERVER_PROCESSES, memory_summary, percentile
from bench.kit.stack import Stack
from bench.loadgen.players import load
from bench.loadgen.rounds import cheapest_get_rate


def run_closed_loop(
    runner: asyncio.Runner, args: argparse.Namespace, stack: Stack, tokens: list[str]
) -> None:
    """The baseline GET (as many in flight as players, then as games), the moves, and
    their report."""
    assert stack.server is not None
    seconds = args.seconds
    tokens = tokens[: 2 * args.games]
    load_before = os.getloadavg()
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
    print(f"  web workers' memory {memory_summary(stats.memory)} (resident, sampled every second)")
