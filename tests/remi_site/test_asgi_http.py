"""The site's ASGI handler for HTTP (remi_site.asgi_http): one trip to a worker thread
per request, the answer and its status as Django's handler gives them, a streaming
answer (a static file) sent whole, read part by part on the request threads, and the
database connection handed back."""

from __future__ import annotations

import gc
import json
import weakref
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from django.conf import settings
from django.db import connections

from remi_site import collector
from remi_site.asgi import application
from remi_site.asgi_http import ASGIHandler

pytestmark = pytest.mark.django_db(transaction=True)


async def request(
    method: str, path: str, body: bytes = b"", headers: list[tuple[bytes, bytes]] | None = None
) -> tuple[int, dict[bytes, bytes], bytes]:
    status, answer_headers, parts = await request_parts(method, path, body, headers)
    return status, answer_headers, b"".join(parts)


async def request_parts(
    method: str, path: str, body: bytes = b"", headers: list[tuple[bytes, bytes]] | None = None
) -> tuple[int, dict[bytes, bytes], list[bytes]]:
    """The answer's status, headers, and body as sent, message by message."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"localhost"), *(headers or [])],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }
    communicator = ApplicationCommunicator(application, scope)
    await communicator.send_input({"type": "http.request", "body": body, "more_body": False})
    start = await communicator.receive_output(10)
    assert start["type"] == "http.response.start"
    parts = []
    while True:
        message = await communicator.receive_output(10)
        parts.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    await communicator.wait(1)
    return start["status"], {k.lower(): v for k, v in start["headers"]}, parts


async def test_the_site_serves_http_with_its_handler() -> None:
    router = application.application  # inside the client-address middleware
    assert isinstance(router.application_mapping["http"], ASGIHandler)


async def test_an_api_answer_and_its_error_shape() -> None:
    status, headers, body = await request("GET", "/api/v1/rulesets")
    assert status == 200
    assert headers[b"content-type"] == b"application/json"
    assert {preset["name"] for preset in json.loads(body)["results"]} >= {"serbian", "polish51"}

    status, _headers, body = await request(
        "POST",
        "/api/v1/games",
        b'{"preset": "serbian", "players": 2}',
        [(b"content-type", b"application/json")],
    )
    assert status == 401
    assert json.loads(body)["error"]["code"] == "not_authenticated"


async def test_a_static_file_streams_whole() -> None:
    status, _headers, body = await request("GET", "/static/css/site.css")
    assert status == 200
    assert body == (settings.BASE_DIR / "static" / "css" / "site.css").read_bytes()


# Django's handler would read a synchronous stream whole first, and say so in a warning.
@pytest.mark.filterwarnings("error:StreamingHttpResponse must consume synchronous iterators")
async def test_a_static_file_is_read_and_sent_part_by_part(monkeypatch: Any) -> None:
    monkeypatch.setattr(ASGIHandler, "chunk_size", 1024)

    status, _headers, parts = await request_parts("GET", "/static/css/site.css")

    assert status == 200
    expected = (settings.BASE_DIR / "static" / "css" / "site.css").read_bytes()
    assert len(expected) > 4 * 1024
    assert b"".join(parts) == expected
    sent = [len(part) for part in parts if part]
    assert max(sent) == 1024 and len(sent) == -(-len(expected) // 1024)


async def test_the_request_thread_hands_its_database_connection_back() -> None:
    seen: list[Any] = []

    def look() -> None:
        seen.append(connections["default"].connection)

    from asgiref.sync import sync_to_async

    from remi_site import asgi_http

    await request("GET", "/healthz")
    # Every thread of the pool: none holds an open connection after its request.
    pool = asgi_http._threads()
    for _ in range(pool._max_workers):
        await sync_to_async(look, thread_sensitive=False, executor=pool)()
    assert all(connection is None for connection in seen)


class _Cycle:
    """Garbage only the collector frees: it refers to itself."""

    def __init__(self) -> None:
        self.me = self


async def test_garbage_is_collected_once_an_answer_is_sent() -> None:
    cycle = _Cycle()
    freed = weakref.ref(cycle)
    del cycle
    assert freed() is not None  # the thresholds leave it to the handler

    status, _headers, _body = await request("GET", "/api/v1/rulesets")

    assert status == 200
    assert freed() is None


def test_the_server_leaves_collections_to_the_handler_and_freezes_what_is_loaded() -> None:
    # remi_site.asgi settled this process when it was imported.
    assert gc.get_threshold()[0] == collector.YOUNG_LIMIT
    assert gc.get_freeze_count() > 10_000
