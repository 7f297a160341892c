"""What the stack was doing while requests piled up, sampled through an open-loop cycle of
``bench/api.py --open-loop``, on a timeline of ``BUCKET_S`` buckets to set beside the
requests in flight:

- the load generator itself: how late each request left against its scheduled time (its
  event loop busy or stalled), and its own garbage collector's pauses;
- PostgreSQL: the bench database's backends that are not idle, and those waiting on a lock
  (``pg_stat_activity``, sampled every ``SAMPLE_S``);
- Redis: the round trip of a ``PING``.

PostgreSQL and Redis are sampled from a process of its own, so that a stall of the load
generator does not delay their samples; the timeline is the monotonic clock, the same in
every process of the machine.
"""

from __future__ import annotations

import gc
import multiprocessing
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import psycopg
import redis

from bench.kit.stack import PG_ADMIN_URL

BUCKET_S = 1.0
SAMPLE_S = 0.02


@dataclass
class Timeline:
    """The largest value seen in each bucket of ``BUCKET_S`` since ``began``."""

    began: float
    peaks: dict[int, float] = field(default_factory=dict)

    def note(self, value: float, at: float | None = None) -> None:
        bucket = int(((time.perf_counter() if at is None else at) - self.began) / BUCKET_S)
        if value > self.peaks.get(bucket, float("-inf")):
            self.peaks[bucket] = value

    def values(self, buckets: int, default: float = 0.0) -> list[float]:
        return [self.peaks.get(bucket, default) for bucket in range(buckets)]


TIMELINES = (
    "in_flight",
    "generator_lag",
    "client_gc",
    "client_choice",
    "pg_active",
    "pg_lock_waits",
    "redis_ping",
)


@dataclass
class Stalls:
    """The samples of one cycle, each as a timeline of its peaks."""

    began: float
    in_flight: Timeline = field(init=False)
    generator_lag: Timeline = field(init=False)  # seconds late leaving
    client_gc: Timeline = field(init=False)  # seconds of one collection
    client_choice: Timeline = field(init=False)  # seconds of one move chosen (the solver)
    pg_active: Timeline = field(init=False)
    pg_lock_waits: Timeline = field(init=False)
    redis_ping: Timeline = field(init=False)  # seconds
    pg_waits: Counter[str] = field(default_factory=Counter)  # wait events of busy backends
    lags: list[float] = field(default_factory=list)
    pings: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        for name in TIMELINES:
            setattr(self, name, Timeline(self.began))


class Sampler:
    """Samples PostgreSQL and Redis from a process of its own (so that neither the load
    generator's event loop nor its GIL delays a sample) and times the load generator's
    own garbage collections into ``stalls`` (replaced at each cycle)."""

    def __init__(self, db_name: str, redis_url: str, stalls: Stalls) -> None:
        self.stalls = stalls
        self._gc_began = 0.0
        context = multiprocessing.get_context("spawn")
        self._stop = context.Event()
        self._receive, send = context.Pipe(duplex=False)
        self._process = context.Process(
            target=sample, args=(db_name, redis_url, send, self._stop), daemon=True
        )

    def start(self) -> None:
        gc.callbacks.append(self._gc)
        self._process.start()

    def stop(self) -> list[tuple[float, str, Any]]:
        """Stop sampling; the samples, each (when, what, value)."""
        gc.callbacks.remove(self._gc)
        self._stop.set()
        samples: list[tuple[float, str, Any]] = (
            self._receive.recv() if self._receive.poll(30) else []
        )
        self._process.join(10)
        return samples

    def _gc(self, phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_began = time.perf_counter()
        else:
            self.stalls.client_gc.note(time.perf_counter() - self._gc_began)


def sample(db_name: str, redis_url: str, send: Any, stop: Any) -> None:
    """The sampling process: PostgreSQL's and Redis's samples every ``SAMPLE_S`` (from a
    thread each) until ``stop``, then all of them through ``send``."""
    samples: list[tuple[float, str, Any]] = []
    threads = [
        threading.Thread(target=_postgres, args=(db_name, samples, stop), daemon=True),
        threading.Thread(target=_redis, args=(redis_url, samples, stop), daemon=True),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    send.send(samples)


def _postgres(db_name: str, samples: list[tuple[float, str, Any]], stop: Any) -> None:
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        while not stop.wait(SAMPLE_S):
            at = time.perf_counter()
            rows = conn.execute(
                "SELECT wait_event_type, wait_event FROM pg_stat_activity "
                "WHERE datname = %s AND state <> 'idle' AND pid <> pg_backend_pid()",
                (db_name,),
            ).fetchall()
            samples.append(
                (at, "postgres", [f"{kind}:{event}" if kind else "" for kind, event in rows])
            )


def _redis(redis_url: str, samples: list[tuple[float, str, Any]], stop: Any) -> None:
    client = redis.Redis.from_url(redis_url, socket_timeout=5)
    while not stop.wait(SAMPLE_S):
        began = time.perf_counter()
        try:
            client.ping()
        except redis.RedisError:
            continue
        samples.append((began, "redis", time.perf_counter() - began))


def sort_samples(
    samples: list[tuple[float, str, Any]], cycles: list[Stalls], seconds: float
) -> None:
    """Each sample into the cycle it was taken in."""
    for at, what, value in samples:
        for stalls in cycles:
            if stalls.began <= at < stalls.began + seconds:
                break
        else:
            continue
        if what == "redis":
            stalls.redis_ping.note(value, at)
            stalls.pings.append(value)
            continue
        stalls.pg_active.note(len(value), at)
        stalls.pg_lock_waits.note(sum(1 for event in value if event.startswith("Lock:")), at)
        for event in value:
            stalls.pg_waits[event or "on CPU"] += 1
