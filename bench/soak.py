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
2. starts docs/deploy.md's process model in production mode (as ``bench/api.py`` does):
   the web server (``python -m remi_site.serve --workers``), one Celery worker, the push
   worker and the beat;
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
import signal
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import uvloop

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.kit.processes import RedisServer  # noqa: E402
from bench.kit.seed import collector_settle, django_setup, make_players  # noqa: E402
from bench.kit.stack import (  # noqa: E402
    Stack,
    add_stack_options,
)
from bench.soaking.checks import check_move_log, user_ids  # noqa: E402
from bench.soaking.faults import Processes, ensure_bots, wait_healthy  # noqa: E402
from bench.soaking.players import Player  # noqa: E402
from bench.soaking.report import print_report  # noqa: E402
from bench.soaking.run import Cast, soak  # noqa: E402


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
    add_stack_options(parser)
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
        collector_settle()
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
