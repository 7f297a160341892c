"""Diagnostics for ``bench/api.py --time-server``: the site's ASGI application with the
time of each HTTP request split where it goes in a web worker. Never serves.

For each request, from the moment its body is read on the event loop:

- ``wait``: until a request thread starts on it (a free thread, then the GIL);
- ``thread``: the thread's wall time (middleware, view, database, Redis, commit), and
  ``cpu``, the CPU time of that thread within it: the rest of ``thread`` is spent
  waiting for the GIL, a pooled connection, PostgreSQL or Redis;
- ``return``: from the thread's end until the event loop runs again to send the answer
  (the loop waits for the GIL like any thread);
- ``send``: writing the answer;

and, as ``collection``, the garbage collection run on the event loop after each answer
(``remi_site.collector``), its time under ``cpu``.

Means per kind of request (the move, the baseline GET, a game's state, the rest), and the
largest value of each phase (``max wait`` ...: where a stall went), are written to
``$REMI_TIMING_OUT.<pid>`` as JSON every few seconds; and every garbage collection of
``SLOW_COLLECTION_S`` or more, wherever it ran (after an answer on the event loop, or an
automatic one in a request thread), with its start on the monotonic clock that
``bench/api.py --open-loop`` puts its timeline on, to
``$REMI_TIMING_OUT-collections.<pid>``. ``REMI_COLLECT_MIDDLE_EVERY`` changes how often
the middle generation is collected, to measure the collector's pauses at another pace.
"""

from __future__ import annotations

import gc
import json
import os
import threading
import time
from typing import Any

from remi_site import asgi_http, collector
from remi_site.asgi import application

PHASES = ("wait", "thread", "cpu", "return", "send")
# The garbage collection after each answer, on the event loop (its time under ``cpu``).
COLLECTOR = "collection"

SLOW_COLLECTION_S = 0.005

_collections: list[dict[str, Any]] = []  # the slow ones
_collecting: dict[int, tuple[float, float]] = {}  # thread -> its collection's start, CPU
_sums: dict[str, list[float]] = {}  # kind -> [count, *summed seconds by phase]
_maxima: dict[str, list[float]] = {}  # kind -> the largest seconds by phase
_lock = threading.Lock()

_read_body = asgi_http.ASGIHandler.read_body
_respond = asgi_http.ASGIHandler._respond
_send_response = asgi_http.ASGIHandler.send_response
_between_requests = collector.between_requests


def request_kind(scope: Any) -> str:
    path = scope["path"]
    if path.endswith("/actions"):
        return "move"
    if path == "/api/v1/me/vacation":
        return "baseline GET"
    if scope["method"] == "GET" and path.startswith("/api/v1/games/") and path.count("/") == 4:
        return "state GET"
    return "other"


async def read_body(self: Any, receive: Any) -> Any:
    body = await _read_body(self, receive)
    body.read_at = time.perf_counter()
    return body


def respond(self: Any, scope: Any, body_file: Any) -> Any:
    began, cpu = time.perf_counter(), time.thread_time()
    response = _respond(self, scope, body_file)
    ended = time.perf_counter()
    response.timing = (
        request_kind(scope),
        began - body_file.read_at,
        ended - began,
        time.thread_time() - cpu,
        ended,
    )
    return response


async def send_response(self: Any, response: Any, send: Any) -> None:
    sending = time.perf_counter()
    await _send_response(self, response, send)
    timing = getattr(response, "timing", None)
    if timing is None:
        return
    kind, wait, thread, cpu, ended = timing
    phases = (wait, thread, cpu, sending - ended, time.perf_counter() - sending)
    _add(kind, phases)


def _add(kind: str, phases: tuple[float, ...]) -> None:
    with _lock:
        sums = _sums.setdefault(kind, [0.0] * (len(PHASES) + 1))
        maxima = _maxima.setdefault(kind, [0.0] * len(PHASES))
        sums[0] += 1
        for index, seconds in enumerate(phases):
            sums[index + 1] += seconds
            maxima[index] = max(maxima[index], seconds)


def between_requests() -> None:
    began = time.perf_counter()
    _between_requests()
    phases = [0.0] * len(PHASES)
    phases[PHASES.index("cpu")] = time.perf_counter() - began
    _add(COLLECTOR, tuple(phases))


def _timed_collection(phase: str, info: dict[str, Any]) -> None:
    thread = threading.get_ident()
    if phase == "start":
        _collecting[thread] = (time.perf_counter(), time.thread_time())
        return
    began, cpu = _collecting.pop(thread, (0.0, 0.0))
    wall = time.perf_counter() - began
    if began and wall >= SLOW_COLLECTION_S:
        _collections.append(
            {
                "at": began,
                "wall": wall,
                "cpu": time.thread_time() - cpu,
                "generation": info["generation"],
                "collected": info["collected"],
                "on": threading.current_thread().name,
            }
        )


def _dump_every(seconds: float) -> None:
    out = os.environ["REMI_TIMING_OUT"]
    while True:
        time.sleep(seconds)
        with _lock:
            means = {
                kind: {"requests": int(sums[0])}
                | {phase: sums[i] / sums[0] * 1000 for i, phase in enumerate(PHASES, start=1)}
                | {f"max {phase}": _maxima[kind][i] * 1000 for i, phase in enumerate(PHASES)}
                for kind, sums in _sums.items()
            }
            collections = list(_collections)
        with open(f"{out}.{os.getpid()}", "w") as file:
            json.dump(means, file)
        with open(f"{out}-collections.{os.getpid()}", "w") as file:
            json.dump(collections, file)


asgi_http.ASGIHandler.read_body = read_body  # type: ignore[method-assign]
asgi_http.ASGIHandler._respond = respond  # type: ignore[method-assign]
asgi_http.ASGIHandler.send_response = send_response  # type: ignore[method-assign]
collector.between_requests = between_requests
gc.callbacks.append(_timed_collection)
# An experiment on the collector's pace, never a setting of the site: the middle generation
# collected every this many answers instead of ``collector.MIDDLE_EVERY``.
if os.environ.get("REMI_COLLECT_MIDDLE_EVERY"):
    collector.MIDDLE_EVERY = int(os.environ["REMI_COLLECT_MIDDLE_EVERY"])
threading.Thread(target=_dump_every, args=(2.0,), daemon=True).start()

__all__ = ["application"]
