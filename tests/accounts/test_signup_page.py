"""The sign-up page states the password rules once: under the field while nothing is
wrong, and as the errors (not the errors and the whole list again) after a weak one; and
it counts against the API's limit on new accounts from one address."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from remi_site.throttling import ScopedRateThrottle

pytestmark = pytest.mark.django_db

# One sentence of the rules and the error that restates it.
RULE = "at least 8 characters"


def test_the_signup_page_lists_the_password_rules_once() -> None:
    page = Client().get(reverse("accounts:signup"))

    assert page.status_code == 200
    assert page.content.decode().count(RULE) == 1


def test_a_weak_password_shows_its_errors_without_repeating_the_rules() -> None:
    page = Client().post(
        reverse("accounts:signup"),
        {"username": "vesna", "password1": "1234", "password2": "1234"},
    )

    assert page.status_code == 200
    html = page.content.decode()
    assert "too short" in html
    assert html.count(RULE) == 1  # in the error only
    assert "can’t be entirely numeric" not in html  # the rule's wording, not shown again
    assert "entirely numeric" in html  # the error's


def test_a_mismatch_alone_keeps_the_rules_under_the_password() -> None:
    page = Client().post(
        reverse("accounts:signup"),
        {"username": "vesna", "password1": "a long passphrase 1", "password2": "other"},
    )

    html = page.content.decode()
    assert "The two passwords differ." in html or "differ" in html
    assert html.count(RULE) == 1


def test_sign_ups_are_rate_limited_across_the_api_and_the_page(
    monkeypatch: pytest.MonkeyPatch, clear_cache: None
) -> None:
    """The page is no way around the API's limit on new accounts from one address."""
    rates = {**ScopedRateThrottle.THROTTLE_RATES, "signup": "2/hour"}
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", rates)
    password = "a long passphrase 1"

    def page(name: str) -> Any:
        body = {"username": name, "password1": password, "password2": password}
        return Client().post(reverse("accounts:signup"), body)

    def api(name: str) -> Any:
        body = {"username": name, "password": password}
        return APIClient().post("/api/v1/auth/signup", body, format="json")

    first, second = api("vesna"), page("goran")
    over_page, over_api = page("marko"), api("ivana")

    assert (first.status_code, second.status_code) == (201, 302)
    assert over_page.status_code == 429
    assert "Many accounts were made from your address" in over_page.content.decode()
    assert over_api.status_code == 429
    assert set(get_user_model().objects.values_list("username", flat=True)) >= {"vesna", "goran"}
    assert not get_user_model().objects.filter(username__in=["marko", "ivana"]).exists()
