"""/healthz: database, Redis and the worker's heartbeat."""

from __future__ import annotations

import time

import pytest

from remi_site import health, tasks

pytestmark = pytest.mark.django_db


def test_it_is_ok_with_a_fresh_heartbeat(client, clear_cache):
    health.heartbeat_record()

    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["database"] == body["redis"] == body["worker"] == "ok"
    assert 0 <= body["worker_heartbeat_age"] < 5


def test_the_heartbeat_task_records_a_heartbeat(client, clear_cache):
    tasks.heartbeat.delay()

    assert client.get("/healthz").json()["worker"] == "ok"


def test_a_stale_worker_is_reported_but_not_fatal(client, clear_cache, settings):
    health.heartbeat_record(time.time() - settings.WORKER_HEARTBEAT_MAX_AGE - 30)

    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json()["worker"] == "stale"
    assert response.json()["worker_heartbeat_age"] > settings.WORKER_HEARTBEAT_MAX_AGE


def test_a_worker_that_never_reported_is_missing(client, clear_cache):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json()["worker"] == "missing"
    assert response.json()["worker_heartbeat_age"] is None


def test_it_fails_when_redis_is_down(client, settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
        }
    }

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["redis"] == "fail"
    assert response.json()["worker"] == "unknown"


def test_it_fails_when_the_database_is_down(client, clear_cache, monkeypatch):
    def broken_cursor(*args, **kwargs):
        raise ConnectionError("database gone")

    monkeypatch.setattr(health.connection, "cursor", broken_cursor)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["database"] == "fail"


def test_it_only_allows_get(client):
    assert client.post("/healthz").status_code == 405
