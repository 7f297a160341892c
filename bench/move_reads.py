"""What a move's reads cost, read two ways, measured move by move in one process.

    .venv/bin/python bench/move_reads.py [--moves 800]

A move reads its game (locked), the current deal and the seats with their players,
and after the commit whether the player now to move queued a draw. ``rows``, what
``games.play.act`` does on PostgreSQL: ``store.lock_for_move``, one statement for all
of it, its rows made into models by ``games.play.move_read``. ``joined``: the same
query said with the ORM (``store.read_joined``, what other databases run).
``apart``: ``store.lock_with_deal`` then ``store.seats`` (the queued draw then asked
after the commit), as the site read them before. The three take turns, move by move, in
the same process against the same scratch database (production settings, see
``bench/move_cost.py``), so that the machine's load weighs on both alike; it prints
each one's CPU per move, the web process's and PostgreSQL's backends', and the SQL
statements per move.

A benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.kit.stack import add_redis_options, production_django  # noqa: E402
from bench.move_cost import (  # noqa: E402
    WARMUP_MOVES,
    Table,
    database_cpu,
    statements_counted,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--moves", type=int, default=800, help="timed moves, both ways together")
    add_redis_options(parser)
    args = parser.parse_args()
    with production_django("remi_bench_reads", args.redis_port, args.redis_db, args.db_name):
        run(args.moves)


def run(moves: int) -> None:
    from games.play import store

    def apart(game: Any) -> Any:
        locked, row = store.lock_with_deal(game)
        return locked, row, store.seats(locked)

    rows = store.lock_for_move
    ways = {"rows": rows, "joined": store.read_joined, "apart": apart}
    cpu: dict[str, list[float]] = {name: [] for name in ways}
    database = dict.fromkeys(ways, 0.0)
    statements: dict[str, Counter[str]] = {name: Counter() for name in ways}
    table = Table()
    for _ in range(WARMUP_MOVES):
        client, url, body = table.next_move()
        table.answered(client.post(url, body, content_type="application/json"))
    names = list(ways)
    for index in range(moves):
        name = names[index % len(names)]
        store.lock_for_move = ways[name]  # type: ignore[assignment]
        client, url, body = table.next_move()
        database_before = database_cpu()
        with statements_counted(statements[name]):
            began = time.process_time()
            response = client.post(
                url,
                body,
                content_type="application/json",
                HTTP_IDEMPOTENCY_KEY=secrets.token_hex(8),
            )
            cpu[name].append(time.process_time() - began)
        database[name] += database_cpu() - database_before
        table.answered(response)
    store.lock_for_move = rows  # type: ignore[assignment]
    load = os.getloadavg()[0]
    print(f"\nbench/move_reads.py: {moves} moves taking turns, load average {load:.1f}")
    header = ("reads", "web CPU mean", "median", "PostgreSQL", "total", "SQL")
    print("{:8} {:>13} {:>8} {:>11} {:>8} {:>5}".format(*header))
    totals = {}
    for name in names:
        count = len(cpu[name])
        web = statistics.fmean(cpu[name]) * 1000
        pg = database[name] * 1000 / count
        totals[name] = web + pg
        sql = sum(statements[name].values()) / count
        print(
            f"{name:8} {web:10.2f} ms {statistics.median(cpu[name]) * 1000:5.2f} ms "
            f"{pg:8.2f} ms {web + pg:5.2f} ms {sql:5.2f}"
        )
    for name in ("joined", "apart"):
        print(f"rows / {name}: {totals['rows'] / totals[name]:.3f} of the CPU per move")


if __name__ == "__main__":
    main()
