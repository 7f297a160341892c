"""The diagnostics of ``bench/api.py``: one move profiled in-process (pyinstrument),
the web workers' profile (``--profile-server``) and their split of each request's time
(``--time-server``, written by ``bench/asgi_timed.py``).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from bench.loadgen.players import choose


def profile_moves(count: int) -> str:
    """Play ``count`` moves in-process through the whole Django stack (middleware, DRF,
    services, PostgreSQL, Redis) under pyinstrument; returns the report.

    The moves run in a worker thread of a running event loop, as under uvicorn (where
    Django runs each request in a thread and ``async_to_sync`` hands coroutines such
    as the Channels sends back to the server's loop)."""
    from asgiref.sync import async_to_sync, sync_to_async

    return str(async_to_sync(sync_to_async(_profile_moves, thread_sensitive=False))(count))


def _profile_moves(count: int) -> str:
    from django.contrib.auth import get_user_model
    from django.test import Client
    from pyinstrument import Profiler

    from accounts import services as account_services

    users = [
        get_user_model().objects.create_user(username=f"profile{i}", password="x") for i in range(2)
    ]
    clients = []
    for user in users:
        _token, raw = account_services.token_create(user=user, name="profile")
        clients.append(Client(HTTP_AUTHORIZATION=f"Bearer {raw}", HTTP_HOST="127.0.0.1"))
    game_id = (
        clients[0]
        .post("/api/v1/games", {"preset": "serbian", "players": 2}, content_type="application/json")
        .json()["id"]
    )
    clients[1].post(f"/api/v1/games/{game_id}/join", {}, content_type="application/json")
    view = clients[0].post(f"/api/v1/games/{game_id}/start").json()
    views = [clients[i].get(f"/api/v1/games/{game_id}").json() for i in range(2)]
    profiler = Profiler(interval=0.0002)
    done = 0
    while done < count and view["status"] == "active":
        mover = view["to_move"]
        current = views[mover]
        if current["ply"] != view["ply"]:
            current = clients[mover].get(f"/api/v1/games/{game_id}").json()
        action = choose(current)
        profiler.start()
        response = clients[mover].post(
            f"/api/v1/games/{game_id}/actions",
            {"action": action, "ply": current["ply"]},
            content_type="application/json",
        )
        profiler.stop()
        view = response.json()["game"]
        views[mover] = view
        done += 1
    return str(profiler.output_text(unicode=True, color=False, show_all=False))


def print_server_profile(out: Path) -> None:
    import pstats

    files = sorted(out.parent.glob(out.name + ".*"))
    if not files:
        print("no server profile was written")
        return
    stats = pstats.Stats(str(files[0]))
    for extra in files[1:]:
        stats.add(str(extra))
    print(f"\nserver profile ({len(files)} worker processes, cProfile, by own time):")
    stats.sort_stats("tottime").print_stats(25)
    stats.sort_stats("cumulative").print_stats(45)


def print_server_timing(out: Path, workers: int) -> None:
    """The means written by ``bench/asgi_timed.py``, once every worker has written them
    since the load stopped."""
    import json

    stopped = time.time()
    deadline = time.monotonic() + 15
    files: list[Path] = []
    while time.monotonic() < deadline:
        files = sorted(out.parent.glob(out.name + ".*"))
        if len(files) >= workers and all(f.stat().st_mtime > stopped for f in files):
            break
        time.sleep(0.2)
    else:
        print("the web workers did not write their timings")
        return
    print(
        "\nwhere a request's time goes in the web workers (mean ms per request, and the "
        "slowest of each phase as 'max', the warm-ups and every phase of the run "
        "included; bench/asgi_timed.py):"
    )
    header = False
    for file in files:
        worker = file.name.rsplit(".", 1)[1]
        for kind, means in sorted(json.loads(file.read_text()).items()):
            requests = means.pop("requests")
            if not header:  # the phases as bench/asgi_timed.py names them, in its order
                print(
                    f"  {'worker':>8} {'kind':<13} {'requests':>8} "
                    + " ".join(f"{p:>10}" for p in means)
                )
                header = True
            print(
                f"  {worker:>8} {kind:<13} {requests:>8} "
                + " ".join(f"{ms:>10.2f}" for ms in means.values())
            )


def server_collections(out: Path) -> list[dict[str, Any]]:
    """The web workers' slow garbage collections (``bench/asgi_timed.py``), once each has
    written them since this call."""
    import json

    asked = time.time()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        files = sorted(out.parent.glob(out.name + "-collections.*"))
        if files and all(file.stat().st_mtime > asked for file in files):
            break
        time.sleep(0.2)
    found = []
    for file in sorted(out.parent.glob(out.name + "-collections.*")):
        worker = file.name.rsplit(".", 1)[1]
        found += [{"worker": worker, **event} for event in json.loads(file.read_text())]
    return found
