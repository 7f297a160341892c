"""The client's address (remi_site.client_ip): the socket address unless PROXY_COUNT
proxies are in front, garbage in X-Forwarded-For tolerated, and the API's throttles
counting by it, so that a rotating header escapes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import RequestFactory
from rest_framework.throttling import SimpleRateThrottle

from remi_site.client_ip import ClientAddressMiddleware, client_ip, client_ip_from_scope

SOCKET = "192.0.2.10"  # the address the connection came from
LOGIN = "/api/v1/auth/login"


def request_from(forwarded_for: str | None = None, remote: str = SOCKET) -> Any:
    extra = {"REMOTE_ADDR": remote}
    if forwarded_for is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded_for
    return RequestFactory().get("/", **extra)


def scope_from(*forwarded_for: bytes, client: Any = (SOCKET, 50000)) -> dict[str, Any]:
    headers = [(b"host", b"localhost"), *((b"x-forwarded-for", v) for v in forwarded_for)]
    return {"type": "http", "headers": headers, "client": client}


@pytest.mark.parametrize("forwarded_for", [None, "203.0.113.7", "203.0.113.7, 198.51.100.2"])
def test_without_proxies_it_is_the_socket_address(settings: Any, forwarded_for: Any) -> None:
    settings.PROXY_COUNT = 0

    assert client_ip(request_from(forwarded_for)) == SOCKET


@pytest.mark.parametrize(
    ("proxies", "forwarded_for", "expected"),
    [
        (1, "203.0.113.7", "203.0.113.7"),
        # The client's own entries are on the left; the trusted proxies append.
        (1, "6.6.6.6, 203.0.113.7", "203.0.113.7"),
        (2, "6.6.6.6, 203.0.113.7, 10.0.0.2", "203.0.113.7"),
        (2, "203.0.113.7,10.0.0.2", "203.0.113.7"),
        (1, "2001:db8::1", "2001:db8::1"),
        (1, "2001:DB8:0::1", "2001:db8::1"),  # normalised: one counter per address
        # Ports some proxies add.
        (1, "203.0.113.7:41234", "203.0.113.7"),
        (1, "[2001:db8::1]:443", "2001:db8::1"),
    ],
)
def test_behind_proxies_it_is_the_nth_forwarded_entry_from_the_right(
    settings: Any, proxies: int, forwarded_for: str, expected: str
) -> None:
    settings.PROXY_COUNT = proxies

    assert client_ip(request_from(forwarded_for)) == expected


@pytest.mark.parametrize(
    ("proxies", "forwarded_for"),
    [
        # Fewer entries than proxies: the request did not come through all of them,
        # so no entry is trustworthy.
        (1, None),
        (1, ""),
        (2, "203.0.113.7"),
        (3, "203.0.113.7, 10.0.0.2"),
        # Garbage where the proxy's entry should be.
        (1, " , , "),
        (1, "unknown"),
        (1, "203.0.113.7, not-an-address"),
        (1, "203.0.113.300"),
        (1, "203.0.113.7; DROP TABLE"),
        (1, "\x00\x01\x02"),
    ],
)
def test_an_untrustworthy_header_falls_back_to_the_socket_address(
    settings: Any, proxies: int, forwarded_for: str | None
) -> None:
    settings.PROXY_COUNT = proxies

    assert client_ip(request_from(forwarded_for)) == SOCKET


def test_empty_items_and_spaces_are_skipped(settings: Any) -> None:
    settings.PROXY_COUNT = 2

    assert client_ip(request_from(" ,6.6.6.6,, 203.0.113.7 ,  , 10.0.0.2 ")) == "203.0.113.7"


def test_a_very_long_header_is_read_without_error(settings: Any) -> None:
    settings.PROXY_COUNT = 1
    forwarded_for = ", ".join(["6.6.6.6"] * 100_000 + ["x" * 10_000, "203.0.113.7"])

    assert client_ip(request_from(forwarded_for)) == "203.0.113.7"


def test_an_asgi_scope_follows_the_same_rule(settings: Any) -> None:
    settings.PROXY_COUNT = 0
    assert client_ip_from_scope(scope_from(b"203.0.113.7")) == SOCKET

    settings.PROXY_COUNT = 1
    # Repeated headers count as one list, in order.
    assert client_ip_from_scope(scope_from(b"6.6.6.6", b"203.0.113.7")) == "203.0.113.7"
    assert client_ip_from_scope(scope_from(b"\xff\xfe garbage")) == SOCKET
    assert client_ip_from_scope(scope_from(b"203.0.113.7", client=None)) == "203.0.113.7"
    assert client_ip_from_scope(scope_from(client=None)) == ""


async def seen_by_the_application(scope: dict[str, Any]) -> dict[str, Any]:
    seen: dict[str, Any] = {}

    async def app(inner: dict[str, Any], receive: Any, send: Any) -> None:
        seen.update(inner)

    await ClientAddressMiddleware(app)(scope, None, None)
    return seen


async def test_the_asgi_scope_carries_the_decided_address(settings: Any) -> None:
    """The server's access log reads the scope it made: the middleware writes the
    client's address into that very scope. Deciding again gives the same answer."""
    settings.PROXY_COUNT = 1
    scope = scope_from(b"6.6.6.6, 203.0.113.7")

    seen = await seen_by_the_application(scope)

    assert seen["client"] == ("203.0.113.7", 50000)
    assert scope["client"] == ("203.0.113.7", 50000)
    assert client_ip_from_scope(seen) == "203.0.113.7"


async def test_without_proxies_the_asgi_scope_keeps_the_socket_address(settings: Any) -> None:
    settings.PROXY_COUNT = 0

    seen = await seen_by_the_application(scope_from(b"203.0.113.7"))

    assert seen["client"] == (SOCKET, 50000)


# ------------------------------------------------------------------ the API's throttles


@pytest.fixture
def low_rates(monkeypatch: pytest.MonkeyPatch, clear_cache: None) -> None:
    rates = {**SimpleRateThrottle.THROTTLE_RATES, "anon": "3/min", "signup": "2/min"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)


@pytest.mark.django_db
def test_a_rotating_forwarded_header_does_not_escape_the_anonymous_rate(
    api_client: Any, low_rates: None, settings: Any
) -> None:
    settings.PROXY_COUNT = 0
    statuses = [
        api_client.post(
            LOGIN, {}, REMOTE_ADDR=SOCKET, HTTP_X_FORWARDED_FOR=f"203.0.113.{i}"
        ).status_code
        for i in range(6)
    ]

    assert statuses == [400, 400, 400, 429, 429, 429]


@pytest.mark.django_db
def test_a_rotating_forwarded_header_does_not_escape_the_signup_rate(
    api_client: Any, low_rates: None, settings: Any
) -> None:
    settings.PROXY_COUNT = 0
    statuses = [
        api_client.post(
            "/api/v1/auth/signup", {}, REMOTE_ADDR=SOCKET, HTTP_X_FORWARDED_FOR=f"203.0.113.{i}"
        ).status_code
        for i in range(3)
    ]

    assert statuses == [400, 400, 429]


@pytest.mark.django_db
def test_behind_a_proxy_the_forwarded_client_is_counted(
    api_client: Any, low_rates: None, settings: Any
) -> None:
    settings.PROXY_COUNT = 1
    proxy = "10.0.0.1"

    def status(client: str) -> int:
        response = api_client.post(LOGIN, {}, REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR=client)
        return int(response.status_code)

    assert [status("203.0.113.7") for _ in range(4)] == [400, 400, 400, 429]
    # Another client behind the same proxy has a counter of its own...
    assert status("198.51.100.2") == 400
    # ...and the first one cannot escape by writing its own entry in front.
    assert status("198.51.100.99, 203.0.113.7") == 429
