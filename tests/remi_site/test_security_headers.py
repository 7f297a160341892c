"""Content-Security-Policy, Referrer-Policy and Permissions-Policy: the exact headers on
a page, an API response and /healthz, in the test settings, the embedded default and
production."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.settings_kit import PRODUCTION_ENV, run_python

pytestmark = pytest.mark.django_db

# The policy of every response, the websocket origin aside (it is the request's own).
POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
PERMISSIONS_POLICY = (
    "accelerometer=(), camera=(), display-capture=(), geolocation=(), "
    "gyroscope=(), hid=(), idle-detection=(), magnetometer=(), microphone=(), midi=(), "
    "payment=(), serial=(), usb=(), xr-spatial-tracking=()"
)


def directives(header: str) -> dict[str, list[str]]:
    """``"a x y; b z"`` -> ``{"a": ["x", "y"], "b": ["z"]}`` (the order of directives
    carries no meaning)."""
    parsed: dict[str, list[str]] = {}
    for part in header.split(";"):
        name, *sources = part.split()
        assert name not in parsed, f"{name} twice in {header!r}"
        parsed[name] = sources
    return parsed


def policy_with_websocket(origin: str) -> dict[str, list[str]]:
    return {**POLICY, "connect-src": ["'self'", origin]}


def assert_security_headers(headers: Any, websocket_origin: str) -> None:
    assert directives(headers["Content-Security-Policy"]) == policy_with_websocket(websocket_origin)
    assert "Content-Security-Policy-Report-Only" not in headers
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["Permissions-Policy"] == PERMISSIONS_POLICY


def test_a_page_sends_the_policy_headers(client):
    response = client.get("/")

    assert response.status_code == 200
    assert_security_headers(response.headers, "ws://testserver")


def test_over_https_the_websocket_allowed_is_wss(client):
    response = client.get("/", secure=True)

    assert_security_headers(response.headers, "wss://testserver")


def test_an_api_response_sends_the_policy_headers(auth_client):
    response = auth_client.get("/api/v1/me")

    assert response.status_code == 200
    assert_security_headers(response.headers, "ws://testserver")


def test_an_api_error_sends_the_policy_headers(api_client):
    response = api_client.get("/api/v1/me")

    assert response.status_code == 401
    assert_security_headers(response.headers, "ws://testserver")


def test_healthz_sends_the_policy_headers(client, clear_cache):
    response = client.get("/healthz")

    assert_security_headers(response.headers, "ws://testserver")


def test_the_api_docs_need_no_inline_script_or_style(client):
    page = client.get("/api/docs/")
    script = client.get("/api/docs/?script=")

    assert page.status_code == script.status_code == 200
    assert_security_headers(page.headers, "ws://testserver")
    html = page.content.decode()
    assert "<style" not in html
    assert html.count("<script") == html.count("<script src=") == 3
    assert script["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in script.content.decode()


# An anonymous API request is refused before it needs the database or Redis, which
# production's addresses do not reach here.
HEADERS_OF_A_RESPONSE = """
import json, django
django.setup()
from django.test import Client
response = Client().get("/api/v1/me", secure={secure}, HTTP_HOST="{host}")
print(json.dumps({{"status": response.status_code, **dict(response.headers)}}))
"""


def headers_served(env: dict[str, str], host: str, secure: bool) -> dict[str, Any]:
    """The headers of a response served with these environment variables (a fresh
    process: the settings module reads the environment once)."""
    code = HEADERS_OF_A_RESPONSE.format(host=host, secure=secure)
    result = run_python(code, {"DJANGO_SETTINGS_MODULE": "remi_site.settings", **env})
    assert result.returncode == 0, result.stderr
    headers: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return headers


def test_the_embedded_default_sends_the_policy_headers(tmp_path):
    headers = headers_served({"REMI_VAR_DIR": str(tmp_path)}, "localhost:8000", False)

    assert headers["status"] == 401
    assert_security_headers(headers, "ws://localhost:8000")


def test_production_sends_the_policy_headers():
    headers = headers_served(PRODUCTION_ENV, "remi.example.com", True)

    assert headers["status"] == 401
    assert_security_headers(headers, "wss://remi.example.com")
