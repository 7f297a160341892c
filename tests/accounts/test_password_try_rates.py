"""A password is tried no faster on the pages than over the API (``THROTTLE_LOGIN``): the
log-in page counts against the API's log-ins from the same address (django-axes locks
one username out at one address, which left trying many usernames through the page),
and the pages that ask for the account's password (a new address, a new password,
deleting the account) against the API's password-confirmed requests of the account."""

from __future__ import annotations

from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
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


def test_password_tries_on_the_settings_pages_are_rate_limited_with_the_api(
    user: Any,
    password: str,
    client_for: Any,
    monkeypatch: pytest.MonkeyPatch,
    clear_cache: None,
) -> None:
    rates = {**ScopedRateThrottle.THROTTLE_RATES, "login": "3/min"}
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", rates)
    page = Client()
    page.force_login(user)
    api = client_for(user)

    tries = [
        page.post("/settings/email/", {"email": "new@example.org", "password": "wrong-1"}),
        api.post("/api/v1/me/email", {"email": "new@example.org", "password": "wrong-2"}),
        page.post("/settings/delete/", {"password": "wrong-3"}),
    ]
    over = [
        page.post("/settings/delete/", {"password": password}),
        page.post(
            "/settings/password/",
            {
                "old_password": password,
                "new_password1": "n3w-passphrase",
                "new_password2": "n3w-passphrase",
            },
        ),
    ]

    assert [t.status_code for t in tries] == [400, 400, 400]
    assert [o.status_code for o in over] == [429, 429]
    assert all("Many tries of your password" in o.content.decode() for o in over)
    user.refresh_from_db()
    assert get_user_model().objects.filter(pk=user.pk, is_active=True).exists()  # not deleted
    assert user.check_password(password)  # not changed
