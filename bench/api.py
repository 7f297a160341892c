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

8. with ``--open-loop``, instead of 5 to 7: the maximum move rate in a closed loop
   (``--seconds``), then moves and the cheapest GET as two Poisson arrival processes,
   each at half that rate, for ``--cycles`` cycles of ``--cycle-seconds``, every latency
   from the request's scheduled time (``bench/loadgen/open_loop.py``); prints each
   cycle's move and GET p50/p99, their p99 ratio, the requests in flight and, second by
   second, what the load generator, PostgreSQL, Redis and (with ``--time-server``) the
   web workers' garbage collector were doing.

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
from bench.kit.measure import percentile  # noqa: E402
from bench.kit.report import write_json  # noqa: E402
from bench.kit.seed import collector_settle, django_setup, make_players  # noqa: E402
from bench.kit.stack import Stack, add_stack_options, private_redis  # noqa: E402
from bench.loadgen.closed_loop import run_closed_loop  # noqa: E402
from bench.loadgen.diagnostics import (  # noqa: E402
    print_server_profile,
    print_server_timing,
    profile_moves,
    server_collections,
)
from bench.loadgen.open_loop import cycles_json, open_loop, print_open_loop  # noqa: E402
from bench.loadgen.players import choose, load  # noqa: E402
from bench.loadgen.rounds import (  # noqa: E402
    Round,
    one_round,
    parse_versus,
    print_rounds,
    switch_settings,
)

# ``bench/move_cost.py`` plays with the same policy.
__all__ = ["choose", "main"]


def arguments() -> argparse.Namespace:
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
        "--open-loop",
        action="store_true",
        help="the latency a player feels: the maximum move rate in a closed loop "
        "(--seconds), then moves and the cheapest GET as Poisson arrivals, each at half "
        "that rate, for --cycles cycles of --cycle-seconds (bench/loadgen/open_loop.py)",
    )
    parser.add_argument("--cycles", type=int, default=6, help="with --open-loop, at most 20")
    parser.add_argument("--cycle-seconds", type=float, default=10.0, help="at most 60")
    parser.add_argument(
        "--open-games",
        type=int,
        default=64,
        help="with --open-loop: matches kept going, so that an arrival finds one ready",
    )
    parser.add_argument("--json", metavar="FILE", help="with --open-loop: the cycles' figures")
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
        "print the means and the slowest and write them to FILE.<pid>",
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
    args.seconds = min(args.seconds, 120.0)
    if args.versus and args.rounds < 2:
        parser.error("--versus needs --rounds 2 or more")
    return args


def server_app(args: argparse.Namespace) -> str:
    """The ASGI application to serve: the site's, or one of the diagnostics' wrappers."""
    if args.time_server:
        return "bench.asgi_timed:application"
    if args.profile_server:
        return "bench.asgi_profiled:application"
    if args.without_live_hook:
        return "bench.asgi_without_live_hook:application"
    return "remi_site.asgi:application"


def main() -> None:
    args = arguments()
    with (
        private_redis(args.redis_port, args.redis_db) as redis_url,
        Stack(
            args.workers,
            server_app(args),
            redis_url=redis_url,
            port=args.web_port,
            db_name=args.db_name,
        ) as stack,
    ):
        if args.profile_server:
            stack.env["REMI_PROFILE_OUT"] = str(Path(args.profile_server).resolve())
        if args.time_server:
            timing_out = Path(args.time_server).resolve()
            for pattern in (".*", "-collections.*"):  # an earlier run's
                for stale in timing_out.parent.glob(timing_out.name + pattern):
                    stale.unlink()
            stack.env["REMI_TIMING_OUT"] = str(timing_out)
        django_setup(stack.env)
        # Before any --versus round restarts the server with other settings.
        settings = settings_line(args, stack.env)
        tokens = make_players(2 * max(args.games, args.open_games if args.open_loop else 0))
        stack.start_server()
        collector_settle()
        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            if args.open_loop:
                run_open_loop(runner, args, stack, tokens, redis_url)
                print(f"  settings            {settings}")
            else:
                run_closed_loop(runner, args, stack, tokens)
                print(f"  settings            {settings}")
                if args.rounds:
                    print_rounds(measure_rounds(runner, args, stack, tokens))
        if args.profile_server:
            stack.stop_server()
            print_server_profile(Path(args.profile_server).resolve())
        if args.time_server:
            print_server_timing(Path(args.time_server).resolve(), args.workers)
        if args.profile_moves and not args.open_loop:
            print(f"\nprofile of {args.profile_moves} moves in-process (pyinstrument):")
            print(profile_moves(args.profile_moves))


def settings_line(args: argparse.Namespace, env: dict[str, str]) -> str:
    return (
        f"uvicorn --workers {args.workers} (httptools, uvloop), "
        f"WEB_THREADS {env.get('WEB_THREADS', '16')}, "
        f"DB_POOL_SIZE {env.get('DB_POOL_SIZE', '8')}, prepared statements "
        f"{'off' if env.get('DB_PREPARED_STATEMENTS') == '0' else 'on'}, "
        f"{args.gets_per_second:.0f} GET/s asked"
    )


def run_open_loop(
    runner: asyncio.Runner, args: argparse.Namespace, stack: Stack, tokens: list[str], redis: str
) -> None:
    """The maximum move rate in a closed loop, then the open-loop cycles at half of it."""
    assert stack.server is not None
    load_before = os.getloadavg()
    closed = runner.run(
        load(
            stack.url,
            tokens[: 2 * args.games],
            args.seconds,
            args.warmup,
            stack.server.pid,
            args.gets_per_second,
            stack.db_name,
        )
    )
    max_rate = closed.accepted / closed.seconds  # type: ignore[attr-defined]
    seconds = min(args.cycle_seconds, 60.0)
    cycles = runner.run(
        open_loop(
            stack.url,
            tokens[: 2 * args.open_games],
            max_rate / 2,
            cycles=min(args.cycles, 20),
            cycle_seconds=seconds,
            warmup=args.warmup,
            db_name=stack.db_name,
            redis_url=redis,
        )
    )
    print(
        f"\nbench/api.py --open-loop: uvicorn x{args.workers} workers, PostgreSQL + Redis, "
        f"production settings; {os.cpu_count()} cores, load average "
        f"{load_before[0]:.1f} before, {os.getloadavg()[0]:.1f} after"
    )
    print(
        f"  closed loop         {max_rate:.0f} moves/s with {args.games} games "
        f"({args.seconds:.0f} s), move p99 {percentile(closed.move_latency, 0.99):.1f} ms"
    )
    collections = None
    if args.time_server:
        collections = server_collections(Path(args.time_server).resolve())
    print_open_loop(cycles, max_rate / 2, max_rate, seconds, collections)
    if args.json:
        write_json(args.json, {"max move rate": max_rate, **cycles_json(cycles)})


def measure_rounds(
    runner: asyncio.Runner, args: argparse.Namespace, stack: Stack, tokens: list[str]
) -> list[Round]:
    """``--rounds`` short rounds, every other one with the ``--versus`` settings."""
    versus = parse_versus(args.versus)
    as_started = {name: stack.env.get(name) for name in versus}
    rounds = []
    for number in range(min(args.rounds, 20)):
        setting = ""
        if versus:
            setting = switch_settings(stack, as_started, versus, number % 2 == 1)
        assert stack.server is not None
        measured_round = runner.run(
            one_round(
                stack.url,
                tokens[: 2 * args.games],
                min(args.round_seconds, 30.0),
                stack.server.pid,
                args.gets_per_second,
                stack.db_name,
            )
        )
        measured_round.setting = setting
        rounds.append(measured_round)
    return rounds


if __name__ == "__main__":
    main()
