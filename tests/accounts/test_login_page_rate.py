"""The log-in page counts against the API's limit on log-in attempts from one address
(``THROTTLE_LOGIN``): django-axes locks one username out at one address, which left
trying many usernames from one address through the page."""

from __future__ import annotations

from typing import Any

import pytest
from axes.models import AccessAttempt
from django.test import Client
from rest_framework.test import APIClient

from remi_site.throttling import ScopedRateThrottle

pytestmark = pytest.mark.django_db


def test_log_ins_are_rate_limited_across_the_api_and_the_page(
    user_factory: Any, password: str, monkeypatch: pytest.MonkeyPatch, clear_cache: None
) -> None:
    rates = {**ScopedRateThrottle.THROTTLE_RATES, "login": "3/min"}
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", rates)
    names = [user_factory(username=f"sprayed{n}").username for n in range(5)]

    def page(name: str, secret: str) -> Any:
        return Client().post("/accounts/login/", {"username": name, "password": secret})

    def api(name: str, secret: str) -> Any:
        body = {"username": name, "password": secret}
        return APIClient().post("/api/v1/auth/login", body, format="json")

    tries = [page(names[0], "wrong-1"), api(names[1], "wrong-2"), page(names[2], "wrong-3")]
    over_page, over_api = page(names[3], password), api(names[4], password)

    assert [t.status_code for t in tries] == [200, 400, 200]
    assert over_page.status_code == 429
    assert "Many log-in attempts from your address" in over_page.content.decode()
    assert "_auth_user_id" not in over_page.client.session  # not signed in, right password or not
    assert over_api.status_code == 429
    # Refused before a password was tried: django-axes counted only the three tries.
    assert sum(AccessAttempt.objects.values_list("failures_since_start", flat=True)) == 3
