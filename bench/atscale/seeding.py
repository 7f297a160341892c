"""The seeding of ``bench/scale.py``: the templates played, cloned into the running and
finished games, the derived rows recounted, and the cast of players the figures read as.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg

from bench.atscale.clones import (
    bulk_session,
    clones_insert,
    ratings_recount,
    relation_sizes,
    stats_recount,
    templates_register,
)
from bench.atscale.setup import db_url
from bench.atscale.templates import (
    Clone,
    Template,
    TemplateSpec,
    clone_users,
    people_create,
    player_create,
    template_load,
    template_play,
)

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


def templates_play(seeding: Seeding) -> tuple[list[Template], list[Template]]:
    """The running and the finished templates, played through the services."""
    from django.contrib.auth import get_user_model

    from accounts.services import bots_ensure

    people = [get_user_model().objects.create_user(f"template{i}", password=None) for i in range(4)]
    bot = next(user for user in bots_ensure() if user.profile.bot_level == 2)
    specs = [TemplateSpec(players, ply) for players in (2, 3, 4) for ply in ACTIVE_PLIES]
    specs += [
        TemplateSpec(2, 30, bot=True, stop_on="person"),
        TemplateSpec(2, 30, bot=True, stop_on="bot"),
    ]
    finished_specs = [
        TemplateSpec(players, None, rated=True)
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
    spec: TemplateSpec, people: list[Any], bot: Any, index: int, seeding: Seeding
) -> Template:
    """A template game, played again (another shuffle) when the site fails during it:
    the failure is an application bug to report (it goes to the output), not a reason
    to stop the benchmark."""
    for attempt in range(TEMPLATE_ATTEMPTS):
        try:
            return template_load(template_play(spec, people, bot, seed=index + 1000 * attempt))
        except Exception as error:  # any failure of the site is reported, then retried
            seeding.notes.append(
                f"APPLICATION ERROR in template game {index} ({spec.players} players), "
                f"played again: {type(error).__name__}: {error}"
            )
            print(f"  {seeding.notes[-1]}", flush=True)
    raise RuntimeError(f"template game {index} failed {TEMPLATE_ATTEMPTS} times")


def active_clones(
    rng: random.Random,
    templates: list[Template],
    pool: list[int],
    busy: int,
    *,
    count: int,
    overdue: int,
    stalled: int,
) -> list[Clone]:
    """``count`` running games: the people's templates by player count, a share
    against a bot; ``overdue`` past their deadline, ``stalled`` with a bot's turn
    whose task was lost; ``busy`` seated in ``BUSY_GAMES`` of the others."""
    now = datetime.now(UTC)
    people_templates = [t for t in templates if not t.bot_positions]
    bot_person = next(t for t in templates if t.bot_positions and not t.bot_to_move)
    bot_stalled = next(t for t in templates if t.bot_to_move)
    weights = [PLAYER_SHARES[t.players] for t in people_templates]
    period = timedelta(days=3)  # the correspondence default: a deadline 3 days after the turn

    def clone(template: Template, turn_start: datetime, with_busy: bool = False) -> Clone:
        seats = template.players - len(template.bot_positions)
        people = rng.sample(pool, seats)
        if with_busy:
            people[rng.randrange(seats)] = busy
        assert template.turn_started_at is not None
        private = rng.random() < PRIVATE_SHARE
        return Clone(
            template,
            clone_users(template, people),
            turn_start - template.turn_started_at,
            "private" if private else "public",
        )

    def pick() -> Template:
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
    templates: list[Template],
    pool: list[int],
    player: int | None,
    *,
    count: int,
) -> list[Clone]:
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
        clones.append(Clone(template, people, finished - template.finished_at))
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
        pool = people_create(pool_size, "player")
        busy = player_create("busy")
        veteran = player_create("veteran")
    with seeding.step("template games through the services"):
        active, finished = templates_play(seeding)
    with psycopg.connect(db_url(db_name)) as conn:
        bulk_session(conn)
        templates_register(conn, active + finished)
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
            clones_insert(conn, clones, progress=progress_printer("running", len(clones)))
        with seeding.step(f"{args.finished:,} finished matches of veteran (bulk clones)"):
            clones = finished_clones(rng, finished, pool, veteran.pk, count=args.finished)
            clones_insert(conn, clones, progress=progress_printer("finished", len(clones)))
        with seeding.step(f"bytes per match: {args.size_sample} more finished matches"):
            seeding.match_bytes = match_bytes(conn, rng, finished, pool, args.size_sample)
        with seeding.step("ratings recount"):
            ratings_recount(conn)
    with seeding.step("statistics rows"):
        seeding.notes.append("statistics: " + stats_recount())
    with seeding.step("VACUUM ANALYZE"), psycopg.connect(db_url(db_name), autocommit=True) as conn:
        conn.execute("VACUUM (ANALYZE)")
    return seeding


def match_bytes(
    conn: psycopg.Connection[Any],
    rng: random.Random,
    templates: list[Template],
    pool: list[int],
    count: int,
) -> dict[str, Any]:
    """What ``count`` more finished matches add to each table (heap, TOAST and index
    pages, ``pg_total_relation_size``), per match; and their rows."""
    clones = finished_clones(rng, templates, pool, None, count=count)
    before = relation_sizes(conn)
    ids = clones_insert(conn, clones)
    after = relation_sizes(conn)
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
