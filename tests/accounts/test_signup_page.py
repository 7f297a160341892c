"""The sign-up page states the password rules once: under the field while nothing is
wrong, and as the errors (not the errors and the whole list again) after a weak one."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

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
