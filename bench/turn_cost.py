"""What a move and a whole turn cost the server against the cheapest authenticated GET,
in-process: CPU time of this process, of PostgreSQL and of Redis.

    .venv/bin/python bench/turn_cost.py [--turns 100] [--rounds 4]

The set-up is ``bench/move_cost.py``'s (a scratch PostgreSQL database and a Redis server
of its own, production settings, Django's test client through the whole stack). Two
players play 2-player serbian games turn after turn, each turn a draw and a discard (a
card from the hand before the draw: the plan is made before it is sent). Each round
plays ``--turns`` turns in each of four ways and ``--turns`` GETs
(``/api/v1/me/vacation``), every other round in the reverse order, so that a change in
the host's load reaches all of them alike:

- one by one (``POST /games/{id}/actions`` twice), answered with the whole game;
- one by one, answered with where the game stands (``Prefer: return=minimal``);
- in one request (``POST /games/{id}/turn``), the whole game;
- in one request, ``Prefer: return=minimal``.

Each request of the one-by-one turns is timed on its own as well: those are the single
moves (the draw and the discard). The ratios are of the sums over the rounds, the
server's CPU being the web process's, PostgreSQL's backends' and the Redis server's
(each from the scheduler's own count). The state each mover plans from is read untimed.
``--counts N`` then plays N more turns each way counting each call's Python function
calls and SQL statements, and splits PostgreSQL's CPU by statement (the backend's own
count read around each statement and each commit).

A benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.kit.measure import (  # noqa: E402
    database_cpu,
    database_cpu_by_statement,
    redis_calls,
    statements_counted,
)
from bench.kit.stack import add_redis_options, production_django  # noqa: E402
from bench.move_cost import Cost, Table  # noqa: E402

WARMUP_TURNS = 20
MINIMAL = {"HTTP_PREFER": "return=minimal"}


class Turns(Table):
    """``bench/move_cost.py``'s table, played a whole turn at a time."""

    def plan(self) -> tuple[Any, dict[str, Any]]:
        """The mover's client and the turn it plans from the state it reads (untimed)."""
        if self.view["status"] != "active" or self.view["to_move"] is None:
            self.new_match()
        client = self.clients[self.view["to_move"]]
        current = client.get(f"/api/v1/games/{self.game_id}").json()
        deal = current["deal"]
        keep = [pair["card"] for pair in deal["hand"] if pair["card"] != "JK"]
        actions = ["draw"] if deal["phase"] == "draw" else []
        actions.append(f"discard {keep[0]}")
        return client, {"actions": actions, "ply": current["ply"]}

    def answered(self, response: Any) -> None:
        if response.status_code != 200:
            raise RuntimeError(f"refused: {response.status_code} {response.content!r}")
        self.view = response.json()["game"]


class RedisCpu:
    """The bench's Redis server's CPU so far, in seconds (its threads' scheduler counts)."""

    def __init__(self, url: str) -> None:
        import redis

        self.pid = int(redis.Redis.from_url(url).info("server")["process_id"])

    def __call__(self) -> float:
        total = 0
        for task in Path(f"/proc/{self.pid}/task").iterdir():
            with contextlib.suppress(OSError, ValueError, IndexError):
                total += int((task / "schedstat").read_text().split()[0])
        return total / 1e9


@dataclass
class Meter:
    """Adds what the server spent on a stretch of calls to a ``Cost``."""

    redis_url: str
    redis_cpu: RedisCpu

    def timed(self, costs: list[Cost], calls: Callable[[], Any]) -> Any:
        """Run ``calls()`` and add its cost to each of ``costs``."""
        commands = redis_calls(self.redis_url)  # (an INFO: outside the Redis window)
        redis_before, database_before = self.redis_cpu(), database_cpu()
        began = time.process_time()
        result = calls()
        cpu = time.process_time() - began
        database, redis_cpu = database_cpu() - database_before, self.redis_cpu() - redis_before
        commands = redis_calls(self.redis_url) - commands
        for cost in costs:
            cost.cpu.append(cpu)
            cost.database_cpu += database
            cost.redis_cpu += redis_cpu
            cost.redis_commands += commands
        return result


class Counter(Meter):
    """Counts instead of timing: the Python function calls (cProfile's count) and the
    SQL statements of each stretch, which the host's load does not change."""

    def timed(self, costs: list[Cost], calls: Callable[[], Any]) -> Any:
        import cProfile
        import pstats
        from collections import Counter as Tally

        statements: Tally[str] = Tally()
        by_statement: Tally[str] = Tally()
        profile = cProfile.Profile()
        with statements_counted(statements), database_cpu_by_statement(by_statement):
            profile.enable()
            result = calls()
            profile.disable()
        python_calls = pstats.Stats(profile).total_calls  # type: ignore[attr-defined]
        for cost in costs:
            cost.cpu.append(0.0)
            cost.python_calls += python_calls
            cost.statements.update(statements)
            cost.database_cpu_by_statement.update(by_statement)
        return result


@dataclass
class Way:
    """One way of sending a turn, and what it cost."""

    name: str
    together: bool
    headers: dict[str, str]
    turn: Cost
    draw: Cost | None = None
    discard: Cost | None = None

    def play(self, table: Turns, meter: Meter, client: Any, turn: dict[str, Any]) -> None:
        if self.together:
            meter.timed([self.turn], lambda: in_one(table, client, turn, self.headers))
            return
        began = len(self.turn.cpu)
        ply = turn["ply"]
        for action in turn["actions"]:
            single = self.draw if action == "draw" else self.discard
            assert single is not None
            step = Cost("step")
            meter.timed([step, single], partial(send, table, client, action, ply, self))
            ply = table.view["ply"]
            if len(self.turn.cpu) == began:
                self.turn.cpu.append(0.0)
            self.turn.cpu[-1] += step.cpu[0]
            self.turn.database_cpu += step.database_cpu
            self.turn.redis_cpu += step.redis_cpu
            self.turn.redis_commands += step.redis_commands
            self.turn.python_calls += step.python_calls
            self.turn.statements.update(step.statements)
            self.turn.database_cpu_by_statement.update(step.database_cpu_by_statement)


def send(table: Turns, client: Any, action: str, ply: int, way: Way) -> None:
    table.answered(
        client.post(
            f"/api/v1/games/{table.game_id}/actions",
            {"action": action, "ply": ply},
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=secrets.token_hex(8),
            **way.headers,
        )
    )


def in_one(table: Turns, client: Any, turn: dict[str, Any], headers: dict[str, str]) -> None:
    table.answered(
        client.post(
            f"/api/v1/games/{table.game_id}/turn",
            turn,
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=secrets.token_hex(8),
            **headers,
        )
    )


def ways() -> list[Way]:
    out = []
    for answer, headers in (("whole game", {}), ("minimal", MINIMAL)):
        out.append(
            Way(
                f"one by one, {answer}",
                False,
                headers,
                Cost(f"turn as 2 requests, {answer}"),
                Cost(f"a move: draw, {answer}"),
                Cost(f"a move: discard, {answer}"),
            )
        )
        out.append(Way(f"in one, {answer}", True, headers, Cost(f"turn in 1 request, {answer}")))
    return out


def run(args: argparse.Namespace, redis_url: str) -> None:
    table = Turns()
    meter = Meter(redis_url, RedisCpu(redis_url))
    every = ways()
    for _ in range(WARMUP_TURNS):
        for way in every:
            client, turn = table.plan()
            way.play(table, meter, client, turn)
    for way in every:  # the warm-up's figures are not kept
        for cost in (way.turn, way.draw, way.discard):
            if cost is not None:
                cost.cpu.clear()
                cost.database_cpu = cost.redis_cpu = cost.redis_commands = 0
    get = Cost("GET /api/v1/me/vacation")
    draws = 0
    for number in range(args.rounds):
        # Every other round in the reverse order, so that no way always comes first.
        for way in every if number % 2 == 0 else [None, *reversed(every)]:
            for _ in range(args.turns):
                if way is None:
                    meter.timed([get], lambda: table.clients[0].get("/api/v1/me/vacation"))
                    continue
                client, turn = table.plan()
                draws += turn["actions"][0] == "draw"
                way.play(table, meter, client, turn)
        if number % 2 == 0:
            for _ in range(args.turns):
                meter.timed([get], lambda: table.clients[0].get("/api/v1/me/vacation"))
    report(every, get, draws, args)
    report_updates()
    if args.counts:
        counted, counted_get = ways(), Cost(get.name)
        counter = Counter(redis_url, meter.redis_cpu)
        for _ in range(args.counts):
            for way in counted:
                client, turn = table.plan()
                way.play(table, counter, client, turn)
            counter.timed([counted_get], lambda: table.clients[0].get("/api/v1/me/vacation"))
        report_counts(counted, counted_get, args)


def total(cost: Cost) -> float:
    """The server's CPU per call, ms: the web process, PostgreSQL and Redis."""
    return cost.mean_ms + cost.database_ms + cost.redis_cpu * 1000 / max(len(cost.cpu), 1)


def report_updates() -> None:
    """How many of the game and deal rows' updates were heap-only (no new index entry),
    and the tables' size: a non-HOT update leaves its old version for vacuum."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_force_next_flush()")
        cursor.execute(
            "SELECT relname, n_tup_upd, n_tup_hot_upd, pg_table_size(relid) "
            "FROM pg_stat_user_tables WHERE relname IN ('games_game', 'games_deal') "
            "ORDER BY relname DESC"
        )
        rows = cursor.fetchall()
    print(
        "  updates heap-only (HOT) so far: "
        + "; ".join(
            f"{name} {hot} of {updated}, {size // 1024} kB" for name, updated, hot, size in rows
        )
    )


def report(every: list[Way], get: Cost, draws: int, args: argparse.Namespace) -> None:
    turns = sum(len(way.turn.cpu) for way in every)
    print(
        f"\nbench/turn_cost.py: {args.rounds} rounds of {args.turns} turns in each of "
        f"{len(every)} ways and {args.turns} GETs, in-process, PostgreSQL + Redis, "
        f"production settings; load average {os.getloadavg()[0]:.2f}; turns with a draw: "
        f"{draws} of {turns}"
    )
    print(
        f"{'call':<34} {'web CPU':>8} {'p50':>6} {'p99':>6} {'PG CPU':>7} {'Redis CPU':>9} "
        f"{'Redis cmds':>10} {'server':>7} {'x GET':>6}"
    )
    rows: list[Cost] = []
    for way in every:
        rows += [cost for cost in (way.draw, way.discard) if cost is not None]
        if way.draw is not None and way.discard is not None:
            rows.append(_pooled(f"a move (either), {way.name.split(', ')[1]}", way))
        rows.append(way.turn)
    for cost in (*rows, get):
        print(
            f"{cost.name:<34} {cost.mean_ms:>6.2f}ms {cost.ms(0.5):>6.2f} {cost.ms(0.99):>6.2f} "
            f"{cost.database_ms:>5.2f}ms {cost.redis_cpu * 1000 / max(len(cost.cpu), 1):>7.3f}ms "
            f"{cost.per_call(cost.redis_commands):>10.2f} {total(cost):>5.2f}ms "
            f"{total(cost) / total(get):>5.2f}x"
        )
    print(
        "  server: CPU per call of the web process, PostgreSQL and Redis together; x GET: "
        "that against the GET's (goals: a move at most 1.5x, a turn in one request at "
        "most 2x)"
    )


def report_counts(counted: list[Way], get: Cost, args: argparse.Namespace) -> None:
    print(
        f"\n--counts: {args.counts} turns each way and {args.counts} GETs, each call's Python "
        "function calls (cProfile's count) and SQL statements: what the host's load does not "
        "change"
    )
    print(
        f"{'call':<34} {'Python calls':>12} {'x GET':>6} {'SQL':>5}  PostgreSQL's CPU by "
        "statement (ms per call; the load changes these)"
    )
    rows: list[Cost] = []
    for way in counted:
        rows += [cost for cost in (way.draw, way.discard, way.turn) if cost is not None]
    for cost in (*rows, get):
        calls = cost.per_call(cost.python_calls)
        split = ", ".join(
            f"{kind} {cost.per_call(ns) / 1e6:.2f}"
            for kind, ns in cost.database_cpu_by_statement.most_common()
        )
        print(
            f"{cost.name:<34} {calls:>12.0f} {calls / get.per_call(get.python_calls):>5.2f}x "
            f"{cost.per_call(sum(cost.statements.values())):>5.2f}  {split}"
        )


def _pooled(name: str, way: Way) -> Cost:
    assert way.draw is not None and way.discard is not None
    pooled = Cost(name, cpu=way.draw.cpu + way.discard.cpu)
    for part in (way.draw, way.discard):
        pooled.database_cpu += part.database_cpu
        pooled.redis_cpu += part.redis_cpu
        pooled.redis_commands += part.redis_commands
    return pooled


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--turns", type=int, default=100, help="timed turns each way per round")
    parser.add_argument("--rounds", type=int, default=4, help="rounds (alternating the kinds)")
    parser.add_argument(
        "--counts",
        type=int,
        default=0,
        metavar="N",
        help="then count the Python function calls and SQL statements of N turns each way, "
        "and time PostgreSQL's CPU by statement",
    )
    add_redis_options(parser)
    args = parser.parse_args()
    with production_django(
        "remi_bench_turn", args.redis_port, args.redis_db, args.db_name
    ) as redis_url:
        run(args, redis_url)


if __name__ == "__main__":
    main()
