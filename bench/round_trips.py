"""What a move's transaction costs in round trips: BEGIN, a locking read, a write and
COMMIT, against the same read and a guarded write without a transaction around them.

    .venv/bin/python bench/round_trips.py [--loops 3000]

A move runs one transaction per command (lock, engine, store): four round trips to
PostgreSQL. Checking the ply in the write itself (``UPDATE ... WHERE ply = %s``) would
need two. This measures what the two extra trips cost, in CPU time of this process
and of its PostgreSQL backend (``/proc/<pid>/schedstat``), on rows shaped like a
game's (a scratch database, dropped at the end), the two ways by turns so that the
host's load weighs on both alike. psycopg with prepared statements, as the web server
runs them. A benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.kit.stack import PG_ADMIN_URL, add_database_option  # noqa: E402

ROWS = 100
SNAPSHOT = "x" * 3000  # about a deal's snapshot


def backend_cpu(pid: int) -> float:
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e9


def locked(conn: psycopg.Connection, game: int) -> None:
    with conn.transaction():
        ply, _state = conn.execute(
            "SELECT ply, state FROM game WHERE id = %s FOR UPDATE", (game,), prepare=True
        ).fetchone()  # type: ignore[misc]
        conn.execute(
            "UPDATE game SET ply = %s, state = %s WHERE id = %s",
            (ply + 1, SNAPSHOT, game),
            prepare=True,
        )


def guarded(conn: psycopg.Connection, game: int) -> None:
    ply, _state = conn.execute(
        "SELECT ply, state FROM game WHERE id = %s", (game,), prepare=True
    ).fetchone()  # type: ignore[misc]
    updated = conn.execute(
        "UPDATE game SET ply = %s, state = %s WHERE id = %s AND ply = %s",
        (ply + 1, SNAPSHOT, game, ply),
        prepare=True,
    )
    assert updated.rowcount == 1


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--loops", type=int, default=3000, help="writes of each kind")
    add_database_option(parser)
    args = parser.parse_args()
    name = args.db_name or f"remi_bench_trips_{os.getpid()}"
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        run(PG_ADMIN_URL.rsplit("/", 1)[0] + "/" + name, args.loops)
    finally:
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def run(url: str, loops: int) -> None:
    with psycopg.connect(url, autocommit=True) as setup:
        setup.execute("CREATE TABLE game (id int PRIMARY KEY, ply int NOT NULL, state text)")
        setup.execute(
            "INSERT INTO game SELECT i, 0, %s FROM generate_series(1, %s) i", (SNAPSHOT, ROWS)
        )
    ways = {"transaction (4 trips)": locked, "guarded write (2 trips)": guarded}
    cpu: dict[str, list[float]] = {way: [] for way in ways}
    with psycopg.connect(url, autocommit=True) as conn:
        pid = conn.info.backend_pid
        for warm in range(200):
            for write in ways.values():
                write(conn, 1 + warm % ROWS)
        for batch in range(20):
            for way, write in ways.items():
                began, backend = time.process_time(), backend_cpu(pid)
                for i in range(loops // 20):
                    write(conn, 1 + (batch + i) % ROWS)
                spent = time.process_time() - began + backend_cpu(pid) - backend
                cpu[way].append(spent / (loops // 20))
    print(f"\nbench/round_trips.py: {loops} writes each way, load average {os.getloadavg()[0]:.2f}")
    base = statistics.median(cpu["transaction (4 trips)"])
    for way, samples in cpu.items():
        median = statistics.median(samples)
        print(
            f"  {way:<26} {median * 1000:.3f} ms of CPU per write (this process and its "
            f"backend; median of 20 batches), {median / base:.2f}x"
        )
    saved = base - statistics.median(cpu["guarded write (2 trips)"])
    print(f"  two round trips fewer save {saved * 1000:.3f} ms of CPU per write")


if __name__ == "__main__":
    main()
