"""Login lockouts (django-axes) count failed attempts per username and client address,
the address being remi_site.client_ip's: a rotating X-Forwarded-For is no way out."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings

LOGIN = "/api/v1/auth/login"
ATTEMPTS = 200
SOCKET = "192.0.2.10"


def forwarded(i: int) -> str:
    """A different documentation-range address for each ``i``."""
    return f"203.0.{i // 256}.{i % 256}"


def attempt(api_client: Any, forwarded_for: str, remote: str = SOCKET) -> Any:
    return api_client.post(
        LOGIN,
        {"username": "ana", "password": "wrong"},
        format="json",
        REMOTE_ADDR=remote,
        HTTP_X_FORWARDED_FOR=forwarded_for,
    )


def codes(responses: list[Any]) -> list[str]:
    return [response.json()["error"]["code"] for response in responses]


@pytest.mark.django_db
@override_settings(PROXY_COUNT=0)
def test_a_rotating_forwarded_header_from_one_address_is_locked_out(
    api_client: Any, user: Any, settings: Any
) -> None:
    limit = settings.AXES_FAILURE_LIMIT

    responses = [attempt(api_client, forwarded(i)) for i in range(ATTEMPTS)]

    # The attempt that reaches the limit is the first one refused.
    assert codes(responses) == ["invalid_credentials"] * (limit - 1) + ["locked_out"] * (
        ATTEMPTS - limit + 1
    )
    assert {r.status_code for r in responses[limit - 1 :]} == {429}
    assert int(responses[-1]["Retry-After"]) > 0


@pytest.mark.django_db
@override_settings(PROXY_COUNT=1)
def test_behind_a_proxy_each_forwarded_client_has_its_own_count(
    api_client: Any, user: Any, settings: Any
) -> None:
    limit = settings.AXES_FAILURE_LIMIT
    proxy = "10.0.0.1"

    rotating = [attempt(api_client, forwarded(i), remote=proxy) for i in range(ATTEMPTS)]
    same_client = [
        attempt(api_client, f"198.51.100.{i}, 198.51.100.7", remote=proxy) for i in range(limit)
    ]

    # One proxy address, but 200 clients: none reaches the limit.
    assert set(codes(rotating)) == {"invalid_credentials"}
    # One client, whatever it writes in front of the proxy's entry: locked out.
    assert codes(same_client) == ["invalid_credentials"] * (limit - 1) + ["locked_out"]
