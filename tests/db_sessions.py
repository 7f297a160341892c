"""The test database's sessions: none may outlive the run.

pytest-django drops each worker's test database at the end of the run, and PostgreSQL
refuses while another session is connected to it: the run then ends with a warning and
leaves the database behind.

- Websocket tests leave a connection open in asgiref's thread for synchronous code
  (``close_the_sync_thread_connections``): closed after each test.
- A process a test stopped (a web server, a Celery worker) takes a moment to be seen
  gone by PostgreSQL: at the end of the run the other sessions get that moment, and any
  still there are ended and named in a warning (``end_the_others``), with the thread
  that opened each (``name_each_connection_for_its_thread``) or the process holding it.
"""

from __future__ import annotations

import os
import threading
import time
import warnings
from dataclasses import dataclass
from typing import Any

import psutil
from asgiref.sync import SyncToAsync
from django.db import connection, connections
from django.db.backends.signals import connection_created

MOMENT_S = 10.0


def close_the_sync_thread_connections() -> None:
    """Close the connections of asgiref's thread for synchronous code, as a server would
    have. ``database_sync_to_async`` closes its thread's connection after each call, but
    channels' test communicators turn that off while they run (``channels.testing``), so
    a websocket test leaves the connection its consumer opened there, idle for good if no
    later test closes it: one left by the run's last test kept the test database from
    being dropped."""
    SyncToAsync.single_thread_executor.submit(connections.close_all).result(timeout=MOMENT_S)


def name_each_connection_for_its_thread() -> None:
    """Each connection this process opens tells PostgreSQL the thread it was opened in
    (``application_name``), so that one left open can be traced to its thread."""
    connection_created.connect(_name_for_thread, dispatch_uid="tests.db_sessions")


def _name_for_thread(sender: Any, connection: Any, **kwargs: Any) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            name = threading.current_thread().name[:63]
            cursor.execute("SELECT set_config('application_name', %s, false)", [name])


@dataclass(frozen=True)
class Session:
    pid: int  # the PostgreSQL backend's
    application_name: str
    client_port: int | None
    state: str
    query: str

    def describe(self) -> str:
        return (
            f"backend {self.pid} ({self.state}, last statement {self.query[:80]!r}) "
            f"opened in thread {self.application_name!r}, held by {_holder(self.client_port)}"
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
            "SELECT pid, application_name, client_port, coalesce(state, ''), "
            "coalesce(query, '') "
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
                    return "this test process"
                process = psutil.Process(found.pid)
                return f"process {found.pid} ({' '.join(process.cmdline())[:160]})"
    except (psutil.Error, OSError):
        pass
    return f"an unknown process (client port {client_port})"
