"""Whole sites in real processes, for the tests that start them: ``make run`` (the
README's command: web, worker, beat, and the embedded Redis unless ``REDIS_URL`` is
given), a Redis server of the test's own that it may stop and start again, and a
polling wait with a deadline."""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import psutil

ROOT = Path(__file__).resolve().parent.parent
T = TypeVar("T")

# The command line that tells each of the site's processes apart.
ROLES = {
    "web": "uvicorn",
    "worker": "remi_site worker",
    "beat": "remi_site beat",
    "redis": "redis-server",
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for(condition: Callable[[], T], *, timeout: float, what: str, every: float = 0.2) -> T:
    """Poll ``condition`` until it returns something truthy; fail naming ``what``."""
    deadline = time.monotonic() + timeout
    while True:
        found = condition()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(every)


def runtime_venv() -> Path:
    """A virtualenv made from requirements.txt alone: ``make test`` makes one afresh
    (``REMI_RUNTIME_VENV``); otherwise one is made here for this test process."""
    given = os.environ.get("REMI_RUNTIME_VENV")
    if given:
        # The development virtualenv would pass for one and hide a missing runtime
        # requirement; say so at once rather than through a failed import check.
        assert not list(Path(given).glob("lib/python*/site-packages/pytest")), (
            f"REMI_RUNTIME_VENV={given} holds the development requirements: point it at a "
            "virtualenv made from requirements.txt alone (make's RUNTIME_VENV) or unset it"
        )
        return Path(given)
    venv = Path(tempfile.mkdtemp(prefix="remi-runtime-venv-"))
    subprocess.run(["python3.11", "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [venv / "bin/python", "-m", "pip", "install", "--disable-pip-version-check", "-q"]
        + ["-r", str(ROOT / "requirements.txt")],
        check=True,
    )
    (venv / ".installed-requirements").touch()
    return venv


class Site:
    """``make run`` in a scratch var/ directory on a free port, from ``venv``, with
    ``env`` added (``DATABASE_URL``, ``REDIS_URL``: the production configuration)."""

    def __init__(self, *, venv: Path, env: dict[str, str] | None = None) -> None:
        self.venv = venv
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # Short: a unix socket path must fit in 107 bytes.
        self.var_dir = Path(tempfile.mkdtemp(prefix="remi-"))
        self.log_path = self.var_dir / "make-run.log"
        self.extra_env = env or {}
        self.process: subprocess.Popen[bytes] | None = None
        self.descendants: list[Any] = []
        self.commands: list[str] = []  # command lines of the site's processes, at stop()

    def start(self, timeout: float = 180.0) -> None:
        drop = {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "DJANGO_SETTINGS_MODULE"}
        env = {k: v for k, v in os.environ.items() if k not in drop and not k.startswith("PYTEST")}
        env.update({"REMI_VAR_DIR": str(self.var_dir), "REMI_PORT": str(self.port)})
        env.update(self.extra_env)
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                ["make", "--no-print-directory", "run", f"VENV={self.venv}"],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group, like a terminal job
            )
        wait_for(self._started, timeout=timeout, what=f"a healthy site:\n{self.log()}")

    def _started(self) -> bool:
        assert self.process is not None
        assert self.process.poll() is None, f"make run exited early:\n{self.log()}"
        return self.health()[0] == 200

    def health(self) -> tuple[int, dict[str, Any]]:
        """(status code, body) of /healthz; (0, {}) when nothing answers."""
        try:
            response = httpx.get(f"{self.url}/healthz", timeout=5)
        except httpx.HTTPError:
            return 0, {}
        return response.status_code, response.json()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-8000:]

    def processes(self, role: str) -> list[Any]:
        """The live processes of ``role`` (web, worker, beat, redis) under make run."""
        assert self.process is not None
        mark = ROLES[role]
        found = []
        for proc in psutil.Process(self.process.pid).children(recursive=True):
            with contextlib.suppress(psutil.Error):
                if mark in " ".join(proc.cmdline()):
                    found.append(proc)
        return found

    def signal_role(self, role: str, sig: signal.Signals) -> list[int]:
        """Send ``sig`` to the process groups of ``role`` (a worker's pool included)."""
        groups = {os.getpgid(proc.pid) for proc in self.processes(role)}
        for group in groups:
            os.killpg(group, sig)
        return sorted(groups)

    def stop(self, timeout: float = 60.0) -> list[Any]:
        """Ctrl-C, as a terminal sends it (SIGINT to the job's process group); returns
        the processes of the site that are still alive afterwards (should be none)."""
        assert self.process is not None
        self.descendants = psutil.Process(self.process.pid).children(recursive=True)
        self.commands = [" ".join(proc.cmdline()) for proc in self.descendants]
        os.killpg(self.process.pid, signal.SIGINT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout)
        _gone, alive = psutil.wait_procs(self.descendants, timeout=5)
        return alive

    @contextlib.contextmanager
    def running(self) -> Iterator[Site]:
        """Started, then stopped (Ctrl-C) and cleaned up, whatever happens inside."""
        try:
            self.start()
            yield self
        finally:
            if self.process is not None and self.process.poll() is None:
                self.stop()
            self.kill()

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        for proc in self.descendants:
            with contextlib.suppress(Exception):
                proc.kill()
        shutil.rmtree(self.var_dir, ignore_errors=True)


SERVER = "postgres://postgres@127.0.0.1:5432"


@contextlib.contextmanager
def scratch_database(prefix: str) -> Iterator[str]:
    """A fresh PostgreSQL database of a started site's own (the site migrates it); its
    URL. Dropped at the end, whoever is still connected."""
    import psycopg

    name = f"{prefix}_{secrets.token_hex(4)}"
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{SERVER}/{name}"
    finally:
        with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class RedisServer:
    """A Redis server of the test's own on a free port, which it may stop (as a crash
    would: nothing saved) and start again on the same port."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.dir = Path(tempfile.mkdtemp(prefix="remi-redis-"))
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary, "redis-server is not installed"
        self.process = subprocess.Popen(
            [binary, "--bind", "127.0.0.1", "--port", str(self.port), "--save", ""]
            + ["--appendonly", "no", "--dir", str(self.dir)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for(self.answers, timeout=15, what=f"Redis on port {self.port}")

    def answers(self) -> bool:
        import redis

        client = redis.Redis(port=self.port, socket_connect_timeout=0.5)
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False
        finally:
            client.close()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
