"""The throttles and the kept results fail open: with Redis unreachable the API answers,
unthrottled, and says so in the log once per outage window; the throttles count in
constant space per client, whatever the rate."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from rest_framework.throttling import SimpleRateThrottle

from remi_site import throttling
from remi_site.cache import kept_cache

pytestmark = pytest.mark.django_db

UNREACHABLE = {
    "default": {
        "BACKEND": "remi_site.cache.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
        "OPTIONS": {"socket_connect_timeout": 0.5},
    }
}


@pytest.fixture
def redis_gone(settings) -> Iterator[None]:
    settings.CACHES = UNREACHABLE
    try:
        yield
    finally:
        throttling.outage.until = 0.0
        kept_cache.outage.until = 0.0


def test_an_api_request_is_served_unthrottled_while_redis_is_unreachable(
    redis_gone, auth_client, caplog
):
    with caplog.at_level(logging.WARNING, logger="remi_site.throttling"):
        first = auth_client.get("/api/v1/me")
        second = auth_client.get("/api/v1/me")

    assert first.status_code == second.status_code == 200
    warnings = [r for r in caplog.records if "rate limits are not enforced" in r.getMessage()]
    assert len(warnings) == 1


def test_kept_results_miss_and_are_not_kept_while_redis_is_unreachable(redis_gone):
    kept_cache.set("chart_1", [1.0, 2.0], 60)

    assert kept_cache.get("chart_1", []) == []


def test_kept_results_are_kept_again_once_redis_answers(clear_cache):
    kept_cache.set("chart_2", [3.0], 60)

    assert kept_cache.get("chart_2") == [3.0]


def test_the_throttles_count_again_once_redis_answers(
    auth_client, clear_cache, monkeypatch, settings
):
    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {**SimpleRateThrottle.THROTTLE_RATES, "user": "2/min"}
    )
    throttling.outage.until = 0.0
    throttling.outage.began(OSError("a test's outage"))
    assert [auth_client.get("/api/v1/me").status_code for _ in range(3)] == [200, 200, 200]

    throttling.outage.until = 0.0

    assert [auth_client.get("/api/v1/me").status_code for _ in range(3)] == [200, 200, 429]


def test_a_busy_client_is_counted_in_two_small_counters(auth_client, clear_cache):
    """DRF's list of every request's time grew with the rate (a client at 3,000 a
    minute read and wrote 30 kB a request); the window's counters do not."""
    for _ in range(300):
        assert auth_client.get("/api/v1/me").status_code == 200

    client = cache._cache.get_client(write=True)
    keys = [key for key in client.scan_iter("*limits*") if b"throttle_user_" in key]
    assert 1 <= len(keys) <= 2, keys
    assert sum(int(client.get(key)) for key in keys) == 300


def test_the_log_in_and_sign_up_pages_go_on_unthrottled_while_redis_is_unreachable(
    redis_gone, client, user_factory, password
):
    user_factory(username="ana")

    signed_up = client.post(
        "/accounts/signup/",
        {
            "username": "vesna",
            "password1": "a long passphrase 1",
            "password2": "a long passphrase 1",
        },
    )
    client.logout()
    logged_in = client.post("/accounts/login/", {"username": "ana", "password": password})

    assert signed_up.status_code == logged_in.status_code == 302
