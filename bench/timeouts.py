"""Timeout precision in live games: how late after its deadline a timeout is applied.

    .venv/bin/python bench/timeouts.py [--games 100] [--seconds-per-turn 10] [--spread 10]

All on 127.0.0.1, production mode (PostgreSQL, Redis): creates a scratch
database (dropped at the end), starts a real Celery worker with its beat
(``celery -A remi_site worker -B``: the deadline sweep every ``DEADLINE_SWEEP_S``
seconds, 1 by default), then starts ``--games`` live 2-player
games spread over ``--spread`` seconds, their players marked connected (so the
absent-player wait does not apply) and idle. For each game it records the
deadline of the first turn and the time the server's timeout move was
committed, and prints the lateness p50/p99/max (target: within 3 s).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.kit.stack import (  # noqa: E402
    add_stack_options,
    private_redis,
    production_env,
    scratch_database,
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds-per-turn", type=int, default=10)
    parser.add_argument("--spread", type=float, default=10.0)
    add_stack_options(parser, web=False)
    args = parser.parse_args()

    db_name = args.db_name or f"remi_bench_timeouts_{secrets.token_hex(3)}"
    with private_redis(args.redis_port, args.redis_db) as redis_url, scratch_database(db_name):
        run(args, db_name, redis_url)


def run(args: argparse.Namespace, db_name: str, redis_url: str) -> None:
    env = production_env(db_name, redis_url)
    env["REMI_VAR_DIR"] = tempfile.mkdtemp(prefix="remi-bench-")
    os.environ.update(env)
    worker = None
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
        )
        import django

        django.setup()
        from django.contrib.auth.models import User

        from games.live import presence
        from games.models import Move
        from games.play.create import game_create
        from games.play.lobby import game_join, game_start

        worker = subprocess.Popen(
            [
                sys.executable, "-m", "celery", "-A", "remi_site", "worker", "-B",
                "-c", "2", "-l", os.environ.get("BENCH_WORKER_LOG", "WARNING"),
                "--without-gossip", "--without-mingle",
                "-s", str(Path(env["REMI_VAR_DIR"]) / "beat-schedule"),
            ],
            cwd=ROOT,
            env=env,
            start_new_session=True,
        )  # fmt: skip
        time.sleep(3)
        games = []
        for index in range(args.games):
            players = [
                User.objects.create_user(username=f"t{index}_{seat}", password=None)
                for seat in range(2)
            ]
            for player in players:
                presence.presence_touch(user_id=player.pk, channel=f"bench{player.pk}", games=[])
            game = game_create(
                owner=players[0],
                preset="serbian",
                players=2,
                time_control="live",
                seconds_per_turn=args.seconds_per_turn,
            )
            game_join(game=game, user=players[1])
            for player in players:
                presence.presence_touch(
                    user_id=player.pk, channel=f"bench{player.pk}", games=[game.public_id]
                )
            game = game_start(game=game, user=players[0])
            games.append((game.pk, game.deadline_at))
            time.sleep(args.spread / args.games)
        print(f"{len(games)} live games started; waiting for their first deadlines")
        time.sleep(args.seconds_per_turn + 6)
        late = []
        missing = 0
        for pk, deadline in games:
            first = Move.objects.filter(game_id=pk, user=None).order_by("ply").first()
            if first is None:
                missing += 1
                continue
            late.append((first.created_at - deadline).total_seconds())
        late.sort()
        if late:
            q = (
                statistics.quantiles(late, n=100, method="inclusive")
                if len(late) > 1
                else [late[0]] * 99
            )
            print(
                f"timeouts applied: {len(late)} of {len(games)} (missing {missing}); "
                f"lateness after the deadline s: p50 {q[49]:.2f}  p99 {q[98]:.2f}  "
                f"max {late[-1]:.2f}  min {late[0]:.2f}"
            )
        # Each deadline that has passed allows one server turn; more would be a double.
        from django.utils import timezone

        now = timezone.now()
        doubled = 0
        for pk, deadline in games:
            passed = int((now - deadline).total_seconds() // args.seconds_per_turn) + 1
            turns = Move.objects.filter(game_id=pk, user=None, kind="discard").count()
            doubled += turns > passed
        print(f"games with a timeout applied twice: {doubled}")
    finally:
        if worker is not None:
            # The worker's warm shutdown stops its pool and its beat; a signal to the
            # whole group killed them under it (a WorkerLostError each).
            worker.send_signal(signal.SIGTERM)
            try:
                worker.wait(20)
            finally:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(worker.pid, signal.SIGKILL)


if __name__ == "__main__":
    main()
