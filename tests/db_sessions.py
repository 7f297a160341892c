"""The test database's other sessions, when the run is over.

pytest-django drops each worker's test database at the end of the run, and PostgreSQL
refuses while another session is connected to it: the run then ends with a warning
and leaves the database behind. A process a test stopped (a web server, a Celery
worker) takes a moment to be seen gone by PostgreSQL, so the others are first given
time to end; any still there are then ended, and named (the process holding each, found
by its local port) in a warning, so that the test that leaks it can be found.
"""

from __future__ import annotations

import os
import threading
import time
import warnings
from dataclasses import dataclass

import psutil
from django.db import connection

MOMENT_S = 10.0


@dataclass(frozen=True)
class Session:
    pid: int  # the PostgreSQL backend's
    client_port: int | None
    state: str
    query: str

    def describe(self) -> str:
        return (
            f"backend {self.pid} ({self.state}, last statement {self.query[:80]!r}) "
            f"held by {_holder(self.client_port)}"
        )


def end_the_others() -> None:
    """Wait a moment for the test database's other sessions to end; end and name any left."""
    left = _wait_for_the_others(MOMENT_S)
    if not left:
        return
    warnings.warn(
        "sessions were still connected to the test database at the end of the run; "
        "ended them: " + "; ".join(session.describe() for session in left),
        stacklevel=1,
    )
    with connection.cursor() as cursor:
        for session in left:
            cursor.execute("SELECT pg_terminate_backend(%s)", [session.pid])
    _wait_for_the_others(MOMENT_S)


def _wait_for_the_others(seconds: float) -> list[Session]:
    deadline = time.monotonic() + seconds
    while (left := _others()) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def _others() -> list[Session]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, client_port, coalesce(state, ''), coalesce(query, '') "
            "FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid()"
        )
        return [Session(*row) for row in cursor.fetchall()]


def _holder(client_port: int | None) -> str:
    if client_port is None or client_port < 0:
        return "a client on a Unix socket"
    try:
        for found in psutil.net_connections(kind="tcp"):
            if found.laddr and found.laddr.port == client_port and found.pid is not None:
                if found.pid == os.getpid():
                    return f"this test process, whose other threads are: {_threads()}"
                process = psutil.Process(found.pid)
                return f"process {found.pid} ({' '.join(process.cmdline())[:160]})"
    except (psutil.Error, OSError):
        pass
    return f"an unknown process (client port {client_port})"


def _threads() -> str:
    names = [t.name for t in threading.enumerate() if t is not threading.current_thread()]
    return ", ".join(names) or "none"
