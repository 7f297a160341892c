"""The web server: ``python -m remi_site.serve --workers N --host H --port P``.

uvicorn (httptools, uvloop) serving ``remi_site.asgi:application`` in ``--workers``
processes, each with a listening socket of its own on the same port
(``SO_REUSEPORT``): the kernel spreads new connections evenly over the workers.
(With ``uvicorn --workers`` the processes share one socket, and whichever worker
wakes first accepts a whole burst of connections: with keep-alive clients, or a
proxy's pooled upstream connections, one worker then did most of the work while
another idled.) Ctrl-C or SIGTERM stops every worker.

Without ``SO_REUSEPORT`` (not Linux/BSD) it falls back to ``uvicorn --workers``.
Other uvicorn options: the ``UVICORN_*`` environment variables uvicorn reads.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import signal
import socket
import sys
from typing import Any

APP = "remi_site.asgi:application"
WS_MAX_FRAME_BYTES = 64 * 1024


def _options(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "app": args.app,
        "http": "httptools",
        "loop": "uvloop",
        "lifespan": "off",
        "log_level": args.log_level,
        "access_log": not args.no_access_log,
        # The application alone decides the client's address (remi_site.client_ip,
        # PROXY_COUNT); uvicorn's own rule would trust X-Forwarded-For from 127.0.0.1.
        "proxy_headers": False,
        # The largest legitimate websocket message is tiny (docs/websocket.md): a bigger
        # frame is closed with 1009 before it is buffered whole (uvicorn's default: 16 MiB).
        "ws_max_size": WS_MAX_FRAME_BYTES,
        # uvicorn waits for every connection's task on shutdown, with no limit by
        # default; a websocket refused during its handshake can leave one behind under
        # uvloop, and a live game's sockets never end by themselves. Clients reconnect.
        "timeout_graceful_shutdown": int(os.environ.get("WEB_SHUTDOWN_TIMEOUT_S", "10")),
    }


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def _worker(host: str, port: int, options: dict[str, Any]) -> None:
    import uvicorn

    sock = _listen(host, port)
    config = uvicorn.Config(**options)
    uvicorn.Server(config).run(sockets=[sock])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--workers",
        type=int,
        default=int(os.environ.get("WEB_CONCURRENCY", "1")),
        help="worker processes (default $WEB_CONCURRENCY or 1)",
    )
    parser.add_argument("--app", default=APP)
    parser.add_argument("--log-level", default="info")
    parser.add_argument("--no-access-log", action="store_true")
    args = parser.parse_args(argv)
    options = _options(args)
    if not hasattr(socket, "SO_REUSEPORT"):  # pragma: no cover - not Linux
        import uvicorn

        uvicorn.run(host=args.host, port=args.port, workers=args.workers, **options)
        return
    # Fail here, not in the workers, when the address is taken.
    _listen(args.host, args.port).close()
    context = multiprocessing.get_context("spawn")
    workers = [
        context.Process(target=_worker, args=(args.host, args.port, options), daemon=False)
        for _ in range(max(1, args.workers))
    ]
    for worker in workers:
        worker.start()

    def stop(signum: int, _frame: Any) -> None:
        for worker in workers:
            if worker.pid is not None and worker.is_alive():
                os.kill(worker.pid, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for worker in workers:
        worker.join()
    sys.exit(max((worker.exitcode or 0) for worker in workers))


if __name__ == "__main__":
    main()
