"""The production-mode stack the benchmarks run against, all on 127.0.0.1: a scratch
PostgreSQL database (created, migrated, dropped at the end) and the web server as
docs/deploy.md's process model starts it (``python -m remi_site.serve``), configured by the
environment as in production (``SECRET_KEY``, ``DATABASE_URL``, ``REDIS_URL``,
``DEBUG=0``; HTTP, since there is no TLS proxy in front: ``SECURE_SSL_REDIRECT=0``).

Redis is a server of the benchmark's own (``private_redis``), never a database number
of a shared one: the tests use those (1 to 15 of theirs). Every benchmark that starts
one takes its port and database number from ``--redis-port`` and ``--redis-db``
(``add_redis_options``), by default a free port the system picks and database 0.
Every benchmark takes its ports and database name as options (``add_stack_options``:
``--web-port``, ``--redis-port``, ``--redis-db``, ``--db-name``), so that two benchmarks
run side by side on one machine. Used by every benchmark that needs PostgreSQL or Redis.
"""

from __future__ import annotations

import argparse
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import httpx
import psycopg

ROOT = Path(__file__).resolve().parents[2]

PG_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


# The database number of the benchmark's Redis server by default: the tests use 1 to
# 15 (``remi_site.settings_test``), a server of their own or not.
REDIS_DB = 0


def add_redis_options(parser: argparse.ArgumentParser) -> None:
    """``--redis-port`` and ``--redis-db`` of the benchmark's own Redis server."""
    parser.add_argument(
        "--redis-port",
        type=int,
        default=0,
        help="port of the benchmark's own Redis server (default 0: a free one)",
    )
    parser.add_argument(
        "--redis-db",
        type=int,
        default=REDIS_DB,
        help=f"database number on it (default {REDIS_DB}; the tests use 1 to 15)",
    )
    add_database_option(parser)


def add_database_option(parser: argparse.ArgumentParser) -> None:
    """``--db-name`` of the benchmark's scratch PostgreSQL database."""
    parser.add_argument(
        "--db-name",
        default=None,
        help="name of the scratch PostgreSQL database (default: one made from the script's name)",
    )


def add_web_options(parser: argparse.ArgumentParser) -> None:
    """``--web-port`` of the benchmark's web server (two benchmarks on one machine)."""
    parser.add_argument(
        "--web-port",
        type=int,
        default=0,
        help="port of the benchmark's web server (default 0: a free one)",
    )


def add_stack_options(parser: argparse.ArgumentParser, *, web: bool = True) -> None:
    """The ports and the database name of a benchmark's own stack: ``--redis-port``,
    ``--redis-db``, ``--db-name`` and (``web``: when it starts a web server) ``--web-port``."""
    add_redis_options(parser)
    if web:
        add_web_options(parser)


def migrate(env: dict[str, str]) -> None:
    """``manage.py migrate`` on the database of ``env``, in a process of its own."""
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )


@contextmanager
def private_redis(port: int = 0, db: int = REDIS_DB) -> Iterator[str]:
    """A Redis server of this benchmark only, on ``port`` (0: a free one), keeping
    nothing on disk; yields the URL of its database ``db`` and stops it at the end."""
    if port:
        # A server already on that port (a test's) would answer the readiness check below.
        with socket.socket() as probe:
            # As redis-server binds: a port whose last connections are in TIME_WAIT is
            # free; one with a listener is not.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                raise RuntimeError(f"port {port} is taken: choose another --redis-port") from None
    port = port or free_port()
    server = subprocess.Popen(
        ["redis-server", "--bind", "127.0.0.1", "--port", str(port)]
        + ["--save", "", "--appendonly", "no", "--loglevel", "warning"],
        stdout=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError(f"redis-server did not start on port {port}") from None
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/{db}"
    finally:
        server.terminate()
        server.wait(10)


@contextmanager
def scratch_database(name: str) -> Iterator[str]:
    """A new PostgreSQL database ``name`` (not migrated), dropped at the end."""
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield name
    finally:
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # noqa: BLE001 - Django may not be set up
            pass
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def production_env(db_name: str, redis_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "remi_site.settings",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "DEBUG": "0",
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{db_name}",
            "REDIS_URL": redis_url,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "0",
            "CACHE_KEY_PREFIX": f"bench-{db_name}",
            "CHANNELS_PREFIX": f"bench-{db_name}",
            "LOG_LEVEL": "WARNING",
        }
    )
    return env


@contextmanager
def production_django(
    db_prefix: str, redis_port: int = 0, redis_db: int = REDIS_DB, db_name: str | None = None
) -> Iterator[str]:
    """This process set up as the site in production mode on a scratch database (named
    from ``db_prefix``, migrated, dropped at the end) and a Redis server of its own;
    yields the Redis URL."""
    db_name = db_name or f"{db_prefix}_{secrets.token_hex(4)}"
    with private_redis(redis_port, redis_db) as redis_url, scratch_database(db_name):
        env = production_env(db_name, redis_url)
        migrate(env)
        os.environ.update(env)
        import django

        django.setup()
        yield redis_url


class Stack:
    """The scratch database (on entering) and the web server (``start_server``);
    leaving stops the server and drops the database, unless ``keep_db``. The server's
    output goes to ``log`` when given (else to this process's)."""

    def __init__(
        self,
        workers: int,
        app: str = "remi_site.asgi:application",
        *,
        redis_url: str,
        log: Path | None = None,
        keep_db: bool = False,
        port: int = 0,
        db_name: str | None = None,
    ) -> None:
        self.app = app
        self.db_name = db_name or f"remi_bench_{os.getpid()}"
        self.env = production_env(self.db_name, redis_url)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.workers = workers
        self.log = log
        self.keep_db = keep_db
        self.server: subprocess.Popen[bytes] | None = None
        self._log_file: IO[bytes] | None = None

    def __enter__(self) -> Stack:
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.db_name}"')
        try:
            migrate(self.env)
        except BaseException:
            self._drop()
            raise
        return self

    def start_server(self) -> None:
        if self.log is not None:
            self._log_file = self.log.open("ab")
        self.server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "remi_site.serve",
                "--app",
                self.app,
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--workers",
                str(self.workers),
                "--no-access-log",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=self.env,
            start_new_session=True,
            stdout=self._log_file,
            stderr=subprocess.STDOUT if self._log_file else None,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/api/v1/rulesets", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.server.poll() is not None:
                raise RuntimeError("uvicorn exited")
            time.sleep(0.3)
        raise RuntimeError("uvicorn did not answer")

    def stop_server(self) -> None:
        if self.server is not None and self.server.poll() is None:
            os.killpg(self.server.pid, signal.SIGTERM)
            self.server.wait(30)

    def __exit__(self, *exc: object) -> None:
        try:
            if self.server is not None and self.server.poll() is None:
                os.killpg(self.server.pid, signal.SIGTERM)
                try:
                    self.server.wait(20)
                except subprocess.TimeoutExpired:
                    os.killpg(self.server.pid, signal.SIGKILL)
                    self.server.wait()
        finally:
            if self._log_file is not None:
                self._log_file.close()
            if self.keep_db:
                print(f"kept the database {self.db_name}")
            else:
                self._drop()

    def _drop(self) -> None:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
