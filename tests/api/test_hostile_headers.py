"""No API operation answers odd request headers with a server error.

schemathesis fuzzes what the schema describes (paths, queries, bodies); the headers the
site reads beside it (the token, content negotiation, ``Prefer``, ``Idempotency-Key``,
conditional requests, the proxy's forwarded address, cookies, the browser's fetch
metadata) are sent here, each with odd values, to every operation of the schema: the
operations are read from the schema itself, so a new one is walked without being listed.
A header value is what a server hands Django: the Latin-1 text of the header's bytes
("Ñ\\x92" is the UTF-8 of "ђ"). Each answer must be below 500; the failures are listed
with the request that made them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from tests.api.fuzz_kit import fuzz_world

pytestmark = pytest.mark.django_db

HEADERS = [
    "HTTP_AUTHORIZATION",
    "HTTP_ACCEPT",
    "HTTP_ACCEPT_LANGUAGE",
    "HTTP_PREFER",
    "HTTP_IDEMPOTENCY_KEY",
    "HTTP_IF_NONE_MATCH",
    "HTTP_IF_MODIFIED_SINCE",
    "HTTP_X_FORWARDED_FOR",
    "HTTP_X_FORWARDED_PROTO",
    "HTTP_COOKIE",
    "HTTP_ORIGIN",
    "HTTP_SEC_FETCH_DEST",
    "HTTP_RANGE",
    "HTTP_USER_AGENT",
]
ODD_VALUES = [
    "",
    "\x00",
    "x" * 8000,
    "ђ♠".encode().decode("latin-1"),
    "\xe9\xff",
    "*/*;q=abc",
    "a, b;q=1e309, c;q=-1",
    "Bearer \xe9\xff",
    "Bearer abc\x00def",
    "sessionid=abcdefgh\x00ij; csrftoken=\x00",
    "Bearer " + "x" * 300,
    "Basic !!!",
    'W/"\x01", *',
    "bytes=-1-2",
]
# Streams stay open until the client leaves (tests/live/test_ndjson_streams.py); the
# operations that end the fuzzer's token or account are sent last (``in_walk_order``).
STREAMS = ("/stream",)
LAST = ("/auth/logout", "/me/delete", "/resign", "/abort", "/leave")


def operations() -> list[tuple[str, str]]:
    """(method, path template) of every operation of the API's schema."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    found = [
        (method, path)
        for path, item in schema["paths"].items()
        for method in item
        if method in ("get", "post", "put", "patch", "delete") and not path.endswith(STREAMS)
    ]
    return sorted(found, key=lambda op: (op[1].endswith(LAST), op[0] != "get", op[1]))


@pytest.fixture
def fuzzer(user_factory: Any, token_factory: Any) -> Iterator[dict[str, str]]:
    """The fuzzing user's token and the real objects the path parameters name."""
    world = fuzz_world(user_factory, token_factory)
    yield {
        "authorization": world.authorization,
        "game_id": world.game.public_id,
        "invite_code": world.lobby.invite_code,
        "username": world.rival.username,
        "token_id": str(world.spare_token),
        "number": "1",
    }


def test_no_api_operation_answers_odd_headers_with_a_server_error(
    fuzzer: dict[str, str],
) -> None:
    client = Client(raise_request_exception=False)
    failures: list[str] = []
    sent = 0
    walked = operations()
    for index, (method, template) in enumerate(walked):
        path = re.sub(r"{(\w+)}", lambda m: fuzzer.get(m.group(1), "1"), template)
        for offset, header in enumerate(HEADERS):
            # Every header gets every value across the operations (a rotation).
            value = ODD_VALUES[(index + offset) % len(ODD_VALUES)]
            headers = {"HTTP_AUTHORIZATION": fuzzer["authorization"], header: value}
            body = None if method in ("get", "delete") else json.dumps({})
            response = client.generic(
                method.upper(), path, body or "", content_type="application/json", **headers
            )
            sent += 1
            if response.status_code >= 500:
                failures.append(
                    f"{method.upper()} {path} {header}={value[:40]!r}: {response.status_code}"
                )

    assert len(walked) >= 60, walked  # the schema's operations were found
    assert not failures, f"{len(failures)} of {sent}:\n" + "\n".join(failures)
