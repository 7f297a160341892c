"""What the stack was doing while requests piled up, sampled through an open-loop cycle of
``bench/api.py --open-loop``, on a timeline of ``BUCKET_S`` buckets to set beside the
requests in flight:

- the load generator itself: how late each request left against its scheduled time (its
  event loop busy or stalled), and its own garbage collector's pauses;
- PostgreSQL: the bench database's backends that are not idle, and those waiting on a lock
  (``pg_stat_activity``, sampled every ``SAMPLE_S`` from a thread of its own);
- Redis: the round trip of a ``PING`` (sampled from a thread of its own).

The threads sample on their own clocks, so a stall of the generator's event loop does not
stop them (they need the GIL only briefly).
"""

from __future__ import annotations

import gc
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


TIMELINES = ("in_flight", "generator_lag", "client_gc", "pg_active", "pg_lock_waits", "redis_ping")


@dataclass
class Stalls:
    """The samples of one cycle, each as a timeline of its peaks."""

    began: float
    in_flight: Timeline = field(init=False)
    generator_lag: Timeline = field(init=False)  # seconds late leaving
    client_gc: Timeline = field(init=False)  # seconds of one collection
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
    """Samples PostgreSQL and Redis from two threads, and times the load generator's own
    garbage collections, into ``stalls`` (replaced at each cycle) until ``stop``."""

    def __init__(self, db_name: str, redis_url: str, stalls: Stalls) -> None:
        self.db_name = db_name
        self.redis_url = redis_url
        self.stalls = stalls
        self._stop = threading.Event()
        self._gc_began = 0.0
        self._threads = [
            threading.Thread(target=self._postgres, daemon=True),
            threading.Thread(target=self._redis, daemon=True),
        ]

    def start(self) -> None:
        gc.callbacks.append(self._gc)
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        self._stop.set()
        gc.callbacks.remove(self._gc)
        for thread in self._threads:
            thread.join(5)

    def _gc(self, phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_began = time.perf_counter()
        else:
            self.stalls.client_gc.note(time.perf_counter() - self._gc_began)

    def _postgres(self) -> None:
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
            while not self._stop.wait(SAMPLE_S):
                rows = conn.execute(
                    "SELECT wait_event_type, wait_event FROM pg_stat_activity "
                    "WHERE datname = %s AND state NOT IN ('idle') AND pid <> pg_backend_pid()",
                    (self.db_name,),
                ).fetchall()
                stalls = self.stalls
                stalls.pg_active.note(len(rows))
                stalls.pg_lock_waits.note(sum(1 for kind, _event in rows if kind == "Lock"))
                for kind, event in rows:
                    stalls.pg_waits[f"{kind}:{event}" if kind else "on CPU"] += 1

    def _redis(self) -> None:
        client = redis.Redis.from_url(self.redis_url, socket_timeout=5)
        while not self._stop.wait(SAMPLE_S):
            began = time.perf_counter()
            try:
                client.ping()
            except redis.RedisError:
                continue
            took = time.perf_counter() - began
            self.stalls.redis_ping.note(took, began)
            self.stalls.pings.append(took)
