"""Fixtures shared by the whole suite: API clients, users, tokens.

Game fixtures live in tests/games/conftest.py.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from rest_framework.test import APIClient

from accounts import services as account_services

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "correct-horse-battery-staple"


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


class EmbeddedSite:
    """``make run`` in a scratch var/ directory on a free port: the README's command,
    with SQLite and the embedded Redis, exactly as a newcomer starts it."""

    def __init__(self) -> None:
        import socket
        import tempfile

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        # Short: a unix socket path must fit in 107 bytes.
        self.var_dir = Path(tempfile.mkdtemp(prefix="remi-"))
        self.log_path = self.var_dir / "make-run.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.descendants: list[Any] = []
        self.commands: list[str] = []  # command lines of the site's processes, at stop()

    def start(self, timeout: float = 180.0) -> None:
        drop = {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "DJANGO_SETTINGS_MODULE"}
        env = {k: v for k, v in os.environ.items() if k not in drop and not k.startswith("PYTEST")}
        env.update({"REMI_VAR_DIR": str(self.var_dir), "REMI_PORT": str(self.port)})
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                ["make", "--no-print-directory", "run"],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group, like a terminal job
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"make run exited early:\n{self.log()}"
            health = self.health()
            if health and health.get("worker") == "ok":
                return
            time.sleep(0.5)
        raise AssertionError(f"the site did not become healthy:\n{self.log()}")

    def health(self) -> dict[str, Any] | None:
        try:
            response = httpx.get(f"{self.url}/healthz", timeout=2)
        except httpx.HTTPError:
            return None
        return response.json() if response.status_code == 200 else None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-6000:]

    def stop(self, timeout: float = 60.0) -> list[Any]:
        """Ctrl-C, as a terminal sends it (SIGINT to the job's process group); returns
        the processes of the site that are still alive afterwards (should be none)."""
        import psutil

        assert self.process is not None
        self.descendants = psutil.Process(self.process.pid).children(recursive=True)
        self.commands = [" ".join(proc.cmdline()) for proc in self.descendants]
        os.killpg(self.process.pid, signal.SIGINT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout)
        _gone, alive = psutil.wait_procs(self.descendants, timeout=5)
        return alive

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        for proc in self.descendants:
            with contextlib.suppress(Exception):
                proc.kill()
        shutil.rmtree(self.var_dir, ignore_errors=True)


@pytest.fixture
def embedded_site() -> Iterator[EmbeddedSite]:
    """A running ``make run`` (embedded mode); stopped and cleaned up afterwards."""
    site = EmbeddedSite()
    try:
        site.start()
        yield site
    finally:
        if site.process is not None and site.process.poll() is None:
            site.stop()
        site.kill()
