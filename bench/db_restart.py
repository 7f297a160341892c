"""What a PostgreSQL restart does to the requests that follow it, with the kept
connections checked before use (``DB_CONN_CHECKS``, the default) and without.

    .venv/bin/python bench/db_restart.py [--restarts 4] [--requests 8] [--workers 2]

Starts the production-mode web server (bench/kit/stack.py) on a scratch database,
signs a player up, and then, the two settings by turns (the server restarted with
each), warms the pools with reads, ends every connection to the database as a restart
does (``pg_terminate_backend``, waiting until their processes are gone) and sends
``--requests`` authenticated reads one after another, each on a connection of its own
(``GET /api/v1/me``: the token's lookup is a query). Prints, for each setting, how
many of those reads failed and how long the first one and the others took. A
benchmark, not a test: it asserts nothing (tests/remi_site/test_lost_services.py holds
the behaviour).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import django
import httpx
import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.kit.stack import (  # noqa: E402
    PG_ADMIN_URL,
    Stack,
    add_stack_options,
    private_redis,
)

PASSWORD = "correct-horse-battery-staple"
SETTINGS = {"checked": "1", "unchecked": "0"}


def _token(url: str) -> str:
    with httpx.Client(base_url=f"{url}/api/v1", timeout=30) as api:
        body = {"username": "restart", "password": PASSWORD}
        api.post("/auth/signup", json=body)
        answer = api.post("/auth/login", json={**body, "token_name": "bench"})
        answer.raise_for_status()
        token: str = answer.json()["token"]["token"]
        return token


def _end_connections(db_name: str) -> None:
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as admin:
        ended = [
            pid
            for pid, _signalled in admin.execute(
                "SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                [db_name],
            )
        ]
        deadline = time.monotonic() + 30
        while admin.execute(
            "SELECT 1 FROM pg_stat_activity WHERE pid = ANY(%s)", [ended]
        ).fetchone():
            if time.monotonic() > deadline:
                raise RuntimeError("the ended connections' processes did not exit")
            time.sleep(0.02)


def _reads(url: str, token: str, count: int) -> list[tuple[int, float]]:
    """(status, seconds) of ``count`` reads, one after another, each on a connection of
    its own (as many clients' would be), so that every web worker gets some."""
    found = []
    headers = {"Authorization": f"Bearer {token}"}
    for _ in range(count):
        started = time.monotonic()
        status = httpx.get(f"{url}/api/v1/me", headers=headers, timeout=60).status_code
        found.append((status, time.monotonic() - started))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--restarts", type=int, default=4, help="restarts per setting")
    parser.add_argument("--requests", type=int, default=8, help="reads after each restart")
    parser.add_argument("--workers", type=int, default=2, help="web worker processes")
    add_stack_options(parser)
    args = parser.parse_args()

    results: dict[str, list[list[tuple[int, float]]]] = {name: [] for name in SETTINGS}
    with (
        private_redis(args.redis_port, args.redis_db) as redis_url,
        Stack(args.workers, redis_url=redis_url, port=args.web_port, db_name=args.db_name) as stack,
    ):
        # The stack closes this process's database connections when it drops the
        # database: this process is the site's Django too (as bench/api.py's is).
        os.environ.update(stack.env)
        django.setup()
        token = ""
        for round_number in range(args.restarts * len(SETTINGS)):
            name = list(SETTINGS)[round_number % len(SETTINGS)]
            stack.stop_server()
            stack.env["DB_CONN_CHECKS"] = SETTINGS[name]
            stack.start_server()
            token = token or _token(stack.url)
            _reads(stack.url, token, 40)  # every worker's pool holds connections
            _end_connections(stack.db_name)
            results[name].append(_reads(stack.url, token, args.requests))

    load = Path("/proc/loadavg").read_text().split()[0]
    print(
        f"bench/db_restart.py: {args.restarts} restarts per setting, {args.requests} reads "
        f"after each, {args.workers} web workers (load average at the end {load})"
    )
    for name, rounds in results.items():
        failed = sum(status != 200 for reads in rounds for status, _ in reads)
        first = [reads[0][1] for reads in rounds]
        rest = [seconds for reads in rounds for _, seconds in reads[1:]]
        count = len(rounds) * args.requests
        print(
            f"  {name:9} DB_CONN_CHECKS={SETTINGS[name]}: {failed} of {count} reads failed; "
            f"the first read after a restart {statistics.median(first):.2f} s "
            f"(median; {min(first):.2f} to {max(first):.2f}), the others "
            f"{statistics.median(rest) * 1000:.0f} ms (median; at most {max(rest):.2f} s)"
        )


if __name__ == "__main__":
    main()
