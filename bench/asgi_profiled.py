"""Diagnostics for ``bench/api.py --profile-server``: the site's ASGI application with
every thread of the worker process under cProfile (Django runs each request in a
thread of its own), the merged statistics written to ``$REMI_PROFILE_OUT`` when the
worker exits (and every few seconds before, in case it is killed). Never serves."""

from __future__ import annotations

import atexit
import cProfile
import os
import pstats
import sys
import threading
from typing import Any

from remi_site.asgi import application

_profiles: list[cProfile.Profile] = []
_lock = threading.Lock()


def _start_in_thread(frame: Any, event: str, arg: Any) -> None:
    # First profiler event of a new thread: give it a profiler of its own (which
    # replaces this hook in this thread only; new threads still get the hook).
    sys.setprofile(None)
    profile = cProfile.Profile()
    with _lock:
        _profiles.append(profile)
    profile.enable()


def _dump() -> None:
    out = os.environ.get("REMI_PROFILE_OUT")
    if not out:
        return
    with _lock:
        profiles = list(_profiles)
    stats = None
    for profile in profiles:
        try:
            stats = pstats.Stats(profile) if stats is None else stats.add(profile)
        except TypeError:  # a thread that recorded nothing
            continue
    if stats is not None:
        stats.dump_stats(f"{out}.{os.getpid()}")


def _dump_every(seconds: float) -> None:
    import time

    while True:
        time.sleep(seconds)
        _dump()


threading.Thread(target=_dump_every, args=(3.0,), daemon=True).start()
threading.setprofile(_start_in_thread)
_main = cProfile.Profile()
_profiles.append(_main)
_main.enable()
atexit.register(_dump)

__all__ = ["application"]
