"""A real Celery worker (with its beat) for the tests, on this test's database and Redis
database, and waiting on what it does."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

from django.db import connection
from django.utils import timezone

from games.models import Game

ROOT = Path(__file__).resolve().parents[2]


class Worker:
    """``celery -A remi_site worker -B`` on this test's database and Redis database."""

    def __init__(self) -> None:
        self.var_dir = tempfile.mkdtemp(prefix="remi-worker-")
        settings_dict = connection.settings_dict
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "remi_site.settings_test",
            "TEST_DATABASE_URL": (
                f"postgres://{settings_dict['USER']}@{settings_dict['HOST']}:"
                f"{settings_dict['PORT']}/{settings_dict['NAME']}"
            ),
            "REMI_VAR_DIR": self.var_dir,
            "DEADLINE_SWEEP_S": "0.5",
        }
        self.process: subprocess.Popen[bytes] | None = None
        self.beat = True  # off: only the tasks a test queues run

    def start(self) -> None:
        log = open(Path(self.var_dir) / "worker.log", "ab")  # noqa: SIM115
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "remi_site",
                "worker",
                *(["-B"] if self.beat else []),
                "-c",
                "1",
                "--without-gossip",
                "--without-mingle",
                "-l",
                "WARNING",
                "-s",
                str(Path(self.var_dir) / "beat-schedule"),
            ],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.process = None

    def log(self) -> str:
        return (Path(self.var_dir) / "worker.log").read_text(errors="replace")[-4000:]


def wait_for(condition: Callable[[], bool], timeout: float, worker: Worker) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out; worker log:\n{worker.log()}")


def later_sweeps_ran(started_game: Callable[..., Game], worker: Worker, times: int = 2) -> None:
    """Wait until ``times`` more deadline sweeps have run: each one times out a game
    made overdue after the one before (the worker runs one task at a time, in order)."""
    for _ in range(times):
        witness = started_game(2, days_per_move=1)
        overdue = timezone.now() - timedelta(seconds=1)
        Game.objects.filter(pk=witness.pk).update(deadline_at=overdue)
        wait_for(lambda w=witness: Game.objects.get(pk=w.pk).ply > w.ply, 60, worker)
