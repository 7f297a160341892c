"""How long the built-in bots' rating run takes (``games.bot_ratings.bot_ratings_update``,
the beat task every 10 minutes), and what it costs the database.

    .venv/bin/python bench/bot_ratings.py [--games 5000] [--batch 500] [--people 400]
                                          [--people-games 5000]

What it does, all on 127.0.0.1, in-process, with the production settings (``DEBUG=0``):

1. creates a scratch PostgreSQL database (migrated, dropped at the end) and a Redis
   server of its own (``bench/kit/stack.py``);
2. seeds, with bulk-created rows, the built-in bots (``bots_ensure``), ``--people``
   people (most with a rating in each rule family, a few with a standing fair-play
   mark) and, ended a second apart in the past, ``--games`` finished games with a
   built-in bot seat, as the run reads them: 2 to 4 seats, mostly one person against
   one to three bots, some with two people, a few bots alone; final totals and a seat
   out now and then; each game's deals with their results, except a few games left
   before any deal ended (with a move or two of the players', so the run's "too short
   to rate" rule reads the move log); plus ``--people-games`` games between people
   only, which the run must pass over;
3. calls ``bot_ratings_update(batch=--batch)`` until a run finds nothing after the
   watermark, and one more: the run the beat repeats on an idle site. Each run's wall
   time, this process's CPU, the CPU of PostgreSQL's backends of the scratch database
   (``database_cpu``) and the SQL statements it sent, by kind.

A benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.kit.measure import database_cpu, load_average, statements_counted  # noqa: E402
from bench.kit.report import table  # noqa: E402
from bench.kit.stack import add_redis_options, production_django  # noqa: E402

CHUNK = 1000  # games a bulk insert
SHORT = 0.04  # games left before any deal ended
BOTS_ALONE = 0.05  # games of built-in bots only (passed over)
TWO_PEOPLE = 0.2  # games with two people at the table
OUT = 0.05  # a seat that resigned or was removed
RATED = 0.8  # a person's chance of a rating in each family
MARKED = 0.01  # people with a standing fair-play mark


# ------------------------------------------------------------------ the seed


def people_seeded(count: int, rng: random.Random) -> list[int]:
    """``count`` people (users and profiles, no password), their ratings and a few
    fair-play marks; their ids."""
    from django.contrib.auth.models import User

    from accounts.models import FairPlayMark, Profile, Rating
    from games.engine import PRESETS
    from games.ratings import displayed

    users = User.objects.bulk_create(
        [User(username=f"person{index}", password="!") for index in range(count)]
    )
    # bulk_create sends no post_save: the profiles the signal would have made.
    Profile.objects.bulk_create([Profile(user=user, display_name=user.username) for user in users])
    ratings = []
    for user in users:
        for rules in PRESETS:
            if rng.random() < RATED:
                mu, sigma = rng.gauss(25.0, 4.0), rng.uniform(2.0, 8.3)
                ratings.append(
                    Rating(
                        user=user,
                        rules=rules,
                        mu=mu,
                        sigma=sigma,
                        rating=displayed(mu),
                        games=rng.randrange(1, 300),
                    )
                )
    Rating.objects.bulk_create(ratings, batch_size=CHUNK)
    moderator = User.objects.create_user(username="moderator", password=None, is_staff=True)
    marked = rng.sample(users, max(1, round(count * MARKED)))
    FairPlayMark.objects.bulk_create(
        [
            FairPlayMark(user=user, kind="boosting", reason="bench", created_by=moderator)
            for user in marked
        ]
    )
    return [user.pk for user in users]


@dataclass
class Table:
    """One game to seed: its seat's players in order, who is out, whether it ended early."""

    users: list[int]
    out: list[bool]
    short: bool


def bot_table(bots: list[int], people: list[int], rng: random.Random) -> Table:
    seats = rng.choice([2, 2, 2, 3, 3, 4])
    if rng.random() < BOTS_ALONE:
        players = rng.sample(bots, seats)
    else:
        humans = 2 if seats > 2 and rng.random() < TWO_PEOPLE else 1
        players = rng.sample(people, humans) + rng.sample(bots, seats - humans)
        rng.shuffle(players)
    return table_of(players, rng)


def people_table(people: list[int], rng: random.Random) -> Table:
    return table_of(rng.sample(people, rng.choice([2, 2, 3, 4])), rng)


def table_of(players: list[int], rng: random.Random) -> Table:
    return Table(players, [rng.random() < OUT for _ in players], rng.random() < SHORT)


def games_seeded(tables: list[Table], rng: random.Random) -> None:
    """``tables`` as finished games, ended a second apart (the last two minutes ago, a
    few ended in the same second), with their seats, deals and (ended early) moves."""
    from django.db import transaction
    from django.utils import timezone

    from games.engine import PRESETS
    from games.models import Deal, Game, Move, Seat

    rulesets = {name: ruleset.to_dict() for name, ruleset in PRESETS.items()}
    last = timezone.now() - timedelta(minutes=2)
    for start in range(0, len(tables), CHUNK):
        chunk = tables[start : start + CHUNK]
        with transaction.atomic():
            games = []
            for index, plan in enumerate(chunk, start):
                preset = rng.choice(list(rulesets))
                ended = last - timedelta(seconds=(len(tables) - index) // 1.1)
                games.append(
                    Game(
                        preset=preset,
                        ruleset=rulesets[preset],
                        players=len(plan.users),
                        owner_id=plan.users[0],
                        status=Game.Status.FINISHED,
                        winners=[0],
                        end_reason="resigned" if plan.short else "completed",
                        deal_number=1 if plan.short else rng.randrange(1, 9),
                        started_at=ended - timedelta(minutes=30),
                        finished_at=ended,
                    )
                )
            games = Game.objects.bulk_create(games)
            seats = []
            for game, plan in zip(games, chunk, strict=True):
                totals = final_totals(len(plan.users), plan.short, rng)
                for position, (user, out) in enumerate(zip(plan.users, plan.out, strict=True)):
                    seats.append(
                        Seat(
                            game=game,
                            user_id=user,
                            position=position,
                            total=totals[position],
                            status=Seat.Status.OUT if out else Seat.Status.ACTIVE,
                            game_ended_at=game.finished_at,
                        )
                    )
            seats = Seat.objects.bulk_create(seats)
            by_game: dict[int, list[Any]] = {}
            for seat in seats:
                by_game.setdefault(seat.game_id, []).append(seat)
            deals = [
                Deal(
                    game=game,
                    number=number,
                    dealer=(number - 1) % game.players,
                    deck=[],
                    card_ids=[],
                    state={},
                    result=None if plan.short else {"winner": 0, "scores": [0] * game.players},
                    finished_at=None if plan.short else game.finished_at,
                )
                for game, plan in zip(games, chunk, strict=True)
                for number in range(1, game.deal_number + 1)
            ]
            Deal.objects.bulk_create(deals, batch_size=CHUNK)
            moves = []
            for game, plan in zip(games, chunk, strict=True):
                if plan.short:
                    # Some moved, some did not: the rule's move-log read answers both ways.
                    movers = by_game[game.pk][: rng.randrange(1, game.players + 1)]
                    for ply, seat in enumerate(movers, 1):
                        moves.append(
                            Move(
                                game=game,
                                ply=ply,
                                seat=seat,
                                user_id=seat.user_id,
                                kind="draw_stock",
                                payload={},
                                public={},
                            )
                        )
            Move.objects.bulk_create(moves)


def final_totals(players: int, short: bool, rng: random.Random) -> list[int]:
    if short:
        return [0] * players
    totals = [rng.randrange(-80, 520, 5) for _ in range(players)]
    totals[rng.randrange(players)] = rng.randrange(-200, 40, 5)  # the winner's
    return totals


def seed(args: argparse.Namespace) -> None:
    from django.db import connection

    from accounts.services import bots_ensure

    rng = random.Random(args.seed)
    bots = [bot.pk for bot in bots_ensure()]
    people = people_seeded(args.people, rng)
    tables = [bot_table(bots, people, rng) for _ in range(args.games)]
    tables += [people_table(people, rng) for _ in range(args.people_games)]
    rng.shuffle(tables)  # the two kinds ended interleaved
    games_seeded(tables, rng)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")  # as autovacuum would have, on a running site


# ------------------------------------------------------------------ the runs


@dataclass
class Run:
    """One run: the games it found (a person at the table), those it counted, its wall
    time, this process's and PostgreSQL's CPU, its SQL statements by kind."""

    looked_at: int
    counted: int
    wall_s: float
    cpu_s: float
    database_s: float
    statements: Counter[str]


def one_run(batch: int) -> Run:
    """One call of the task's function, measured; the watermark is read outside it."""
    from games.bot_ratings import bot_ratings_update

    before = watermark()
    statements: Counter[str] = Counter()
    database_before = database_cpu()
    cpu_before, wall_before = time.process_time(), time.perf_counter()
    with statements_counted(statements):
        counted = bot_ratings_update(batch=batch)
    wall, cpu = time.perf_counter() - wall_before, time.process_time() - cpu_before
    database = database_cpu() - database_before
    return Run(looked_at(before, watermark(), batch), counted, wall, cpu, database, statements)


def watermark() -> Any:
    """The watermark's row as it stands (an unsaved one before the first run)."""
    from games.bot_ratings import WATERMARK_PK
    from games.models import BotRatingWatermark

    return BotRatingWatermark.objects.filter(pk=WATERMARK_PK).first() or BotRatingWatermark()


def looked_at(before: Any, after: Any, batch: int) -> int:
    """The games the run found after ``before`` (counted or passed over): the run's own
    query again, after the run (not before it: that would warm the run's reads)."""
    from django.contrib.auth.models import User
    from django.utils import timezone

    from accounts.models import BUILTIN_BOTS
    from games.bot_ratings import _games_after

    last = (after.last_finished_at, after.last_game_id)
    if last == (before.last_finished_at, before.last_game_id):
        return 0
    bots = list(User.objects.filter(BUILTIN_BOTS).values_list("pk", flat=True))
    found = _games_after(before, bot_ids=bots, until=timezone.now())[:batch]
    return sum(1 for ended, game_id in found if (ended, game_id) <= last)


def report(runs: list[Run], args: argparse.Namespace, seeded: str) -> None:
    kinds = sorted({kind for run in runs for kind in run.statements})
    columns = [
        ("run", "<"),
        ("found", "d"),
        ("counted", "d"),
        ("wall ms", ".0f"),
        ("CPU ms", ".0f"),
        ("PG CPU ms", ".0f"),
        ("statements", "d"),
        *((kind, "d") for kind in kinds),
    ]

    def row(name: str, run: Run) -> list[Any]:
        return [
            name,
            run.looked_at,
            run.counted,
            run.wall_s * 1000,
            run.cpu_s * 1000,
            run.database_s * 1000,
            sum(run.statements.values()),
            *(run.statements[kind] for kind in kinds),
        ]

    full = [run for run in runs if run.looked_at]
    rows = [row(str(number), run) for number, run in enumerate(runs, 1)]
    if full:
        rows.append(
            row(
                "mean",
                Run(
                    round(sum(run.looked_at for run in full) / len(full)),
                    round(sum(run.counted for run in full) / len(full)),
                    sum(run.wall_s for run in full) / len(full),
                    sum(run.cpu_s for run in full) / len(full),
                    sum(run.database_s for run in full) / len(full),
                    Counter(
                        {k: round(sum(r.statements[k] for r in full) / len(full)) for k in kinds}
                    ),
                ),
            )
        )
    print(
        f"\nbench/bot_ratings.py --games {args.games} --batch {args.batch} --people "
        f"{args.people} --people-games {args.people_games}: {seeded}; load average "
        f"{load_average()}"
    )
    print(table(columns, rows))
    print(
        f"  caught up in {len(full)} runs, {sum(run.wall_s for run in full):.1f} s in all "
        f"({sum(run.looked_at for run in full)} games found, "
        f"{sum(run.counted for run in full)} counted; the mean over these runs); the last "
        "run found nothing"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=5000, help="finished games with a bot")
    parser.add_argument("--batch", type=int, default=500, help="games a run (the task's BATCH)")
    parser.add_argument("--people", type=int, default=400, help="people who played them")
    parser.add_argument(
        "--people-games", type=int, default=5000, help="finished games between people only"
    )
    parser.add_argument("--seed", type=int, default=7, help="the seed's random seed")
    add_redis_options(parser)
    args = parser.parse_args()
    with production_django("remi_bench_bot_ratings", args.redis_port, args.redis_db, args.db_name):
        began = time.perf_counter()
        seed(args)
        seeded = f"seeded in {time.perf_counter() - began:.0f} s"
        runs = []
        while True:
            runs.append(one_run(args.batch))
            if not runs[-1].looked_at:
                break
        report(runs, args, seeded)


if __name__ == "__main__":
    main()
