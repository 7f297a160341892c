"""/healthz: database, Redis and the heartbeats of the worker and beat."""

from __future__ import annotations

import time

import pytest

from remi_site import beat, health, tasks

pytestmark = pytest.mark.django_db


def _all_fresh() -> None:
    for process in health.PROCESSES:
        health.heartbeat_record(process=process)


def test_it_is_ok_with_fresh_heartbeats(client, clear_cache):
    _all_fresh()

    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["database"] == body["redis"] == body["worker"] == body["beat"] == "ok"
    assert body["push_worker"] == "ok"
    assert 0 <= body["worker_heartbeat_age"] < 5
    assert 0 <= body["beat_heartbeat_age"] < 5
    assert body["reasons"] == []


def test_the_heartbeat_task_records_the_workers_heartbeat(client, clear_cache):
    tasks.heartbeat.delay()

    assert client.get("/healthz").json()["worker"] == "ok"


def test_a_stale_worker_fails_the_check_and_says_why(client, clear_cache, settings):
    _all_fresh()
    health.heartbeat_record(time.time() - settings.WORKER_HEARTBEAT_MAX_AGE - 30)

    response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["worker"] == "stale"
    assert body["beat"] == "ok"
    assert body["worker_heartbeat_age"] > settings.WORKER_HEARTBEAT_MAX_AGE
    assert len(body["reasons"]) == 1
    assert body["reasons"][0].startswith("the worker's last heartbeat is")


def test_a_stale_push_worker_fails_the_check_and_says_why(client, clear_cache, settings):
    _all_fresh()
    health.heartbeat_record(
        time.time() - settings.WORKER_HEARTBEAT_MAX_AGE - 5, process=health.PUSH_WORKER
    )

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["push_worker"] == "stale"
    assert any("push_worker" in reason for reason in response.json()["reasons"])


def test_each_worker_reports_for_its_own_queue(clear_cache):
    tasks.push_heartbeat.delay()

    assert health.heartbeat_age(process=health.PUSH_WORKER) is not None
    assert health.heartbeat_age(process=health.WORKER) is None


def test_a_stale_beat_fails_the_check_and_says_why(client, clear_cache, settings):
    _all_fresh()
    health.heartbeat_record(time.time() - settings.BEAT_HEARTBEAT_MAX_AGE - 5, process=health.BEAT)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["beat"] == "stale"
    assert response.json()["worker"] == "ok"
    assert "beat's last heartbeat" in response.json()["reasons"][0]


def test_a_worker_that_never_reported_is_missing(client, clear_cache):
    health.heartbeat_record(process=health.BEAT)
    health.heartbeat_record(process=health.PUSH_WORKER)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["worker"] == "missing"
    assert response.json()["worker_heartbeat_age"] is None
    assert response.json()["reasons"] == ["the worker has never reported"]


def test_beats_scheduler_records_beats_heartbeat_at_a_tick(clear_cache, tmp_path):
    from remi_site.celery import app

    scheduler = beat.Scheduler(app, schedule_filename=str(tmp_path / "new" / "schedule"))
    try:
        scheduler.tick()
    finally:
        scheduler.close()

    age = health.heartbeat_age(process=health.BEAT)
    assert age is not None and age < 5
    # Its folder did not exist: the scheduler made it (beat with DATABASE_URL set and
    # no var/ used to die here).
    assert (tmp_path / "new").is_dir()


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
    assert response.json()["worker"] == response.json()["beat"] == "unknown"
    assert "Redis does not answer" in response.json()["reasons"]


def test_it_fails_when_the_database_is_down(client, clear_cache, monkeypatch):
    _all_fresh()

    def broken_cursor(*args, **kwargs):
        raise ConnectionError("database gone")

    with monkeypatch.context() as patched:
        patched.setattr(health.connection, "cursor", broken_cursor)
        response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["database"] == "fail"
    assert response.json()["reasons"] == ["the database does not answer"]


def test_it_only_allows_get(client):
    assert client.post("/healthz").status_code == 405
