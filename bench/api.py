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
import os
import sys
from pathlib import Path

import uvloop

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.kit.measure import SERVER_PROCESSES, memory_summary, percentile  # noqa: E402
from bench.kit.seed import django_setup, make_players  # noqa: E402
from bench.kit.stack import Stack, add_stack_options, private_redis  # noqa: E402
from bench.loadgen.diagnostics import (  # noqa: E402
    print_server_profile,
    print_server_timing,
    profile_moves,
)
from bench.loadgen.players import choose, load  # noqa: E402
from bench.loadgen.rounds import (  # noqa: E402
    cheapest_get_rate,
    one_round,
    parse_versus,
    print_rounds,
    switch_settings,
)

# ``bench/move_cost.py`` plays with the same policy.
__all__ = ["choose", "main"]


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
    add_stack_options(parser)
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
