"""What the benchmarks measure, one way: percentiles, the CPU time of the stack's
processes (web server, PostgreSQL's backends of one database, Redis, the load generator),
the web workers' memory, the load average, and in-process: the SQL statements run, the
Redis server's command count and the CPU of one database's backends.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg

from bench.kit.stack import PG_ADMIN_URL


def cpu_seconds(server_pid: int, db_name: str) -> dict[str, dict[int, float]]:
    """CPU time used so far, by process, by the web server (all workers), PostgreSQL,
    Redis and this load generator: where the machine's two cores go. PostgreSQL
    counts the backends serving the bench's database and the server's own background
    processes (WAL writer, checkpointer...), not other databases' backends (the
    machine may be shared)."""
    import psutil

    def used(process: psutil.Process) -> float:
        try:
            times = process.cpu_times()
            return float(times.user + times.system)
        except psutil.Error:
            return 0.0

    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        ours = {
            pid
            for (pid,) in conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s OR datname IS NULL",
                (db_name,),
            )
        }
    server = psutil.Process(server_pid)
    me = psutil.Process()
    out: dict[str, dict[int, float]] = {
        "uvicorn": {p.pid: used(p) for p in [server, *server.children(recursive=True)]},
        "postgres": {},
        "redis": {},
        "load generator": {me.pid: used(me)},
    }
    for process in psutil.process_iter(["name"]):
        name = process.info["name"] or ""
        if name.startswith("postgres") and process.pid in ours:
            out["postgres"][process.pid] = used(process)
        elif name.startswith("redis-server"):
            out["redis"][process.pid] = used(process)
    return out


async def sample_memory(server_pid: int, into: dict[int, list[float]]) -> None:
    """The web workers' resident memory, in MB, every second (until cancelled); the
    server's other children (multiprocessing's resource tracker) are left out."""
    import psutil

    server = psutil.Process(server_pid)
    while True:
        for worker in server.children(recursive=True):
            with contextlib.suppress(psutil.Error):
                if "spawn_main" in " ".join(worker.cmdline()):
                    into.setdefault(worker.pid, []).append(worker.memory_info().rss / 2**20)
        await asyncio.sleep(1.0)


def memory_summary(memory: dict[int, list[float]]) -> str:
    """Each web worker's sampled memory: at the start, at its peak, at the end."""
    return (
        "; ".join(
            f"{samples[0]:.0f} MB at the start, {max(samples):.0f} at most, {samples[-1]:.0f} "
            "at the end"
            for samples in memory.values()
            if samples
        )
        or "not sampled"
    )


def cpu_used(
    before: dict[str, dict[int, float]], after: dict[str, dict[int, float]]
) -> dict[str, float]:
    """CPU seconds between two ``cpu_seconds`` samples (a process new since the first
    one counts from its start)."""
    return {
        name: sum(seconds - before[name].get(pid, 0.0) for pid, seconds in after[name].items())
        for name in after
    }


# The processes whose CPU is the server's cost of a request.
SERVER_PROCESSES = ("uvicorn", "postgres", "redis")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


class CpuMeter:
    """CPU seconds used so far by this process and the PostgreSQL backends serving the
    bench's database: the cost of a call, whatever else the (shared) machine runs.
    Linux counts in clock ticks (10 ms): meaningful as a mean over many calls."""

    def __init__(self, db_name: str) -> None:
        self.db_name = db_name

    def reading(self) -> float:
        import psutil

        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
            pids = [
                pid
                for (pid,) in conn.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = %s", (self.db_name,)
                )
            ]
        used = time.process_time()
        for pid in pids:
            try:
                times = psutil.Process(pid).cpu_times()
            except psutil.Error:
                continue
            used += times.user + times.system
        return used


def load_average() -> str:
    return " / ".join(f"{value:.2f}" for value in os.getloadavg())


@contextmanager
def statements_counted(into: Counter[str]) -> Iterator[None]:
    """Count the SQL statements run meanwhile, by their first word."""
    from django.db import connection

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        into[sql.split(None, 1)[0].upper()] += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        yield


def statement_kind(sql: str) -> str:
    """A statement's first word, and whether it locks rows (a move's read does)."""
    kind = sql.split(None, 1)[0].upper()
    return f"{kind} ... FOR UPDATE" if "FOR UPDATE" in sql else kind


@contextmanager
def database_cpu_by_statement(into: Counter[str]) -> Iterator[None]:
    """Add, by statement kind (``statement_kind``), the CPU nanoseconds this process's
    PostgreSQL backend spent meanwhile in each statement, and in each commit as
    ``COMMIT`` (the commit is no statement Django executes: it is timed where Django's
    connection commits). The backend's CPU from its scheduler count, read before and
    after: what it did for the statement alone, as the server runs one at a time."""
    from django.db import connection
    from django.db.backends.base.base import BaseDatabaseWrapper

    def backend_cpu(wrapper: Any) -> int:
        pid = wrapper.connection.info.backend_pid
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0])

    def timed(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        before = backend_cpu(connection)
        result = execute(sql, params, many, context)
        into[statement_kind(sql)] += backend_cpu(connection) - before
        return result

    plain_commit = BaseDatabaseWrapper._commit

    def commit(wrapper: Any) -> Any:
        before = backend_cpu(wrapper)
        result = plain_commit(wrapper)
        into["COMMIT"] += backend_cpu(wrapper) - before
        return result

    BaseDatabaseWrapper._commit = commit  # type: ignore[method-assign]
    try:
        with connection.execute_wrapper(timed):
            yield
    finally:
        BaseDatabaseWrapper._commit = plain_commit  # type: ignore[method-assign]


def redis_calls(url: str) -> int:
    """Commands the Redis server has run so far (``INFO commandstats``, minus INFO)."""
    import redis

    stats = redis.Redis.from_url(url).info("commandstats")
    return sum(int(v["calls"]) for k, v in stats.items() if k != "cmdstat_info")


def database_cpu() -> float:
    """Seconds on a CPU so far of the bench database's backends (the scheduler's own
    count in ``/proc/<pid>/schedstat``, to the nanosecond; 0 where there is none)."""
    from django.db import connection

    total = 0
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database()")
        pids = [pid for (pid,) in cursor.fetchall()]
    for pid in pids:
        with contextlib.suppress(OSError, ValueError, IndexError):
            total += int(Path(f"/proc/{pid}/schedstat").read_text().split()[0])
    return total / 1e9
