"""What the API's user throttle costs a request, against DRF's own, as a client's
requests in the window grow.

    .venv/bin/python bench/throttle_cost.py [--steps 6] [--calls 1000]

A scratch PostgreSQL database and a Redis server of its own, production settings (the
throttles count in that Redis; the user rate raised so that nothing is refused). One
user's requests go through ``remi_site.throttling.UserRateThrottle`` (a sliding window
counter, one Redis script call) and through DRF's ``UserRateThrottle`` (the time of
every request in the window, a list read from the cache and written back whole), each
with the site's cache and each counting its own requests, ``--calls`` at a time,
alternating, ``--steps`` times: DRF's list grows by ``--calls`` each step, the window's
two counters do not. It prints each throttle's CPU per request at each step.

A benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.kit.stack import add_redis_options, production_django  # noqa: E402


def per_call_us(throttle_class: Any, request: Any, calls: int) -> float:
    began = time.process_time()
    for _ in range(calls):
        if not throttle_class().allow_request(request, None):
            raise RuntimeError(f"{throttle_class.__module__} refused a request")
    return (time.process_time() - began) / calls * 1e6


def run(args: argparse.Namespace) -> None:
    from django.contrib.auth import get_user_model
    from django.core.cache import caches
    from rest_framework import throttling as drf
    from rest_framework.request import Request
    from rest_framework.test import APIRequestFactory

    from remi_site import throttling as site

    class DrfUserRateThrottle(drf.UserRateThrottle):
        cache = caches["default"]

    user = get_user_model().objects.create_user(username="throttled", password="unused-1")
    request = Request(APIRequestFactory().get("/api/v1/me"))
    request.user = user
    ways = {
        "the site's (sliding window)": site.UserRateThrottle,
        "DRF's (list)": DrfUserRateThrottle,
    }
    print(
        f"bench/throttle_cost.py: {args.steps} steps of {args.calls} requests through each "
        f"throttle, alternating; load average {os.getloadavg()[0]:.2f}"
    )
    print(f"{'requests in the window':>22}  " + "  ".join(f"{name:>27}" for name in ways))
    for step in range(args.steps):
        order = list(ways.items()) if step % 2 == 0 else list(reversed(ways.items()))
        figures = {name: per_call_us(cls, request, args.calls) for name, cls in order}
        print(
            f"{(step + 1) * args.calls:>22}  "
            + "  ".join(f"{figures[name]:>24.0f} us" for name in ways)
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--calls", type=int, default=1000, help="requests per step and throttle")
    add_redis_options(parser)
    args = parser.parse_args()
    os.environ["THROTTLE_USER"] = "1000000/min"
    with production_django("remi_bench_throttle", args.redis_port, args.redis_db, args.db_name):
        run(args)


if __name__ == "__main__":
    main()
