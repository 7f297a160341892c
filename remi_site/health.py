"""What /healthz reports: the database, Redis and the Celery worker's heartbeat."""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.core.cache import cache
from django.db import connection

logger = logging.getLogger(__name__)

HEARTBEAT_KEY = "health:worker-heartbeat"


def heartbeat_record(now: float | None = None) -> None:
    cache.set(HEARTBEAT_KEY, time.time() if now is None else now, timeout=None)


def heartbeat_age(now: float | None = None) -> float | None:
    """Seconds since a worker last reported, or None if none ever did."""
    beat = cache.get(HEARTBEAT_KEY)
    if beat is None:
        return None
    return max(0.0, (time.time() if now is None else now) - float(beat))


def database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
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


def report() -> tuple[bool, dict[str, object]]:
    """(healthy, body). Healthy means database and Redis answer; a stale worker is
    reported but does not fail the check, so that a web node is not taken out of a
    load balancer because the workers are elsewhere and slow."""
    database = database_ok()
    redis = redis_ok()
    age = heartbeat_age() if redis else None
    if age is None:
        worker = "missing" if redis else "unknown"
    else:
        worker = "ok" if age <= settings.WORKER_HEARTBEAT_MAX_AGE else "stale"
    healthy = database and redis
    body: dict[str, object] = {
        "status": "ok" if healthy else "fail",
        "database": "ok" if database else "fail",
        "redis": "ok" if redis else "fail",
        "worker": worker,
        "worker_heartbeat_age": None if age is None else round(age, 1),
    }
    return healthy, body
