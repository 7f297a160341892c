"""Reads and sweeps against a large PostgreSQL database: do they grow with the number
of games?

    .venv/bin/python bench/scale.py [--active 100000] [--finished 10000] [--samples 200]

All on 127.0.0.1, production settings (``DATABASE_URL``, ``REDIS_URL``, ``DEBUG=0``):

1. creates a scratch PostgreSQL database (random name, dropped at the end unless
   ``--keep-db``), migrates it, and starts a ``redis-server`` of its own on a free port
   (the cache, the channel layer and the Celery broker of this process; stopped at
   the end; both from ``bench/kit/stack.py``);
2. seeds it (see ``bench/scale_seed.py``): template games played through the services,
   cloned in bulk into ``--active`` running correspondence games (2-4 seats, mid-deal,
   deadlines spread over the next days, ``--overdue`` of them past their deadline,
   ``--stalled`` bot turns whose task was lost), one player (``busy``) seated in 50 of
   them, one player (``veteran``) with ``--finished`` finished rated matches of about 8
   deals each; then the derived rows (ratings, statistics) and ``VACUUM ANALYZE``;
3. measures the bytes one finished match takes (all its rows and their index entries:
   the growth of every table when ``--size-sample`` more matches are inserted) next to
   the bytes of its move log alone;
4. times, ``--samples`` times each (p50/p99), in this process: the deadline sweep's
   query and the whole sweep (``games.tasks.sweep_deadlines``: ``--overdue`` timeouts
   applied; a fresh set of games passes its deadline before each run), the stalled
   bot turns' query, and through the whole HTTP stack (Django's test client: URLs,
   middleware, authentication with an API token or a session, throttles, views,
   serialisation) "my games", the game state of a player, the move log of a finished
   match, the profile pages and the statistics API of ``veteran``; the garbage
   collector runs as in the web server (``remi_site.collector``: between requests,
   untimed here as it runs after the answer is sent there, its CPU counted), and the
   ``GC ms`` column shows how much of the slowest call was spent in it;
5. prints ``EXPLAIN (ANALYZE, BUFFERS)`` of the reads of each figure, with their values
   and as the site runs them once prepared (psycopg prepares a statement after 5 runs,
   and PostgreSQL may then keep a generic plan), flagging what grows with the data: a
   ``Seq Scan`` of a growing table, a node that filters out, loops over or returns
   thousands of rows.

A benchmark, not a test: it asserts nothing about the times. Run it at two sizes and
compare (``--json`` writes the figures, ``--compare`` prints the ratio to such a file).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import re
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench import scale_seed as seed  # noqa: E402
from bench.kit.stack import (  # noqa: E402
    PG_ADMIN_URL,
    add_redis_options,
    private_redis,
    production_env,
    scratch_database,
)

GAME_TABLES = ("games_game", "games_seat", "games_deal", "games_move")
# Tables that grow with the games and the players: a scan of one grows with the site.
GROWING_TABLES = (
    *GAME_TABLES,
    "auth_user",
    "accounts_profile",
    "accounts_rating",
    "accounts_ratingchange",
    "games_playerstats",
)
# A plan node that visits this many rows (filtered out, or loops of a subplan) is
# reading in proportion to the data, not to the answer.
MANY_ROWS = 1000
DEADLINE_QUERY = "deadline sweep: query (overdue_games)"
STALLED_QUERY = "stalled bot turns: query"
MY_GAMES = "my games: API, busy's running games"
BUSY_GAMES = 50
# The templates of the running games: each player count at four points of a match
# (early in the first deal, late in it, the second or third deal, a late deal), and a
# game against a built-in bot, left at a person's turn or (for the stalled turns) at
# the bot's.
ACTIVE_PLIES = (6, 45, 120, 260)
PLAYER_SHARES = {2: 0.5, 3: 0.25, 4: 0.25}
BOT_GAME_SHARE = 0.1
PRIVATE_SHARE = 0.1
FINISHED_TEMPLATES_PER_SIZE = 2
TEMPLATE_ATTEMPTS = 3


# ------------------------------------------------------------------ the scratch stack


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


# ------------------------------------------------------------------ seeding


@dataclass
class Seeding:
    seconds: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    match_bytes: dict[str, Any] = field(default_factory=dict)

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        began = time.perf_counter()
        print(f"seeding: {name} ...", flush=True)
        yield
        self.seconds[name] = time.perf_counter() - began
        print(f"seeding: {name} done in {self.seconds[name]:.1f} s", flush=True)


def templates_play(seeding: Seeding) -> tuple[list[seed.Template], list[seed.Template]]:
    """The running and the finished templates, played through the services."""
    from django.contrib.auth import get_user_model

    from accounts.services import bots_ensure

    people = [get_user_model().objects.create_user(f"template{i}", password=None) for i in range(4)]
    bot = next(user for user in bots_ensure() if user.profile.bot_level == 2)
    specs = [seed.TemplateSpec(players, ply) for players in (2, 3, 4) for ply in ACTIVE_PLIES]
    specs += [
        seed.TemplateSpec(2, 30, bot=True, stop_on="person"),
        seed.TemplateSpec(2, 30, bot=True, stop_on="bot"),
    ]
    finished_specs = [
        seed.TemplateSpec(players, None, rated=True)
        for players in (2, 3, 4)
        for _ in range(FINISHED_TEMPLATES_PER_SIZE)
    ]
    active, finished = [], []
    for index, spec in enumerate(specs + finished_specs):
        template = template_with_retries(spec, people, bot, index, seeding)
        (finished if spec.ply is None else active).append(template)
    for template in finished:
        if template.status != "finished":
            raise RuntimeError(f"template {template.game_id} did not finish")
    seeding.notes.append(
        "templates: running "
        + ", ".join(f"{t.players}p ply {t.ply} deal {t.deals}" for t in active)
        + "; finished "
        + ", ".join(f"{t.players}p {t.ply} moves {t.deals} deals" for t in finished)
    )
    return active, finished


def template_with_retries(
    spec: seed.TemplateSpec, people: list[Any], bot: Any, index: int, seeding: Seeding
) -> seed.Template:
    """A template game, played again (another shuffle) when the site fails during it:
    the failure is an application bug to report (it goes to the output), not a reason
    to stop the benchmark."""
    for attempt in range(TEMPLATE_ATTEMPTS):
        try:
            return seed.template_load(
                seed.template_play(spec, people, bot, seed=index + 1000 * attempt)
            )
        except Exception as error:  # any failure of the site is reported, then retried
            seeding.notes.append(
                f"APPLICATION ERROR in template game {index} ({spec.players} players), "
                f"played again: {type(error).__name__}: {error}"
            )
            print(f"  {seeding.notes[-1]}", flush=True)
    raise RuntimeError(f"template game {index} failed {TEMPLATE_ATTEMPTS} times")


def active_clones(
    rng: random.Random,
    templates: list[seed.Template],
    pool: list[int],
    busy: int,
    *,
    count: int,
    overdue: int,
    stalled: int,
) -> list[seed.Clone]:
    """``count`` running games: the people's templates by player count, a share
    against a bot; ``overdue`` past their deadline, ``stalled`` with a bot's turn
    whose task was lost; ``busy`` seated in ``BUSY_GAMES`` of the others."""
    now = datetime.now(UTC)
    people_templates = [t for t in templates if not t.bot_positions]
    bot_person = next(t for t in templates if t.bot_positions and not t.bot_to_move)
    bot_stalled = next(t for t in templates if t.bot_to_move)
    weights = [PLAYER_SHARES[t.players] for t in people_templates]
    period = timedelta(days=3)  # the correspondence default: a deadline 3 days after the turn

    def clone(template: seed.Template, turn_start: datetime, with_busy: bool = False) -> seed.Clone:
        seats = template.players - len(template.bot_positions)
        people = rng.sample(pool, seats)
        if with_busy:
            people[rng.randrange(seats)] = busy
        assert template.turn_started_at is not None
        private = rng.random() < PRIVATE_SHARE
        return seed.Clone(
            template,
            seed.clone_users(template, people),
            turn_start - template.turn_started_at,
            "private" if private else "public",
        )

    def pick() -> seed.Template:
        if rng.random() < BOT_GAME_SHARE:
            return bot_person
        return rng.choices(people_templates, weights)[0]

    clones = [
        clone(bot_stalled, now - timedelta(seconds=rng.uniform(60, 600))) for _ in range(stalled)
    ]
    clones += [
        clone(pick(), now - period - timedelta(seconds=rng.uniform(60, 1800)))
        for _ in range(overdue)
    ]
    regular = count - stalled - overdue
    busy_at = set(rng.sample(range(regular), BUSY_GAMES))
    clones += [
        clone(pick(), now - rng.uniform(0.01, 0.99) * period, with_busy=index in busy_at)
        for index in range(regular)
    ]
    rng.shuffle(clones)
    return clones


def finished_clones(
    rng: random.Random,
    templates: list[seed.Template],
    pool: list[int],
    player: int | None,
    *,
    count: int,
) -> list[seed.Clone]:
    """``count`` finished matches over the last three years, ``player`` (when given) at
    one of the seats of each."""
    now = datetime.now(UTC)
    clones = []
    for _ in range(count):
        template = rng.choice(templates)
        people = rng.sample(pool, template.players)
        if player is not None:
            people[rng.randrange(template.players)] = player
        finished = now - timedelta(seconds=rng.uniform(3600, 3 * 365 * 86400))
        assert template.finished_at is not None
        clones.append(seed.Clone(template, people, finished - template.finished_at))
    return clones


def progress_printer(label: str, total: int) -> Callable[[int], None]:
    began = time.perf_counter()

    def show(done: int) -> None:
        elapsed = time.perf_counter() - began
        print(
            f"  {label}: {done:,}/{total:,} games, {elapsed:.0f} s "
            f"({done / max(elapsed, 1e-9):,.0f} games/s)",
            flush=True,
        )

    return show


def seed_all(args: argparse.Namespace, db_name: str) -> Seeding:
    seeding = Seeding()
    rng = random.Random(args.seed)
    pool_size = max(200, args.active * 3 // 20)  # about 20 running games per player
    with seeding.step("players"):
        pool = seed.people_create(pool_size, "player")
        busy = seed.player_create("busy")
        veteran = seed.player_create("veteran")
    with seeding.step("template games through the services"):
        active, finished = templates_play(seeding)
    with psycopg.connect(db_url(db_name)) as conn:
        seed.bulk_session(conn)
        seed.templates_register(conn, active + finished)
        conn.commit()
        with seeding.step(f"{args.active:,} running games (bulk clones)"):
            clones = active_clones(
                rng,
                active,
                pool,
                busy.pk,
                count=args.active,
                overdue=args.overdue,
                stalled=args.stalled,
            )
            seed.clones_insert(conn, clones, progress=progress_printer("running", len(clones)))
        with seeding.step(f"{args.finished:,} finished matches of veteran (bulk clones)"):
            clones = finished_clones(rng, finished, pool, veteran.pk, count=args.finished)
            seed.clones_insert(conn, clones, progress=progress_printer("finished", len(clones)))
        with seeding.step(f"bytes per match: {args.size_sample} more finished matches"):
            seeding.match_bytes = match_bytes(conn, rng, finished, pool, args.size_sample)
        with seeding.step("ratings recount"):
            seed.ratings_recount(conn)
    with seeding.step("statistics rows"):
        seeding.notes.append("statistics: " + seed.stats_recount())
    with seeding.step("VACUUM ANALYZE"), psycopg.connect(db_url(db_name), autocommit=True) as conn:
        conn.execute("VACUUM (ANALYZE)")
    return seeding


def match_bytes(
    conn: psycopg.Connection[Any],
    rng: random.Random,
    templates: list[seed.Template],
    pool: list[int],
    count: int,
) -> dict[str, Any]:
    """What ``count`` more finished matches add to each table (heap, TOAST and index
    pages, ``pg_total_relation_size``), per match; and their rows."""
    clones = finished_clones(rng, templates, pool, None, count=count)
    before = seed.relation_sizes(conn)
    ids = seed.clones_insert(conn, clones)
    after = seed.relation_sizes(conn)
    row = conn.execute(
        "SELECT (SELECT count(*) FROM games_move WHERE game_id = ANY(%(ids)s)), "
        "(SELECT count(*) FROM games_deal WHERE game_id = ANY(%(ids)s)), "
        "(SELECT count(*) FROM games_seat WHERE game_id = ANY(%(ids)s))",
        {"ids": ids},
    ).fetchone()
    assert row is not None
    grown = {table: after[table] - before.get(table, 0) for table in after}
    return {
        "matches": count,
        "by_table": {table: size / count for table, size in grown.items() if size},
        "total": sum(grown.values()) / count,
        "moves": row[0] / count,
        "deals": row[1] / count,
        "seats": row[2] / count,
    }


# ------------------------------------------------------------------ who and what to read


@dataclass
class Cast:
    busy: Any
    busy_token: str
    veteran: Any
    veteran_token: str
    busy_games: list[str]
    veteran_games: list[str]
    ageable: list[int]  # running games of people only, not busy's, to make overdue


def cast_find(args: argparse.Namespace) -> Cast:
    """The players and games the figures read, found in the database."""
    from django.contrib.auth import get_user_model

    from accounts import services as account_services
    from games.models import Game

    users = get_user_model().objects
    busy = users.get(username="busy")
    veteran = users.get(username="veteran")
    _t, busy_token = account_services.token_create(user=busy, name="scale")
    _t, veteran_token = account_services.token_create(user=veteran, name="scale")
    busy_games = list(
        Game.objects.filter(seats__user=busy, status=Game.Status.ACTIVE).values_list(
            "public_id", flat=True
        )
    )
    veteran_games = list(
        Game.objects.filter(seats__user=veteran, status=Game.Status.FINISHED)
        .order_by("?")
        .values_list("public_id", flat=True)[: max(args.samples, 50)]
    )
    ageable = list(
        Game.objects.filter(
            status=Game.Status.ACTIVE, bot_to_move=False, deadline_at__gt=datetime.now(UTC)
        )
        .exclude(seats__user=busy)
        # A timeout in a game against a bot hands the turn to the bot, whose task no
        # worker runs here: it would add to the stalled turns of the next figure.
        .exclude(seats__user__profile__is_bot=True)
        .order_by("?")
        .values_list("pk", flat=True)[: args.overdue * (args.sweep_samples + 2)]
    )
    return Cast(busy, busy_token, veteran, veteran_token, busy_games, veteran_games, ageable)


# ------------------------------------------------------------------ measuring


class CpuMeter:
    """CPU seconds used so far by this process and the PostgreSQL backends serving the
    bench's database: the cost of a call, whatever else the (shared) machine runs.
    Linux counts in clock ticks (10 ms): meaningful as a mean over many calls."""

    def __init__(self, db_name: str) -> None:
        self.db_name = db_name

    def reading(self) -> float:
        import psutil

        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
            pids = [
                pid
                for (pid,) in conn.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = %s", (self.db_name,)
                )
            ]
        used = time.process_time()
        for pid in pids:
            try:
                times = psutil.Process(pid).cpu_times()
            except psutil.Error:
                continue
            used += times.user + times.system
        return used


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


@dataclass(frozen=True)
class Signs:
    """What in a plan grows with the data: Seq Scans of growing tables, and the most
    rows a node filtered out, the most times a node ran, the most rows a node
    returned (all its loops), whether it was worth a JIT compilation to the planner."""

    seq_scans: frozenset[str] = frozenset()
    filtered: int = 0
    loops: int = 0
    rows: int = 0
    jit: bool = False

    def merge(self, other: Signs) -> Signs:
        return Signs(
            self.seq_scans | other.seq_scans,
            max(self.filtered, other.filtered),
            max(self.loops, other.loops),
            max(self.rows, other.rows),
            self.jit or other.jit,
        )

    def warnings(self) -> list[str]:
        out = [f"Seq Scan on {table}" for table in sorted(self.seq_scans)]
        if self.filtered >= MANY_ROWS:
            out.append(f"filters out {self.filtered:,} rows")
        if self.loops >= MANY_ROWS:
            out.append(f"a node runs {self.loops:,} times")
        if self.rows >= MANY_ROWS:
            out.append(f"a node returns {self.rows:,} rows")
        if self.jit:
            out.append("JIT")
        return out


@dataclass
class Query:
    """One read and its plans: with its values (what ``EXPLAIN`` of the SQL shows) and
    as the site runs it once prepared (``prepared_plan``). psycopg prepares a statement
    after 5 runs (``prepare_threshold``), and PostgreSQL may then keep a generic plan:
    one for an average user, not this one, so a skewed user (10,000 games where most
    have 20) can get a plan that reads all of their rows."""

    sql: str
    plan: str
    prepared: str | None  # None: the statement could not be prepared as it is

    @property
    def ms(self) -> float:
        return execution_ms(self.plan)

    @property
    def prepared_ms(self) -> float:
        return execution_ms(self.prepared) if self.prepared else float("nan")

    @property
    def signs(self) -> Signs:
        found = plan_signs(self.plan)
        return found.merge(plan_signs(self.prepared)) if self.prepared else found

    @property
    def warnings(self) -> list[str]:
        return self.signs.warnings()

    @property
    def same_plans(self) -> bool:
        return self.prepared is None or plan_shape(self.plan) == plan_shape(self.prepared)


def execution_ms(plan: str) -> float:
    found = re.search(r"Execution Time: ([\d.]+) ms", plan)
    return float(found.group(1)) if found else float("nan")


def plan_signs(plan: str) -> Signs:
    scans = set(re.findall(r"Seq Scan on (\w+)", plan)) & set(GROWING_TABLES)
    removed = [int(n) for n in re.findall(r"Rows Removed by Filter: (\d+)", plan)]
    nodes = [
        (int(rows), int(loops))
        for rows, loops in re.findall(r"actual time=\S+ rows=(\d+) loops=(\d+)", plan)
    ]
    return Signs(
        frozenset(scans),
        max(removed, default=0),
        max((loops for _rows, loops in nodes), default=0),
        max((rows * loops for rows, loops in nodes), default=0),
        "JIT:" in plan,
    )


def plan_shape(plan: str) -> list[str]:
    """The plan's nodes without their figures or values."""
    return [
        re.sub(r"\s+\(cost=.*", "", line).strip() for line in plan.splitlines() if "(cost=" in line
    ]


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


def explained(call: Callable[[], Any]) -> list[Query]:
    """``EXPLAIN (ANALYZE, BUFFERS)`` of every read ``call`` makes, with its values and
    as a prepared statement (``Query``); its writes, if any, are not run again."""
    from django.db import connection

    statements: list[tuple[str, tuple[Any, ...]]] = []

    def record(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        statements.append((sql, tuple(params or ())))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        call()
    out = []
    for sql, params in statements:
        if not re.match(r"\s*(SELECT|WITH)\b", sql, re.IGNORECASE) or re.search(
            r"\b(INSERT|UPDATE|DELETE)\b|FOR UPDATE", sql
        ):
            continue
        text = connection.ops.compose_sql(sql, params)
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + text)
            plan = "\n".join(row[0] for row in cursor.fetchall())
        out.append(Query(text, plan, prepared_plan(sql, params)))
    return out


def prepared_plan(sql: str, params: tuple[Any, ...]) -> str | None:
    """The plan of ``sql`` as the site runs it once psycopg has prepared it: prepared
    with its parameters as ``$n``, planned 5 times (PostgreSQL's custom plans), then
    ``EXPLAIN (ANALYZE, BUFFERS) EXECUTE``: from the 6th run on PostgreSQL keeps the
    generic plan unless its estimate is worse than the custom plans' average."""
    from django.db import connection

    numbered = iter(range(1, len(params) + 1))
    text = re.sub(r"%%|%s", lambda m: "%" if m.group() == "%%" else f"${next(numbered)}", sql)
    raw = connection.connection
    try:
        raw.execute(f"PREPARE bench_prepared AS {text}", prepare=False)
    except psycopg.Error:
        return None
    arguments = f"({', '.join(['%s'] * len(params))})" if params else ""
    try:
        with psycopg.ClientCursor(raw) as cursor:
            for _ in range(5):
                cursor.execute(f"EXPLAIN EXECUTE bench_prepared{arguments}", params, prepare=False)
            cursor.execute(
                f"EXPLAIN (ANALYZE, BUFFERS) EXECUTE bench_prepared{arguments}",
                params,
                prepare=False,
            )
            return "\n".join(row[0] for row in cursor.fetchall())
    except psycopg.Error:
        return None
    finally:
        raw.execute("DEALLOCATE bench_prepared", prepare=False)


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


# ------------------------------------------------------------------ the report


def database_facts(db_name: str) -> dict[str, Any]:
    with psycopg.connect(db_url(db_name)) as conn:
        size = conn.execute("SELECT pg_database_size(current_database())").fetchone()
        counts = conn.execute(
            "SELECT (SELECT count(*) FROM games_game WHERE status = 'active'), "
            "(SELECT count(*) FROM games_game WHERE status = 'finished'), "
            "(SELECT count(*) FROM games_seat), (SELECT count(*) FROM games_deal), "
            "(SELECT count(*) FROM games_move), (SELECT count(*) FROM auth_user)"
        ).fetchone()
        version = conn.execute("SHOW server_version").fetchone()
        tables = seed.relation_sizes(conn)
    assert size is not None and counts is not None and version is not None
    names = ("active games", "finished games", "seats", "deals", "moves", "users")
    return {
        "bytes": int(size[0]),
        "counts": dict(zip(names, counts, strict=True)),
        "version": version[0],
        "tables": dict(sorted(tables.items(), key=lambda item: -item[1])[:6]),
    }


def human(size: float) -> str:
    for unit in ("B", "kB", "MB", "GB"):
        if abs(size) < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} GB"


def load_average() -> str:
    return " / ".join(f"{value:.2f}" for value in os.getloadavg())


def print_table(figures: list[Figure], baseline: dict[str, Any] | None) -> None:
    header = (
        f"{'figure':<42} {'n':>4} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'CPU ms':>7} "
        f"{'GC ms':>6} {'reads':>5}"
    )
    if baseline:
        header += f" {'p99 vs base':>11}"
    print(header + "  flags")
    for figure in figures:
        worst = max(figure.seconds, default=float("nan")) * 1000
        line = (
            f"{figure.name:<42} {len(figure.seconds):>4} {figure.percentile(0.5):>8.1f} "
            f"{figure.percentile(0.99):>8.1f} {worst:>8.1f} {figure.cpu_ms:>7.1f} "
            f"{figure.gc_in_slowest_ms:>6.1f} {len(figure.queries) if figure.queries else '':>5}"
        )
        if baseline:
            before = baseline.get(figure.name, {}).get("p99")
            ratio = figure.percentile(0.99) / before if before else float("nan")
            line += f" {ratio:>10.2f}x"
        flags = []
        if figure.percentile(0.99) > 50:
            flags.append("p99 > 50 ms")
        flags += figure.warnings
        counted = [f"{k} x{n}" for k, n in figure.statuses.items() if isinstance(k, str)]
        if counted:
            flags.append(", ".join(counted))
        odd = {k: n for k, n in figure.statuses.items() if isinstance(k, int) and k != 200}
        if odd:
            flags.append(f"HTTP status {odd}")
        if figure.note:
            flags.append(figure.note)
        print(line + ("  " + "; ".join(flags) if flags else ""))


def print_plans(figures: list[Figure], full: set[str]) -> None:
    """Every plan of the figures in ``full``; for the others each query's times, and
    the plans of any query with a warning (``Query.warnings``) or over 5 ms."""
    for figure in figures:
        if not figure.queries:
            continue
        print(f"\n=== {figure.name}: {len(figure.queries)} reads per call")
        for index, query in enumerate(figure.queries, 1):
            warnings = query.warnings
            mark = f"  << {'; '.join(warnings)}" if warnings else ""
            print(
                f"--- read {index}: {query.ms:.2f} ms with its values, "
                f"{query.prepared_ms:.2f} ms prepared{mark}"
            )
            print(f"    {shorten(query.sql)}")
            if figure.name in full or warnings or max(query.ms, query.prepared_ms) > 5:
                print_plan(query)


def print_plan(query: Query) -> None:
    if query.prepared is None:
        print("    plan with its values (it could not be prepared as it is):")
        print(indent(query.plan))
    elif query.same_plans:
        print("    plan (the same with its values and prepared; the prepared run shown):")
        print(indent(query.prepared))
    else:
        print("    plan with its values:")
        print(indent(query.plan))
        print("    plan prepared, as the site runs it after 10 calls (a generic plan):")
        print(indent(query.prepared))


def indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())


def shorten(text: str, width: int = 400) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 5] + " ..."


def print_match_bytes(found: dict[str, Any]) -> None:
    if not found:
        print("bytes per finished match: not measured (reused database)")
        return
    moves = found["by_table"].get("games_move", 0.0)
    print(
        f"\nbytes per finished match (growth of every table, heap + TOAST + indexes, over "
        f"{found['matches']} more matches of {found['seats']:.1f} seats, {found['deals']:.1f} "
        f"deals, {found['moves']:.0f} moves):"
    )
    print(f"  all rows and indexes   {human(found['total'])}")
    print(
        f"  its move log alone     {human(moves)} "
        f"({moves / max(found['moves'], 1):.0f} bytes per move, rows and indexes)"
    )
    parts = sorted(found["by_table"].items(), key=lambda item: -item[1])
    print("  by table: " + ", ".join(f"{table} {human(size)}" for table, size in parts))


def report(
    args: argparse.Namespace,
    figures: list[Figure],
    seeding: Seeding | None,
    facts: dict[str, Any],
    loads: dict[str, str],
) -> None:
    baseline = json.loads(Path(args.compare).read_text()) if args.compare else None
    counts = facts["counts"]
    print(
        f"\nbench/scale.py: {counts['active games']:,} running correspondence games, "
        f"{counts['finished games']:,} finished; PostgreSQL {facts['version']}, database "
        f"{human(facts['bytes'])}; {os.cpu_count()} cores"
    )
    print("  rows: " + ", ".join(f"{name} {value:,}" for name, value in counts.items()))
    print("  largest: " + ", ".join(f"{t} {human(s)}" for t, s in facts["tables"].items()))
    print("  load average (1/5/15 min): " + "; ".join(f"{k} {v}" for k, v in loads.items()))
    if seeding is not None:
        total = sum(seeding.seconds.values())
        print(
            f"  seeding {total / 60:.1f} min: "
            + ", ".join(f"{name} {seconds:.0f} s" for name, seconds in seeding.seconds.items())
        )
        for note in seeding.notes:
            print(f"  {note}")
    print()
    print_table(figures, baseline)
    print_match_bytes(seeding.match_bytes if seeding else {})
    print_plans(figures, {DEADLINE_QUERY, STALLED_QUERY, MY_GAMES})


def figures_json(figures: list[Figure]) -> dict[str, Any]:
    return {
        figure.name: {
            "n": len(figure.seconds),
            "p50": figure.percentile(0.5),
            "p99": figure.percentile(0.99),
            "mean": statistics.fmean(figure.seconds) * 1000 if figure.seconds else None,
            "cpu": figure.cpu_ms,
            "queries": len(figure.queries),
            "warnings": figure.warnings,
        }
        for figure in figures
    }


# ------------------------------------------------------------------ main


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--active", type=int, default=100_000, help="running games")
    parser.add_argument("--finished", type=int, default=10_000, help="veteran's finished matches")
    parser.add_argument("--samples", type=int, default=200, help="timed calls per figure")
    parser.add_argument("--max-seconds", type=float, default=60, help="time cap per figure")
    parser.add_argument("--overdue", type=int, default=50, help="games past their deadline")
    parser.add_argument("--stalled", type=int, default=20, help="bot turns whose task was lost")
    parser.add_argument("--sweep-samples", type=int, default=20, help="whole deadline sweeps")
    parser.add_argument("--size-sample", type=int, default=500, help="matches for bytes/match")
    parser.add_argument("--seed", type=int, default=1, help="the seeding's random choices")
    parser.add_argument("--keep-db", action="store_true", help="keep the database (debugging)")
    parser.add_argument(
        "--reuse-db", metavar="NAME", help="measure a kept database again (no seeding)"
    )
    parser.add_argument("--json", metavar="FILE", help="write the figures to FILE")
    parser.add_argument("--compare", metavar="FILE", help="print p99 ratios to a --json FILE")
    add_redis_options(parser)
    args = parser.parse_args()
    if args.active < args.overdue + args.stalled + BUSY_GAMES + 100:
        parser.error("--active is too small for the overdue, stalled and busy games")
    return args


def main() -> None:
    args = arguments()
    # A terminated run still drops its database and stops its Redis (the finally blocks).
    signal.signal(signal.SIGTERM, lambda _signum, _frame: sys.exit(143))
    loads = {"at start": load_average()}
    with private_redis(args.redis_port, args.redis_db) as redis_url, database(args) as db_name:
        env = bench_env(db_name, redis_url)
        try:
            if not args.reuse_db:
                database_migrate(env)
            static_collect(env)
            django_setup(env)
            seeding = None if args.reuse_db else seed_all(args, db_name)
            cast = cast_find(args)
            loads["before measuring"] = load_average()
            print("measuring ...", flush=True)
            meter = CpuMeter(db_name)
            overdue_ensure(args.overdue, cast)
            queries = sweep_query_figures(args, meter)
            reads = read_figures(args, cast, meter)
            # Last: the whole sweep changes the games it times out.
            whole = sweep_whole_figures(args, cast, meter)
            figures = [queries[0], *whole, queries[1], *reads]
            loads["after measuring"] = load_average()
            report(args, figures, seeding, database_facts(db_name), loads)
            if args.json:
                Path(args.json).write_text(json.dumps(figures_json(figures), indent=1))
        finally:
            shutil.rmtree(env["REMI_VAR_DIR"], ignore_errors=True)


if __name__ == "__main__":
    main()
