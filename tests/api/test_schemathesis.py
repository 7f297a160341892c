"""The OpenAPI schema tells the truth: schemathesis fuzzes every operation of the live
app's schema (valid and invalid inputs, authenticated with a real API token) and checks
that no answer is a 5xx and that every status, content type and body is documented.

Path parameters are sometimes the ids of real objects (a running game the fuzzing
user sits in, a private lobby's invite code, a player, a spare token), so that the
answers of found objects are checked too. The budget is fixed and the run derandomized:
the same examples every time.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.api.fuzz_kit import fuzz_world

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
# Examples per operation, on top of schemathesis' deterministic coverage cases: 10 keep
# the run to about 40 s of the suite's CPU; a deeper fuzz asks for more, e.g.
# REMI_FUZZ_EXAMPLES=200 pytest tests/api/test_schemathesis.py
MAX_EXAMPLES = int(os.environ.get("REMI_FUZZ_EXAMPLES", "10"))
FUZZER = "fuzzer"


# The site's WSGI app; the schema is read from it once, when this module is collected.
APP = WSGIHandler()
# The NDJSON streams stay open until the client leaves: tests/live/test_ndjson_streams.py
# follows them over a real server; a WSGI call would wait for their end for good.
STREAMS = ["stream_events", "games_stream"]
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", APP).exclude(
    operation_id=STREAMS
)

# Stand-ins for real objects, replaced by their ids in each case (``RealObjects``).
PLACEHOLDERS = {
    "game_id": ["real-running-game", "real-private-lobby"],
    "invite_code": ["real-invite-code"],
    "username": ["real-fuzzer", "real-rival", "real-bot"],
}


@schema.hook
def flatmap_path_parameters(context: Any, path_parameters: dict[str, Any]) -> Any:
    """The generated path parameters, or the same with one of them a real object."""
    if not path_parameters:
        return st.just(path_parameters)
    choices = [path_parameters]
    for name, placeholders in PLACEHOLDERS.items():
        if name in path_parameters:
            choices += [{**path_parameters, name: value} for value in placeholders]
    return st.sampled_from(choices)


@dataclass
class RealObjects:
    authorization: str
    token_in_use: int
    spare_token: int
    ids: dict[str, str]

    def resolve(self, case: Any) -> None:
        params = case.path_parameters or {}
        for name, value in params.items():
            if isinstance(value, str) and value in self.ids:
                params[name] = self.ids[value]
        if params.get("token_id") == self.token_in_use:
            # Revoking the token the fuzzer authenticates with would end the run's meaning.
            params["token_id"] = self.spare_token


@pytest.fixture
def in_test_transaction() -> Iterator[None]:
    """Django closes the database connection at the end of each request; like Django's
    test client, keep it open, or the test's transaction (and its data) would go too."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def real_objects(user_factory, token_factory, bots, in_test_transaction) -> RealObjects:
    """The fuzzing user, its token, and the objects the placeholders stand for."""
    world = fuzz_world(user_factory, token_factory, username=FUZZER)
    return RealObjects(
        authorization=world.authorization,
        token_in_use=world.token_in_use,
        spare_token=world.spare_token,
        ids={
            "real-running-game": world.game.public_id,
            "real-private-lobby": world.lobby.public_id,
            "real-invite-code": world.lobby.invite_code,
            "real-fuzzer": FUZZER,
            "real-rival": world.rival.username,
            "real-bot": bots[0].username,
        },
    )


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_answers_as_the_schema_says(case, real_objects):
    real_objects.resolve(case)
    case.call_and_validate(headers={"Authorization": real_objects.authorization}, checks=CHECKS)
