"""Links mailed on request (the password reset, the address verification) are limited per
client address and per recipient, and a refusal says nothing about which addresses have
an account."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from rest_framework.throttling import SimpleRateThrottle

from tests.accounts.account_kit import mails_to, web_client

pytestmark = pytest.mark.django_db

RESET = "/accounts/password-reset/"
RESEND = "/settings/email/resend/"
EMAIL_PAGE = "/settings/email/"
EMAIL_API = "/api/v1/me/email"
PER_CLIENT = 6
PER_RECIPIENT = 3
REQUESTS = 25


@pytest.fixture(autouse=True)
def mail_rates(monkeypatch: pytest.MonkeyPatch, clear_cache: None) -> None:
    rates = {
        **SimpleRateThrottle.THROTTLE_RATES,
        "mail_client": f"{PER_CLIENT}/hour",
        "mail_recipient": f"{PER_RECIPIENT}/hour",
    }
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)


@pytest.fixture
def verified(user: Any) -> Any:
    user.email = "ana@example.com"
    user.save()
    return user


@pytest.fixture
def behind_a_proxy(settings: Any) -> None:
    settings.PROXY_COUNT = 1


def reset_from(address: str, email: str) -> Any:
    """A reset asked for ``email`` by a client at ``address`` (through one proxy)."""
    return Client().post(
        RESET, {"email": email}, REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=address
    )


def client_address(i: int) -> str:
    return f"203.0.113.{i}"


def page_text(response: Any) -> str:
    """The page without what differs from one request to the next anyway: the CSRF
    token and the address typed back into the form."""
    html = response.content.decode()
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)
    return re.sub(r'value="[^"]*@example\.com"', "", html)


def test_many_clients_resetting_one_address_send_it_only_the_recipient_s_limit(
    verified: Any, behind_a_proxy: None
) -> None:
    responses = [reset_from(client_address(i), "ana@example.com") for i in range(REQUESTS)]

    assert len(mails_to("ana@example.com")) == PER_RECIPIENT
    assert [r.status_code for r in responses] == [302] * PER_RECIPIENT + [429] * (
        REQUESTS - PER_RECIPIENT
    )
    refused = responses[-1]
    assert "Too many emails were asked for. Try again in" in refused.content.decode()
    assert 0 < int(refused["Retry-After"]) <= 3600


def test_the_address_is_counted_whatever_its_case(verified: Any, behind_a_proxy: None) -> None:
    spellings = ["ana@example.com", "ANA@example.com", " Ana@Example.com", "ana@EXAMPLE.COM"]

    responses = [reset_from(client_address(i), email) for i, email in enumerate(spellings)]

    assert [r.status_code for r in responses] == [302, 302, 302, 429]
    assert len(mail.outbox) == PER_RECIPIENT


def test_a_refused_reset_looks_the_same_for_a_known_and_an_unknown_address(
    verified: Any, behind_a_proxy: None
) -> None:
    known = [reset_from(client_address(i), "ana@example.com") for i in range(PER_RECIPIENT + 1)]
    unknown = [
        reset_from(client_address(50 + i), "nobody@example.com") for i in range(PER_RECIPIENT + 1)
    ]

    assert [r.status_code for r in known] == [r.status_code for r in unknown]
    assert [r.get("Location") for r in known] == [r.get("Location") for r in unknown]
    assert page_text(known[-1]) == page_text(unknown[-1])
    assert mails_to("nobody@example.com") == []


def test_one_client_cannot_reset_many_addresses(user_factory: Any, behind_a_proxy: None) -> None:
    for i in range(REQUESTS):
        person = user_factory()
        person.email = f"p{i}@example.com"
        person.save()

    responses = [reset_from("198.51.100.7", f"p{i}@example.com") for i in range(REQUESTS)]

    assert len(mail.outbox) == PER_CLIENT
    assert [r.status_code for r in responses].count(429) == REQUESTS - PER_CLIENT
    # Another client is not held up by that one.
    assert reset_from("198.51.100.8", "p24@example.com").status_code == 302


def test_a_rotating_forwarded_header_without_a_proxy_is_one_client(settings: Any) -> None:
    settings.PROXY_COUNT = 0

    responses = [reset_from(client_address(i), f"p{i}@example.com") for i in range(REQUESTS)]

    assert [r.status_code for r in responses].count(302) == PER_CLIENT


def test_sending_the_verification_link_again_is_limited_on_the_page(user: Any) -> None:
    user.profile.pending_email = "new@example.com"
    user.profile.save()
    browser = web_client(user)

    responses = [browser.post(RESEND) for _ in range(REQUESTS)]

    assert len(mails_to("new@example.com")) == PER_RECIPIENT
    assert [r.status_code for r in responses] == [302] * PER_RECIPIENT + [429] * (
        REQUESTS - PER_RECIPIENT
    )
    assert "Too many emails were asked for" in responses[-1].content.decode()
    assert int(responses[-1]["Retry-After"]) > 0


def test_changing_the_address_over_and_over_is_limited_too(user: Any, password: str) -> None:
    browser = web_client(user)

    responses = [
        browser.post(EMAIL_PAGE, {"email": f"n{i}@example.com", "password": password})
        for i in range(PER_RECIPIENT + 2)
    ]

    assert [r.status_code for r in responses] == [302] * PER_RECIPIENT + [429, 429]
    assert len(mail.outbox) == PER_RECIPIENT
    user.refresh_from_db()
    # A refused change changes nothing: the last address that got its link still waits.
    assert user.profile.pending_email == f"n{PER_RECIPIENT - 1}@example.com"


def test_the_api_refuses_one_more_link_with_429_in_the_error_shape(
    auth_client: Any, user: Any, password: str
) -> None:
    def ask() -> Any:
        return auth_client.post(EMAIL_API, {"email": "new@example.com", "password": password})

    responses = [ask() for _ in range(PER_RECIPIENT + 1)]

    assert [r.status_code for r in responses] == [200] * PER_RECIPIENT + [429]
    error = responses[-1].json()["error"]
    assert error["code"] == "throttled"
    assert error["message"].startswith("Too many emails were asked for")
    assert error["details"]["retry_after"] > 0
    assert len(mails_to("new@example.com")) == PER_RECIPIENT


def test_removing_the_address_is_never_limited(auth_client: Any, user: Any, password: str) -> None:
    for _ in range(PER_RECIPIENT):
        auth_client.post(EMAIL_API, {"email": "new@example.com", "password": password})

    removed = auth_client.post(EMAIL_API, {"email": "", "password": password})

    assert removed.status_code == 200 and removed.json()["pending_email"] == ""
