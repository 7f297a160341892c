"""The stack's background processes as a benchmark runs them: each in a process group of
its own (killing it kills its children too), its output appended to a log: a Redis
server that can be killed and started again on its port, a Celery worker and beat.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import redis

from bench.kit.stack import (
    REDIS_DB,
    ROOT,
    free_port,
)

STOP_WAIT_S = 15.0


class Service:
    """A process of the stack in a process group of its own (so that killing it kills
    its children too), its output appended to ``log``."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], log: Path) -> None:
        self.name = name
        self.argv = argv
        self.env = env
        self.log = log
        self.popen: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.popen = subprocess.Popen(
                self.argv,
                cwd=ROOT,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def exit_code(self) -> int | None:
        """None while running (or never started)."""
        return None if self.popen is None else self.popen.poll()

    def kill(self) -> None:
        """SIGKILL the whole process group, as a crash or an OOM kill would."""
        if self.popen is None:
            return
        self._signal(signal.SIGKILL)
        self.popen.wait(STOP_WAIT_S)

    def stop(self) -> None:
        """SIGTERM the leader, then SIGKILL whatever is left of the group after
        ``STOP_WAIT_S``. The leader alone: a Celery worker's warm shutdown stops its own
        pool; a SIGTERM to the whole group killed the pool under it, and the worker
        logged each child as a ``WorkerLostError``."""
        if self.popen is None:
            return
        with contextlib.suppress(ProcessLookupError):
            self.popen.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(STOP_WAIT_S)
        # Children of a leader that already exited (a Celery pool) may remain.
        self._signal(signal.SIGKILL)
        try:
            self.popen.wait(STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            print(f"{self.name} (pid {self.popen.pid}) did not exit", file=sys.stderr)

    def _signal(self, signum: int) -> None:
        assert self.popen is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signum)


class RedisServer(Service):
    def __init__(self, folder: Path, port: int = 0, db: int = REDIS_DB) -> None:
        self.port = port or free_port()
        super().__init__(
            "redis",
            [
                "redis-server",
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(folder),
            ],
            dict(os.environ),
            folder / "redis.log",
        )
        self.url = f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        super().start()
        self.wait_ready()

    def wait_ready(self) -> None:
        client = redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=1)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                if client.ping():
                    return
            except redis.RedisError:
                pass
            if self.exit_code() is not None:
                raise RuntimeError(f"redis-server exited; see {self.log}")
            time.sleep(0.1)
        raise RuntimeError(f"redis-server did not answer; see {self.log}")


def celery_worker(env: dict[str, str], logs: Path) -> Service:
    argv = [sys.executable, "-m", "celery", "-A", "remi_site", "worker", "--concurrency", "2"]
    argv += ["--without-mingle", "--without-gossip", "--loglevel", "WARNING"]
    return Service("worker", argv, env, logs / "worker.log")


def celery_push_worker(env: dict[str, str], logs: Path) -> Service:
    """The Web Push worker of docs/deploy.md's process model (``/healthz`` fails without
    one): the ``push`` queue only."""
    argv = [sys.executable, "-m", "celery", "-A", "remi_site", "worker", "--queues", "push"]
    argv += ["--concurrency", "1", "--without-mingle", "--without-gossip", "--loglevel", "WARNING"]
    return Service("push worker", argv, env, logs / "push-worker.log")


def celery_beat(env: dict[str, str], logs: Path) -> Service:
    argv = [sys.executable, "-m", "celery", "-A", "remi_site", "beat", "--loglevel", "WARNING"]
    return Service("beat", argv, env, logs / "beat.log")
