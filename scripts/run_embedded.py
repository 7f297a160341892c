#!/usr/bin/env python
"""Run the whole site on one machine: embedded Redis, ASGI server, Celery workers and beat.

``make run`` migrates, creates the bots and then execs this. All five processes are
children of this one: two Celery workers, the main one and one for the ``push`` queue
alone, so that a push service that hangs never holds up a bot move or a deadline.
Ctrl-C (SIGINT), SIGTERM or SIGHUP stops them all, the web server, beat and the workers
first and Redis last. A web server, worker or beat that dies is started again (a crash
loses no game: the state is in the database); one that keeps dying (``MAX_RESTARTS``
in ``RESTART_WINDOW_S``), or the embedded Redis dying, stops everything and this exits
non-zero.

Environment: ``REMI_HOST`` (127.0.0.1), ``REMI_PORT`` (8000), ``REMI_WEB_WORKERS`` (1),
``REMI_CELERY_CONCURRENCY`` (2), ``REMI_PUSH_CONCURRENCY`` (2, the push worker's),
``REMI_VAR_DIR`` (var/). With ``REDIS_URL`` set, that Redis is used and none is
started. ``SITE_URL``, the address in the links that emails carry, defaults to the
address served (``site_url``), so that they work on any port.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import FrameType
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from remi_site import embedded_redis  # noqa: E402

STOP_TIMEOUT = 15.0
MAX_RESTARTS = 5
RESTART_WINDOW_S = 60.0
_print_lock = threading.Lock()


def say(name: str, line: str) -> None:
    with _print_lock:
        sys.stdout.write(f"{name:>6} | {line.rstrip()}\n")
        sys.stdout.flush()


def _die_with_parent() -> None:
    """In the child, before exec: get SIGTERM if this supervisor dies, even by SIGKILL."""
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:  # not Linux: Ctrl-C still stops everything, a SIGKILL may not
        pass


def _pump(name: str, stream: IO[bytes]) -> None:
    for raw in iter(stream.readline, b""):
        say(name, raw.decode(errors="replace"))
    stream.close()


class Child:
    """One supervised process, in its own process group so that the terminal's Ctrl-C
    reaches only the supervisor, which then stops the children in order."""

    def __init__(
        self, name: str, process: subprocess.Popen[bytes], command: list[str] | None = None
    ) -> None:
        self.name = name
        self.process = process
        self.command = command
        self.restarts: list[float] = []
        if process.stdout is not None:
            threading.Thread(target=_pump, args=(name, process.stdout), daemon=True).start()

    @classmethod
    def start(cls, name: str, command: list[str], env: dict[str, str]) -> Child:
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
        return cls(name, process, command)

    def restart(self, env: dict[str, str]) -> Child | None:
        """The same command started again, or None when it has died too often lately."""
        now = time.monotonic()
        recent = [t for t in self.restarts if now - t < RESTART_WINDOW_S]
        if self.command is None or len(recent) >= MAX_RESTARTS:
            return None
        child = Child.start(self.name, self.command, env)
        child.restarts = [*recent, now]
        return child

    def alive(self) -> bool:
        return self.process.poll() is None

    def ask_to_stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.process.pid, signal.SIGTERM)

    def signal_group(self, sig: signal.Signals) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, sig)


def stop_all(children: list[Child], timeout: float = STOP_TIMEOUT) -> None:
    """SIGTERM each child, wait, then SIGKILL what is left (including grandchildren).

    Only the child itself is asked to stop: it stops its own processes in its own
    order (the Celery worker lets its pool finish the task at hand, which a SIGTERM
    to the whole group would kill halfway)."""
    for child in children:
        if child.alive():
            say("run", f"stopping {child.name}")
        child.ask_to_stop()
    deadline = time.monotonic() + timeout
    for child in children:
        try:
            child.process.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            say("run", f"{child.name} did not stop in {timeout:.0f} s: killing it")
    for child in children:
        # Also reaps grandchildren (the worker's pool) that outlived their parent.
        child.signal_group(signal.SIGKILL)
        if child.alive():
            child.process.wait()


def wait_until_serving(
    url: str, children: list[Child], stop: threading.Event, timeout: float = 60.0
) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not stop.is_set():
        if any(not child.alive() for child in children):
            return False
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return True
        except (urllib.error.URLError, OSError):
            pass
        stop.wait(0.25)
    return False


def site_url(host: str, port: str) -> str:
    """The address the site is served at, as a browser on this machine reaches it."""
    shown_host = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    return f"http://{shown_host}:{port}"


def main() -> int:
    host = os.environ.get("REMI_HOST", "127.0.0.1")
    port = os.environ.get("REMI_PORT", "8000")
    var_dir = Path(os.environ.get("REMI_VAR_DIR", ROOT / "var")).resolve()
    (var_dir / "log").mkdir(parents=True, exist_ok=True)
    url = site_url(host, port)

    env = dict(os.environ)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": env.get("DJANGO_SETTINGS_MODULE", "remi_site.settings"),
            "REMI_VAR_DIR": str(var_dir),
            "PYTHONUNBUFFERED": "1",
            # The links in emails (a worker's) point at this server.
            "SITE_URL": env.get("SITE_URL", url),
        }
    )

    stopping = threading.Event()

    def request_stop(signum: int, frame: FrameType | None) -> None:
        if not stopping.is_set():
            say("run", f"{signal.Signals(signum).name} received: stopping everything")
        stopping.set()

    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, request_stop)

    redis_child: Child | None = None
    adopted_redis = False
    if "REDIS_URL" in os.environ:
        say("run", f"using Redis at {os.environ['REDIS_URL']}")
    elif embedded_redis.is_running(var_dir):
        # Left over from a run that was killed: reuse it, and stop it when we stop.
        adopted_redis = True
        say("run", f"reusing the embedded Redis on {embedded_redis.socket_path(var_dir)}")
    else:
        process = embedded_redis.start(
            var_dir,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
        redis_child = Child("redis", process)
        say("run", f"embedded Redis on {embedded_redis.socket_path(var_dir)}")

    python = sys.executable
    services = [
        Child.start(
            "web",
            [
                python, "-m", "uvicorn", "remi_site.asgi:application",
                "--host", host, "--port", port, "--lifespan", "off",
                "--timeout-graceful-shutdown", "5", "--no-proxy-headers", "--ws-max-size", "65536",
                "--workers", os.environ.get("REMI_WEB_WORKERS", "1"),
            ],
            env,
        ),
        Child.start(
            "worker",
            [
                python, "-m", "celery", "-A", "remi_site", "worker", "--loglevel", "INFO",
                "--concurrency", os.environ.get("REMI_CELERY_CONCURRENCY", "2"),
                "--hostname", f"remi-{port}@%h", "--without-mingle", "--without-gossip",
            ],
            env,
        ),
        Child.start(
            "push",
            [
                python, "-m", "celery", "-A", "remi_site", "worker", "--loglevel", "INFO",
                "--queues", "push",
                "--concurrency", os.environ.get("REMI_PUSH_CONCURRENCY", "2"),
                "--hostname", f"remi-{port}-push@%h", "--without-mingle", "--without-gossip",
            ],
            env,
        ),
        Child.start(
            "beat",
            [
                python, "-m", "celery", "-A", "remi_site", "beat", "--loglevel", "INFO",
                "--pidfile=",
            ],
            env,
        ),
    ]  # fmt: skip
    everyone = [*services, *([redis_child] if redis_child else [])]

    if wait_until_serving(f"{url}/healthz", everyone, stopping):
        say("run", f"Remi online is running at {url}/  (API docs: {url}/api/docs/)")
        say("run", "press Ctrl-C to stop")

    exit_code = 0
    while not stopping.is_set() and not exit_code:
        if redis_child is not None and not redis_child.alive():
            say("run", f"redis exited with {redis_child.process.returncode}")
            exit_code = 1
        for index, child in enumerate(services):
            if exit_code or child.alive() or stopping.is_set():
                continue
            say("run", f"{child.name} exited with {child.process.returncode}")
            replacement = child.restart(env)
            if replacement is None:
                say("run", f"{child.name} keeps exiting: stopping everything")
                exit_code = 1
                break
            say("run", f"{child.name} started again")
            services[index] = replacement
        stopping.wait(0.5)

    stop_all(services)
    if redis_child is not None:
        stop_all([redis_child], timeout=5.0)
    elif adopted_redis:
        embedded_redis.shutdown(var_dir)
    say("run", "stopped")
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
