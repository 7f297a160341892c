"""What /healthz reports: the database, Redis, and the heartbeats of the workers and beat.

Each background process records a heartbeat in the cache: a worker whenever it runs
its queue's heartbeat task (which beat sends every few seconds, so a fresh heartbeat
also proves that beat's messages reach that queue's worker through the broker): the
main worker ``heartbeat``, the push worker ``push_heartbeat``; beat on its own at every
tick of its scheduler (``remi_site.beat``). The site is healthy only when all of them
answer: a dead worker or beat stops bots, deadlines, emails or pushes, and a load
balancer or monitor must hear about it.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import connection

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Process:
    name: str
    key: str
    max_age_setting: str

    def max_age(self) -> float:
        return float(getattr(settings, self.max_age_setting))


WORKER = Process("worker", "health:worker-heartbeat", "WORKER_HEARTBEAT_MAX_AGE")
# The worker of the ``push`` queue alone (docs/push.md).
PUSH_WORKER = Process("push_worker", "health:push-worker-heartbeat", "WORKER_HEARTBEAT_MAX_AGE")
BEAT = Process("beat", "health:beat-heartbeat", "BEAT_HEARTBEAT_MAX_AGE")
PROCESSES = (WORKER, PUSH_WORKER, BEAT)
# Which worker's heartbeat a worker consuming a queue records.
WORKER_OF_QUEUE = {"celery": WORKER, "push": PUSH_WORKER}


def heartbeat_record(now: float | None = None, *, process: Process = WORKER) -> None:
    cache.set(process.key, time.time() if now is None else now, timeout=None)


def heartbeat_age(now: float | None = None, *, process: Process = WORKER) -> float | None:
    """Seconds since ``process`` last reported, or None if it never did."""
    beat = cache.get(process.key)
    if beat is None:
        return None
    return max(0.0, (time.time() if now is None else now) - float(beat))


# How long /healthz waits for a pooled connection: a monitor or load balancer waits a
# few seconds for an answer, and the pool's own wait (DB_POOL_TIMEOUT, 10 s) would let
# a lost database look like a hung site instead of a clear 503.
POOL_WAIT_S = 2.0


def database_ok() -> bool:
    try:
        pool = getattr(connection, "pool", None)  # PostgreSQL's pool, if the site has one
        if pool is None:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                cursor.fetchone()
        else:
            pool.open()  # as Django's first connection would
            with pool.connection(timeout=POOL_WAIT_S) as pooled:
                pooled.execute("SELECT 1").fetchone()
    except Exception:
        logger.exception("health check: database unreachable")
        return False
    return True


def redis_ok() -> bool:
    try:
        cache.set("health:ping", 1, timeout=10)
        return cache.get("health:ping") == 1
    except Exception:
        logger.exception("health check: redis unreachable")
        return False


def _process_status(process: Process, redis: bool) -> tuple[str, float | None, str | None]:
    """(status, heartbeat age, the reason it is not ok or None)."""
    if not redis:
        return "unknown", None, f"the {process.name}'s heartbeat cannot be read (Redis is down)"
    age = heartbeat_age(process=process)
    if age is None:
        return "missing", None, f"the {process.name} has never reported"
    if age > process.max_age():
        return (
            "stale",
            age,
            (
                f"the {process.name}'s last heartbeat is {age:.0f} s old "
                f"(more than {process.max_age():.0f} s)"
            ),
        )
    return "ok", age, None


def report() -> tuple[bool, dict[str, object]]:
    """(healthy, body): healthy when the database and Redis answer and the workers' and
    beat's heartbeats are fresh; ``reasons`` says what is wrong otherwise."""
    database = database_ok()
    redis = redis_ok()
    reasons = [] if database else ["the database does not answer"]
    if not redis:
        reasons.append("Redis does not answer")
    body: dict[str, object] = {
        "database": "ok" if database else "fail",
        "redis": "ok" if redis else "fail",
    }
    for process in PROCESSES:
        status, age, reason = _process_status(process, redis)
        body[process.name] = status
        body[f"{process.name}_heartbeat_age"] = None if age is None else round(age, 1)
        if reason:
            reasons.append(reason)
    healthy = not reasons
    return healthy, {"status": "ok" if healthy else "fail", **body, "reasons": reasons}
