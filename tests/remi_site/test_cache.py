"""The throttles' cache fails open: with Redis unreachable the API answers, unthrottled,
and says so in the log once per outage window."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from remi_site.cache import throttle_cache

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
        throttle_cache._down_until = 0.0


def test_an_api_request_is_served_unthrottled_while_redis_is_unreachable(
    redis_gone, auth_client, caplog
):
    with caplog.at_level(logging.WARNING, logger="remi_site.cache"):
        first = auth_client.get("/api/v1/me")
        second = auth_client.get("/api/v1/me")

    assert first.status_code == second.status_code == 200
    warnings = [r for r in caplog.records if "rate limits are not enforced" in r.getMessage()]
    assert len(warnings) == 1


def test_reads_miss_and_writes_are_dropped_while_redis_is_unreachable(redis_gone):
    throttle_cache.set("throttle_user_1", [1.0, 2.0], 60)

    assert throttle_cache.get("throttle_user_1", []) == []


def test_it_counts_again_once_redis_answers(clear_cache):
    throttle_cache.set("throttle_user_2", [3.0], 60)

    assert throttle_cache.get("throttle_user_2") == [3.0]
