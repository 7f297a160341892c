"""The figures of ``bench/scale.py``: each call timed ``--samples`` times with its CPU, its
garbage collections and its reads' plans: the deadline sweep (its query and whole), the
stalled bot turns' query, and the HTTP reads through the whole stack.
"""

from __future__ import annotations

import argparse
import gc
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from bench.atscale.plans import Query, Signs, explained
from bench.atscale.seeding import Cast
from bench.kit.measure import CpuMeter

DEADLINE_QUERY = "deadline sweep: query (overdue_games)"


STALLED_QUERY = "stalled bot turns: query"


MY_GAMES = "my games: API, busy's running games"


@dataclass
class Figure:
    name: str
    seconds: list[float] = field(default_factory=list)
    statuses: Counter[Any] = field(default_factory=Counter)
    queries: list[Query] = field(default_factory=list)
    note: str = ""
    cpu_seconds: float = float("nan")  # used by all the timed calls
    # Time this process spent in the garbage collector during each timed call.
    gc_seconds: list[float] = field(default_factory=list)

    @property
    def gc_in_slowest_ms(self) -> float:
        """The collector's share of the slowest call: is the p99 a collection?"""
        if not self.seconds or len(self.gc_seconds) != len(self.seconds):
            return float("nan")
        slowest = max(range(len(self.seconds)), key=self.seconds.__getitem__)
        return self.gc_seconds[slowest] * 1000

    @property
    def cpu_ms(self) -> float:
        return self.cpu_seconds / len(self.seconds) * 1000 if self.seconds else float("nan")

    def percentile(self, q: float) -> float:
        ordered = sorted(self.seconds)
        if not ordered:
            return float("nan")
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    @property
    def warnings(self) -> list[str]:
        """The warnings of its reads, merged: the largest figure of each kind."""
        merged = Signs()
        for query in self.queries:
            merged = merged.merge(query.signs)
        return merged.warnings()


def sample(
    name: str,
    call: Callable[[int], Any],
    *,
    samples: int,
    max_seconds: float,
    meter: CpuMeter,
    warmup: int = 3,
    between: Callable[[], None] = lambda: None,
) -> Figure:
    """Time ``call(i)`` ``samples`` times (fewer when ``max_seconds`` runs out, at least
    10), after ``warmup`` untimed calls; its result is counted (an HTTP status).
    ``between`` runs after each call, untimed (its CPU is counted)."""
    figure = Figure(name)
    for i in range(warmup):
        call(i)
        between()
    cpu_before = meter.reading()
    began = time.perf_counter()
    for i in range(samples):
        gc_before = GC_CLOCK.seconds
        start = time.perf_counter()
        result = call(i)
        figure.seconds.append(time.perf_counter() - start)
        figure.gc_seconds.append(GC_CLOCK.seconds - gc_before)
        between()
        figure.statuses[result] += 1
        if i >= 9 and time.perf_counter() - began > max_seconds:
            figure.note = f"stopped after {max_seconds:.0f} s"
            break
    figure.cpu_seconds = meter.reading() - cpu_before
    print(
        f"  {name}: p50 {figure.percentile(0.5):.1f} ms, p99 {figure.percentile(0.99):.1f} ms, "
        f"CPU {figure.cpu_ms:.1f} ms, GC in the slowest {figure.gc_in_slowest_ms:.1f} ms "
        f"({len(figure.seconds)} samples)",
        flush=True,
    )
    return figure


class GcClock:
    """Seconds this process has spent in the garbage collector (``gc.callbacks``)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._start = 0.0
        gc.callbacks.append(self._observe)

    def _observe(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._start


GC_CLOCK = GcClock()


def http_client(token: str | None = None, session_user: Any = None) -> Any:
    from django.test import Client

    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    client = Client(HTTP_HOST="127.0.0.1", raise_request_exception=False, **headers)
    if session_user is not None:
        client.force_login(session_user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def http_figure(
    name: str, client: Any, urls: Sequence[str], args: argparse.Namespace, meter: CpuMeter
) -> Figure:
    from remi_site import collector

    def get(i: int) -> int:
        return int(client.get(urls[i % len(urls)]).status_code)

    with first_error() as error:
        # The server collects garbage once an answer is sent (remi_site.asgi_http).
        figure = sample(
            name,
            get,
            samples=args.samples,
            max_seconds=args.max_seconds,
            meter=meter,
            between=collector.between_requests,
        )
        figure.queries = explained(lambda: get(0))
    if error:
        # A 500 says nothing by itself (the log level hides it): its cause, once.
        figure.note = f"first error: {error[0].splitlines()[-1]}"
        print(f"  {name}: {error[0]}", flush=True)
    return figure


@contextmanager
def first_error() -> Iterator[list[str]]:
    """The traceback of the first exception a view raised meanwhile (Django's
    ``got_request_exception``), in a list that stays empty when none did."""
    import traceback

    from django.core.signals import got_request_exception

    found: list[str] = []

    def keep(sender: Any, request: Any = None, **kwargs: Any) -> None:
        if not found:
            found.append(traceback.format_exc().rstrip())

    got_request_exception.connect(keep, weak=False)
    try:
        yield found
    finally:
        got_request_exception.disconnect(keep)


def age(game_ids: Sequence[int]) -> None:
    """These games' turns pass their deadline (by 1 to 30 minutes), as time would."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE games_game SET deadline_at = now() - interval '1 minute' * "
            "(1 + random() * 29) WHERE id = ANY(%s)",
            [list(game_ids)],
        )


def overdue_ensure(count: int, cast: Cast) -> None:
    """At least ``count`` running games past their deadline (a reused database's were
    timed out by its last run)."""
    from games.models import Game

    due = Game.objects.filter(status=Game.Status.ACTIVE, deadline_at__lte=datetime.now(UTC)).count()
    if due < count:
        age([cast.ageable.pop() for _ in range(min(count - due, len(cast.ageable)))])


def sweep_query_figures(args: argparse.Namespace, meter: CpuMeter) -> list[Figure]:
    """The sweeps' queries (they change nothing: no reset between samples)."""
    from django.conf import settings
    from django.utils import timezone

    from games.play import bot_turns, timeouts

    stall = timedelta(seconds=float(settings.BOT_STALL_S))

    def overdue(_i: int) -> int:
        return len(timeouts.overdue_games(timezone.now()))

    def stalled(_i: int) -> int:
        return len(bot_turns.stalled_bot_turns(timezone.now(), stalled_for=stall))

    query = sample(DEADLINE_QUERY, overdue, samples=args.samples, max_seconds=30, meter=meter)
    query.queries = explained(lambda: overdue(0))
    query.statuses = Counter({f"{n} found": count for n, count in query.statuses.items()})
    bots = sample(STALLED_QUERY, stalled, samples=args.samples, max_seconds=30, meter=meter)
    bots.queries = explained(lambda: stalled(0))
    bots.statuses = Counter({f"{n} found": count for n, count in bots.statuses.items()})
    return [query, bots]


def sweep_whole_figures(args: argparse.Namespace, cast: Cast, meter: CpuMeter) -> list[Figure]:
    """The beat task itself (``games.tasks.sweep_deadlines``), ``--sweep-samples``
    times: the seeded overdue games are the first run's work, then before each run
    ``--overdue`` other games pass their deadline (untimed)."""
    from games import tasks

    fresh = iter(cast.ageable)
    # A small --active leaves fewer running games to make overdue than the samples ask
    # for: measure as many samples as there are games for.
    samples = min(args.sweep_samples, 1 + len(cast.ageable) // max(args.overdue, 1))
    if samples < args.sweep_samples:
        print(
            f"  only {len(cast.ageable)} running games to make overdue: "
            f"{samples} sweep samples instead of {args.sweep_samples}",
            flush=True,
        )
    sweep = Figure(f"deadline sweep: whole, {args.overdue} overdue")
    applied = 0
    sweep.cpu_seconds = 0.0
    for i in range(samples):
        if i > 0:
            age([next(fresh) for _ in range(args.overdue)])
        cpu_before = meter.reading()
        start = time.perf_counter()
        done = int(tasks.sweep_deadlines())
        sweep.seconds.append(time.perf_counter() - start)
        sweep.cpu_seconds += meter.reading() - cpu_before
        sweep.statuses[f"{done} applied"] += 1
        applied += done
    per_timeout = Figure("  the same, per timeout applied")
    if applied:
        per_timeout.seconds = [sum(sweep.seconds) / applied]
        per_timeout.cpu_seconds = sweep.cpu_seconds / applied
    print(
        f"  {sweep.name}: p50 {sweep.percentile(0.5):.1f} ms, {applied} timeouts applied",
        flush=True,
    )
    return [sweep, per_timeout]


def read_figures(args: argparse.Namespace, cast: Cast, meter: CpuMeter) -> list[Figure]:
    """The reads, each through the whole HTTP stack as its user would send it."""
    busy_api = http_client(cast.busy_token)
    veteran_api = http_client(cast.veteran_token)
    busy_web = http_client(session_user=cast.busy)
    veteran_web = http_client(session_user=cast.veteran)
    anonymous = http_client()
    veteran = cast.veteran.username
    reads: list[tuple[str, Any, list[str]]] = [
        (MY_GAMES, busy_api, ["/api/v1/games?mine=true&status=active&page_size=50"]),
        ("my turn: API", busy_api, ["/api/v1/games?status=my_turn&page_size=50"]),
        ("my games: page /games/", busy_web, ["/games/?status=active"]),
        (
            "game state: API, as a player",
            busy_api,
            [f"/api/v1/games/{game}" for game in cast.busy_games],
        ),
        (
            "move log: API, a finished match",
            veteran_api,
            [f"/api/v1/games/{game}/moves" for game in cast.veteran_games],
        ),
        ("profile page (public) of veteran", anonymous, [f"/accounts/players/{veteran}/"]),
        ("own profile page of veteran", veteran_web, ["/accounts/profile/"]),
        ("stats API of veteran", veteran_api, [f"/api/v1/users/{veteran}"]),
        ("finished tab /games/ of veteran", veteran_web, ["/games/?status=finished"]),
    ]
    return [http_figure(name, client, urls, args, meter) for name, client, urls in reads]
