"""The stack of ``bench/scale.py``: a scratch (or kept, or reused) database, the
production settings with the throttles' limits lifted, the static files' manifest, and
this process set up as a web worker is.
"""

from __future__ import annotations

import argparse
import os
import secrets
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path

import psycopg

from bench.kit.stack import (
    PG_ADMIN_URL,
    ROOT,
    production_env,
    scratch_database,
)


def bench_env(db_name: str, redis_url: str) -> dict[str, str]:
    env = production_env(db_name, redis_url)
    env["REMI_VAR_DIR"] = tempfile.mkdtemp(prefix="remi-scale-")
    # Pages need the static files' manifest, as after a deploy's collectstatic.
    env["STATIC_ROOT"] = str(Path(env["REMI_VAR_DIR"]) / "static")
    # The throttles still run (a cache call per request, as in production); only their
    # limits are lifted, since one client sends every request of a figure.
    env["THROTTLE_USER"] = "1000000/min"
    env["THROTTLE_ANON"] = "1000000/min"
    return env


def db_url(db_name: str) -> str:
    return f"postgresql://postgres@127.0.0.1:5432/{db_name}"


def database_migrate(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )


@contextmanager
def kept_database(name: str) -> Iterator[str]:
    """A new database ``name`` left in place at the end (``--keep-db``, for debugging)."""
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield name
    print(f"kept the database {name}")


def database(args: argparse.Namespace) -> AbstractContextManager[str]:
    """The database to seed and measure: a scratch one (dropped at the end), a kept one,
    or the kept one named by ``--reuse-db``."""
    if args.reuse_db:
        return nullcontext(args.reuse_db)
    name = args.db_name or f"remi_bench_scale_{secrets.token_hex(4)}"
    return kept_database(name) if args.keep_db else scratch_database(name)


def static_collect(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )


def django_setup(env: dict[str, str]) -> None:
    os.environ.update(env)
    import django

    django.setup()
    # As the web server starts (remi_site.asgi): the whole of Django and the engine
    # out of the garbage collector's sight, and collections between requests only
    # (remi_site.collector), so the collector costs a figure what it costs the server.
    import remi_site.asgi  # noqa: F401
