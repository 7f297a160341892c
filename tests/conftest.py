"""Fixtures shared by the whole suite: API clients, users, tokens.

Game fixtures live in tests/gamekit_fixtures.py, loaded here as a plugin.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from rest_framework.test import APIClient

from accounts import services as account_services
from remi_site import asgi_http
from tests import db_flush, db_sessions, open_sockets, sites
from tests.user_kit import PASSWORD

# The game fixtures (and the replay check after every test that uses the database).
pytest_plugins = ["tests.gamekit_fixtures"]

open_sockets.watch()
db_sessions.name_each_connection_for_its_thread()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """Before the test's fixtures (its event loop among them, and after the last test the
    test database) are torn down: see ``tests.open_sockets`` and ``tests.db_sessions``."""
    left_open = open_sockets.close_those_left_open()
    db_sessions.close_the_sync_thread_connections()
    result = yield
    assert not left_open, (
        f"{item.nodeid} left {left_open} websocket connection(s) open: "
        "disconnect each communicator it connects"
    )
    return result


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """pytest-django's test database, which it drops at the end: see ``tests.db_sessions``."""
    yield
    with django_db_blocker.unblock():
        db_sessions.end_the_others()


@pytest.fixture(scope="session", autouse=True)
def transactional_tests_flush_by_delete() -> Iterator[None]:
    """See ``tests.db_flush``: the same empty tables after each transactional test."""
    db_flush.flush_by_delete()
    yield
    db_flush.flush_by_truncate()


@pytest.fixture(autouse=True)
def fresh_channel_layer() -> Iterator[None]:
    """Each test gets channel layer instances of its own.

    channels_redis binds a layer's receiving side to the event loop of its first
    receiver: a consumer left waiting by one test (in the uvicorn thread of a browser
    test that failed, say) would make every later websocket test of the process fail
    with "Two event loops are trying to receive() on one channel layer at once".
    """
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def language_of_the_settings() -> Iterator[None]:
    """Each test starts in the settings' language. Django's test client runs a request
    in the test's own thread and ``LocaleMiddleware`` leaves the request's language
    active after it: a request in Polish made one test's expectations Polish in the
    next test of the same worker."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def websocket_frames_follow_the_contract(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every frame a test receives from /ws/v1/, and every one it sends with
    ``send_json_to``, is checked against docs/asyncapi.yaml (tests/asyncapi_contract.py)."""
    from tests.asyncapi_contract import watch_communicators

    watch_communicators(monkeypatch)


@pytest.fixture
def password() -> str:
    return PASSWORD


@pytest.fixture
def api_client() -> APIClient:
    """An anonymous API client."""
    return APIClient()


@pytest.fixture
def user_factory(db: None) -> Callable[..., Any]:
    """``user_factory(username=None, password=PASSWORD, **profile_fields)``: a person."""
    counter = iter(range(1, 1_000_000))
    user_model = get_user_model()

    def make(username: str | None = None, password: str = PASSWORD, **profile: Any) -> Any:
        user = user_model.objects.create_user(
            username=username or f"player{next(counter)}", password=password
        )
        if profile:
            for field, value in profile.items():
                setattr(user.profile, field, value)
            user.profile.save()
        return user

    return make


@pytest.fixture
def user(user_factory: Callable[..., Any]) -> Any:
    return user_factory(username="ana", display_name="Ana")


@pytest.fixture
def token_factory(db: None) -> Callable[..., tuple[Any, str]]:
    """``token_factory(user, name="test", expires_in=None)`` -> (ApiToken, raw token)."""

    def make(user: Any, name: str = "test", expires_in: Any = None) -> tuple[Any, str]:
        return account_services.token_create(user=user, name=name, expires_in=expires_in)

    return make


@pytest.fixture
def client_for(token_factory: Callable[..., tuple[Any, str]]) -> Callable[[Any], APIClient]:
    """``client_for(user)``: an API client authenticated as that user with a real token.
    The client has ``.user`` and ``.token`` (the raw token) attributes."""

    def make(user: Any) -> APIClient:
        _token, raw = token_factory(user)
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
        client.user = user  # type: ignore[attr-defined]
        client.token = raw  # type: ignore[attr-defined]
        return client

    return make


@pytest.fixture
def auth_client(client_for: Callable[[Any], APIClient], user: Any) -> APIClient:
    """An API client authenticated (by API token) as ``user``."""
    return client_for(user)


@pytest.fixture
def bots(db: None) -> list[Any]:
    """The built-in bot users, levels 1 to 4."""
    return account_services.bots_ensure()


@pytest.fixture
def clear_cache() -> None:
    """Empty this test worker's Redis database (throttle counters, heartbeats)."""
    cache.clear()


# ------------------------------------------------------------------ the embedded mode


@pytest.fixture(scope="session")
def runtime_venv() -> Path:
    """A virtualenv made from requirements.txt alone (see ``tests.sites.runtime_venv``)."""
    return sites.runtime_venv()


@pytest.fixture
def embedded_site(runtime_venv: Path) -> Iterator[sites.Site]:
    """A running ``make run`` (embedded mode) from the runtime-only virtualenv; stopped
    and cleaned up afterwards."""
    # A short bot stall keeps the lost-task test short.
    with sites.Site(venv=runtime_venv, env={"BOT_STALL_S": "3"}).running() as site:
        yield site


@pytest.fixture
def asgi_server(transactional_db: None) -> Iterator[str]:
    """The whole ASGI application (pages, API and the /ws/v1/ websocket) served by
    uvicorn in a thread of this process, on the test database (Celery eager: built-in
    bots move inline); yields its base URL."""
    import socket
    import threading
    import time

    import uvicorn

    from remi_site.asgi import application

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(
        application, host="127.0.0.1", port=port, log_level="warning", lifespan="off"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="asgi-test-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        if thread.is_alive():
            # A connection that would not close holds a graceful shutdown up: cut it.
            server.force_exit = True
            thread.join(10)
        assert not thread.is_alive(), "the test's uvicorn server did not stop"
        # Its request threads outlive it: their idle sessions would hold the test
        # database up at the end of the run (tests/db_sessions.py).
        asgi_http.close_thread_connections()
