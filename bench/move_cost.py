"""What one move costs the server, in-process: CPU time, SQL statements, Redis commands.

    .venv/bin/python bench/move_cost.py [--moves 400] [--gets 400] [--cprofile 30]

All on 127.0.0.1, production settings: a scratch PostgreSQL database (migrated, dropped
at the end) and a Redis server of its own (``--redis-port``, ``--redis-db``; see
``bench/kit/stack.py``). Two players with API tokens play 2-player serbian matches through
the whole Django stack (Django's test client: middleware, token authentication,
throttles, DRF, the services, the after-commit work, the answer's JSON) with the
policy of ``bench/api.py``; a new match starts when one ends.

It prints, per move (``POST /api/v1/games/{id}/actions``), per cheapest
authenticated GET (``/api/v1/me/vacation``, the baseline of ``bench/api.py``) and per
read of the game's state by its players (``GET /api/v1/games/{id}``, ``--states``, the
reads ``bench/api.py`` makes during its moves): the CPU
time of this process (mean and p50/p99 of the calls), the SQL statements (by kind) and
the Redis commands (from the server's ``INFO commandstats``). CPU time is what a
shared machine's load changes least: the ratio of a move's to a GET's is the figure
to compare between two runs. ``--cprofile N`` then prints the N functions of the moves
with the most time of their own; ``--parts``, the CPU of each part of a move (the
token, the throttles, the play command and its steps, the answer), wrapped and timed
without a profiler's overhead.

A benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import secrets
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.kit.measure import database_cpu, redis_calls, statements_counted  # noqa: E402
from bench.kit.stack import add_redis_options, production_django  # noqa: E402

WARMUP_MOVES = 30

# What ``--parts`` times: (module, attribute, what it is). Each part's CPU includes the
# parts called from it: an indented part is inside the one above it.
PARTS = (
    ("accounts.authentication", "ApiTokenAuthentication.authenticate_credentials", "API token"),
    ("remi_site.throttling", "SlidingWindowRateThrottle.allow_request", "throttles (Redis)"),
    # (Where the view finds it: it imports the function by name.)
    ("games.api.views", "move_input", "action read (its body as sent)"),
    ("games.api.views", "game_act", "play command"),
    ("games.play.store", "lock_for_move", "  game locked and read, with seats"),
    ("games.play.store", "restore", "  engine deal: the kept one, or from the snapshot"),
    ("games.models", "Deal.restore", "    from the snapshot"),
    ("games.play.moves", "log", "  move log row built"),
    ("games.play.turns", "after_move", "  clocks and turn"),
    ("games.play.store", "save_play", "  saved (one statement)"),
    ("django.db.backends.base.base", "BaseDatabaseWrapper.commit", "  commit"),
    ("games.live.publisher", "game_committed", "  after the commit: publisher"),
    ("games.live.publisher", "groups_with_members", "    listeners asked of Redis"),
    ("games.read.selectors", "game_view_for", "answer: the game as the player sees it"),
    ("games.api.move_io", "game_progress", "answer: where the game stands (minimal)"),
    ("remi_site.renderers", "JSONRenderer.render", "answer: JSON"),
)


@dataclass
class Parts:
    """CPU seconds and calls of each part, by kind of call (``kind``: the one running)."""

    seconds: Counter[tuple[str, str]] = field(default_factory=Counter)
    calls: Counter[tuple[str, str]] = field(default_factory=Counter)
    kind: str | None = None
    missing: set[str] = field(default_factory=set)  # parts this tree does not have

    def install(self) -> None:
        """Wrap each of ``PARTS`` to count its calls and their CPU (this thread's)."""
        import importlib

        for module, path, label in PARTS:
            owner: Any = importlib.import_module(module)
            *outer, name = path.split(".")
            for step in outer:
                owner = getattr(owner, step)
            if hasattr(owner, name):  # (a part an older tree does not have: not timed)
                setattr(owner, name, self._timed(getattr(owner, name), label))
            else:
                self.missing.add(label)

    def _timed(self, original: Callable[..., Any], label: str) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            kind = self.kind
            if kind is None:
                return original(*args, **kwargs)
            began = time.thread_time()
            try:
                return original(*args, **kwargs)
            finally:
                self.seconds[kind, label] += time.thread_time() - began
                self.calls[kind, label] += 1

        return timed

    def report(self, move: Cost, get: Cost) -> None:
        print("\nparts (--parts): CPU per call in ms, a part's callees included; calls per call")
        print(f"  {'part':<44} {'move':>7} {'calls':>6} {'GET':>7} {'calls':>6}")
        for _module, _path, label in PARTS:
            cells = []
            for cost in (move, get):
                calls = self.calls[cost.name, label]
                seconds = self.seconds[cost.name, label]
                cells += [f"{seconds * 1000 / max(len(cost.cpu), 1):>7.3f}"]
                cells += [f"{calls / max(len(cost.cpu), 1):>6.2f}"]
            # A part that never ran is named after code that moved: say so.
            if label in self.missing:
                cells.append(" (not in this tree)")
            elif not any(self.calls[cost.name, label] for cost in (move, get)):
                cells.append(" (never ran)")
            print(f"  {label:<44} " + " ".join(cells))


@dataclass
class Cost:
    """The measured calls of one kind."""

    name: str
    cpu: list[float] = field(default_factory=list)  # seconds of CPU per call
    database_cpu: float = 0.0  # seconds of CPU of the database's backends, all calls
    statements: Counter[str] = field(default_factory=Counter)
    redis_commands: int = 0
    redis_cpu: float = 0.0  # seconds of CPU of the Redis server, all calls
    python_calls: int = 0  # Python function calls, all calls (counted by a profiler)
    # PostgreSQL's CPU by statement kind, nanoseconds, all calls (``turn_cost --counts``)
    database_cpu_by_statement: Counter[str] = field(default_factory=Counter)

    def ms(self, q: float) -> float:
        ordered = sorted(self.cpu)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    @property
    def mean_ms(self) -> float:
        return statistics.fmean(self.cpu) * 1000

    @property
    def database_ms(self) -> float:
        return self.database_cpu * 1000 / max(len(self.cpu), 1)

    def per_call(self, count: float) -> float:
        return count / max(len(self.cpu), 1)


class Table:
    """Two players and their matches, played through the HTTP stack."""

    def __init__(self) -> None:
        from django.contrib.auth import get_user_model
        from django.test import Client

        from accounts import services as account_services

        self.clients = []
        for index in range(2):
            user = get_user_model().objects.create_user(
                username=f"cost{index}", password=secrets.token_urlsafe(12)
            )
            _token, raw = account_services.token_create(user=user, name="cost")
            self.clients.append(Client(HTTP_AUTHORIZATION=f"Bearer {raw}", HTTP_HOST="127.0.0.1"))
        self.game_id = ""
        self.views: list[dict[str, Any] | None] = [None, None]
        self.view: dict[str, Any] = {}
        self.new_match()

    def new_match(self) -> None:
        host, guest = self.clients
        created = host.post(
            "/api/v1/games", {"preset": "serbian", "players": 2}, content_type="application/json"
        )
        self.game_id = created.json()["id"]
        guest.post(f"/api/v1/games/{self.game_id}/join", {}, content_type="application/json")
        self.view = host.post(f"/api/v1/games/{self.game_id}/start").json()
        self.views = [None, None]
        self.views[self.view["you"]] = self.view

    def next_move(self) -> tuple[Any, str, dict[str, Any]]:
        """The client, URL and body of the next move (reading the state first, untimed,
        when the mover has no fresh view of their own)."""
        from bench.api import choose

        if self.view["status"] != "active":
            self.new_match()
        mover = self.view["to_move"]
        client = self.clients[mover]
        current = self.views[mover]
        if current is None or current["ply"] != self.view["ply"]:
            current = client.get(f"/api/v1/games/{self.game_id}").json()
        body = {"action": choose(current), "ply": current["ply"]}
        return client, f"/api/v1/games/{self.game_id}/actions", body

    def answered(self, response: Any) -> None:
        if response.status_code != 200:
            raise RuntimeError(f"a move was refused: {response.status_code} {response.content!r}")
        self.view = response.json()["game"]
        if "you" in self.view:
            self.views[self.view["you"]] = self.view
        else:  # the short answer (``--minimal``): the movers read the game untimed
            self.views = [None, None]


def measure(
    name: str,
    count: int,
    prepare: Callable[[], tuple[Any, str, dict[str, Any] | None]],
    answered: Callable[[Any], None],
    redis_url: str,
    profiler: cProfile.Profile | None = None,
    parts: Parts | None = None,
    headers: dict[str, str] | None = None,
) -> Cost:
    """``count`` calls: ``prepare()`` (untimed) gives the client, URL and JSON body (None:
    a GET), ``answered(response)`` sees each answer."""
    cost = Cost(name)
    for _ in range(count):
        client, url, body = prepare()
        calls_before = redis_calls(redis_url)
        database_before = database_cpu()
        with statements_counted(cost.statements):
            if profiler is not None:
                profiler.enable()
            if parts is not None:
                parts.kind = name
            began = time.process_time()
            if body is None:
                response = client.get(url)
            else:
                key = secrets.token_hex(8)
                response = client.post(
                    url,
                    body,
                    content_type="application/json",
                    HTTP_IDEMPOTENCY_KEY=key,
                    **(headers or {}),
                )
            cost.cpu.append(time.process_time() - began)
            if parts is not None:
                parts.kind = None
            if profiler is not None:
                profiler.disable()
        cost.redis_commands += redis_calls(redis_url) - calls_before
        cost.database_cpu += database_cpu() - database_before
        answered(response)
    return cost


def report(move: Cost, get: Cost, extra: list[Cost]) -> None:
    print(
        f"\nbench/move_cost.py: {len(move.cpu)} moves, {len(get.cpu)} GETs, in-process "
        f"(Django test client), PostgreSQL + Redis, production settings; "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    print(
        f"{'call':<34} {'CPU mean':>9} {'p50':>7} {'p99':>7} {'PG CPU':>8} {'SQL/call':>9} "
        f"{'Redis/call':>11}"
    )
    extra = [cost for cost in extra if cost.cpu]  # (a kind asked for 0 times)
    for cost in (move, get, *extra):
        statements = sum(cost.statements.values())
        print(
            f"{cost.name:<34} {cost.mean_ms:>7.2f}ms {cost.ms(0.5):>5.2f}ms "
            f"{cost.ms(0.99):>5.2f}ms {cost.database_ms:>6.2f}ms "
            f"{cost.per_call(statements):>9.2f} {cost.per_call(cost.redis_commands):>11.2f}"
        )
    for cost in (move, get, *extra):
        kinds = ", ".join(
            f"{kind} {cost.per_call(n):.2f}" for kind, n in cost.statements.most_common()
        )
        print(f"  SQL per call, {cost.name}: {kinds}")
    move_total = move.mean_ms + move.database_ms
    get_total = get.mean_ms + get.database_ms
    print(
        f"  with PostgreSQL's CPU: {move_total:.2f} ms per move, {get_total:.2f} ms per GET, "
        f"{move_total / get_total:.2f}x"
    )
    print(
        f"  a move costs {move.mean_ms / get.mean_ms:.2f}x the CPU of the cheapest "
        f"authenticated GET (so at most {get.mean_ms / move.mean_ms:.2f}x its rate when CPU "
        "bound)"
    )
    for cost in extra:
        total = cost.mean_ms + cost.database_ms
        print(f"  {cost.name}: {total:.2f} ms with PostgreSQL's, {total / get_total:.2f}x the GET")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--moves", type=int, default=400, help="timed moves")
    parser.add_argument("--gets", type=int, default=400, help="timed baseline GETs")
    parser.add_argument(
        "--states",
        type=int,
        default=200,
        help="timed reads of the game's state by its players (GET /games/{id})",
    )
    parser.add_argument(
        "--cprofile", type=int, default=0, metavar="N", help="print the N costliest functions"
    )
    parser.add_argument(
        "--cprofile-out",
        metavar="FILE",
        help="also save the moves' profile for pstats (callers, callees) in FILE",
    )
    parser.add_argument(
        "--parts",
        action="store_true",
        help="also time the parts of a move (the CPU of each, wrapped; adds a little)",
    )
    parser.add_argument(
        "--minimal",
        action="store_true",
        help="the moves ask for the short answer (Prefer: return=minimal)",
    )
    add_redis_options(parser)
    args = parser.parse_args()
    with production_django(
        "remi_bench_cost", args.redis_port, args.redis_db, args.db_name
    ) as redis_url:
        run(args, redis_url)


def run(args: argparse.Namespace, redis_url: str) -> None:
    table = Table()
    for _ in range(WARMUP_MOVES):
        client, url, body = table.next_move()
        table.answered(client.post(url, body, content_type="application/json"))
    # CPU time, not wall time: waiting for PostgreSQL or Redis is not cost here.
    wanted = args.cprofile or args.cprofile_out
    profiler = cProfile.Profile(time.process_time) if wanted else None
    parts = Parts() if args.parts else None
    if parts is not None:
        parts.install()
    move = measure(
        "move: POST /games/{id}/actions",
        args.moves,
        table.next_move,
        table.answered,
        redis_url,
        profiler,
        parts,
        {"HTTP_PREFER": "return=minimal"} if args.minimal else None,
    )
    get = measure(
        "GET /api/v1/me/vacation",
        args.gets,
        lambda: (table.clients[0], "/api/v1/me/vacation", None),
        lambda response: None,
        redis_url,
        parts=parts,
    )
    readers = iter(range(args.states))
    state = measure(
        "state: GET /games/{id}",
        args.states,
        lambda: (table.clients[next(readers) % 2], f"/api/v1/games/{table.game_id}", None),
        lambda response: None,
        redis_url,
        parts=parts,
    )
    report(move, get, [state])
    if parts is not None:
        parts.report(move, get)
    if profiler is not None and args.cprofile_out:
        profiler.dump_stats(args.cprofile_out)
    if profiler is not None and args.cprofile:
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("tottime").print_stats(args.cprofile)
        stats.sort_stats("cumulative").print_stats(args.cprofile)
        print(f"\ncProfile of the {len(move.cpu)} moves:\n{out.getvalue()}")


if __name__ == "__main__":
    main()
