"""Player statistics: the counters kept during play against the recount of every game.

    .venv/bin/python bench/stats.py [--games 10000] [--deals 8] [--requests 200]
                                    [--old-requests 50]

What it does, all on 127.0.0.1:

1. creates a scratch PostgreSQL database (dropped at the end) and a private Redis
   server on a free port (stopped at the end), and migrates the database;
2. seeds one player with ``--games`` finished two-player matches of ``--deals`` deals
   each against a few opponents (bulk-created rows: a game, two seats, the deals with
   their results; the deck and snapshot columns hold placeholders, since neither read
   looks at them), plus a few matches under way, then fills the statistics with
   ``stats_rebuild`` (timed: what the migration does on a deployed site);
3. times, in-process, with the production settings (``DEBUG=0``):
   - the statistics alone: the reference recount (``games.stats.rebuild.counted_stats``,
     the computation the pages made on every request before) against the read of the
     kept rows (``games.stats.player_stats``);
   - ``GET /api/v1/users/{name}``, ``GET /accounts/profile/`` and the player page
     through Django's test client, with the kept rows and with the recount patched
     back in (old and new calls interleaved: the machine may be shared);
   and prints p50/p99 of each and the ratio of the p50s.

``--requests`` timed calls of each new read, ``--old-requests`` of each old one (a
recount of 10,000 games takes most of a second), after a few untimed warm-up calls.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.kit.stack import add_stack_options, private_redis, scratch_database  # noqa: E402

OPPONENTS = 3
UNDER_WAY = 5
WARMUP = 3
BATCH = 2000


# ------------------------------------------------------------------ the scratch stack


def django_setup(db_name: str, redis_url: str, var_dir: str) -> None:
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "remi_site.settings",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "DEBUG": "0",
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{db_name}",
            "REDIS_URL": redis_url,
            "REMI_VAR_DIR": var_dir,
            "STATIC_ROOT": f"{var_dir}/static",  # the pages need the static manifest
            "ALLOWED_HOSTS": "testserver,127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            "LOG_LEVEL": "WARNING",
            # The bench measures the reads, not the throttles.
            "THROTTLE_ANON": "1000000/min",
            "THROTTLE_USER": "1000000/min",
        }
    )
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", "--noinput", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)


# ------------------------------------------------------------------ the seed


def deal_result(rng: random.Random) -> dict[str, Any]:
    winner = rng.randrange(2)
    finish = rng.choices(["normal", "joker", "mixed_hand", "dry_hand", "void"], [70, 8, 8, 9, 5])[0]
    if finish == "void":
        return {"winner": None, "finish": finish, "scores": [0, 0], "penalties": [0, 0]}
    loser = rng.randrange(5, 160)
    scores = [0, 0]
    scores[winner] = {"dry_hand": -280, "mixed_hand": -140}.get(finish, -40)
    scores[1 - winner] = loser * (2 if finish in ("dry_hand", "mixed_hand") else 1)
    return {"winner": winner, "finish": finish, "scores": scores, "penalties": [0, loser]}


def seed(games: int, deals: int) -> Any:
    """The player and their matches (finished, and a few under way); returns the player."""
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.utils import timezone

    from games.engine import PRESETS
    from games.models import Deal, Game, Seat

    users = get_user_model()
    player = users.objects.create_user(username="subject", password=secrets.token_urlsafe(16))
    opponents = [users.objects.create_user(username=f"opponent{i}") for i in range(OPPONENTS)]
    rng = random.Random(7)
    presets = list(PRESETS)
    now = timezone.now()
    total = games + UNDER_WAY
    for start in range(0, total, BATCH):
        with transaction.atomic():
            batch = []
            for index in range(start, min(start + BATCH, total)):
                finished = index < games
                batch.append(
                    Game(
                        preset=presets[index % len(presets)],
                        ruleset={},
                        players=2,
                        owner=player,
                        status=Game.Status.FINISHED if finished else Game.Status.ACTIVE,
                        winners=[rng.randrange(2)] if finished else [],
                        end_reason="completed" if finished else "",
                        deal_number=deals,
                        started_at=now,
                        finished_at=now if finished else None,
                    )
                )
            made = Game.objects.bulk_create(batch)
            seats, rows = [], []
            for game in made:
                opponent = rng.choice(opponents)
                out = game.status == Game.Status.FINISHED and rng.random() < 0.05
                seats.append(Seat(game=game, user=player, position=0, total=0))
                seats.append(
                    Seat(
                        game=game,
                        user=opponent,
                        position=1,
                        status=Seat.Status.OUT if out else Seat.Status.ACTIVE,
                    )
                )
                played = deals if game.status == Game.Status.FINISHED else deals // 2
                for number in range(1, played + 1):
                    rows.append(
                        Deal(
                            game=game,
                            number=number,
                            dealer=number % 2,
                            deck=[],
                            card_ids=[],
                            state={},
                            result=deal_result(rng),
                            finished_at=now,
                        )
                    )
            Seat.objects.bulk_create(seats)
            Deal.objects.bulk_create(rows, batch_size=BATCH)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    return player


# ------------------------------------------------------------------ the timing


def timed(
    old: Callable[[], Any], new: Callable[[], Any], *, old_count: int, new_count: int
) -> tuple[list[float], list[float]]:
    """Samples (ms) of both calls, interleaved: the machine may be shared, and a burst of
    someone else's load then slows both alike."""
    for _ in range(WARMUP):
        old()
        new()
    every = max(1, new_count // max(1, old_count))
    old_samples: list[float] = []
    new_samples: list[float] = []
    for index in range(new_count):
        new_samples.append(elapsed_ms(new))
        if index % every == 0 and len(old_samples) < old_count:
            old_samples.append(elapsed_ms(old))
    while len(old_samples) < old_count:
        old_samples.append(elapsed_ms(old))
    return old_samples, new_samples


def elapsed_ms(call: Callable[[], Any]) -> float:
    began = time.perf_counter()
    call()
    return (time.perf_counter() - began) * 1000


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def line(label: str, old: list[float], new: list[float]) -> str:
    old50, new50 = statistics.median(old), statistics.median(new)
    return (
        f"{label:<31} old p50 {old50:8.1f} ms  p99 {percentile(old, 0.99):8.1f} ms (n={len(old)})"
        f"   new p50 {new50:6.2f} ms  p99 {percentile(new, 0.99):6.2f} ms (n={len(new)})"
        f"   x{old50 / new50:,.0f}"
    )


@contextmanager
def the_old_read() -> Iterator[None]:
    """The pages and the API with the recount of every game on each request, as before."""
    # Imported before patching: a module first imported under the patch would keep the
    # patched function for good.
    from accounts.api import serializers
    from games import stats
    from games.stats.read import families_in_order
    from games.stats.rebuild import counted_stats

    def recounted(user: Any) -> Any:
        return families_in_order(counted_stats(user.pk))

    with (
        mock.patch.object(stats, "player_stats", recounted),
        mock.patch.object(serializers, "player_stats", recounted),
    ):
        yield


def reads_deals(call: Callable[[], Any]) -> bool:
    """Does ``call`` read the deals' results (the recount), or only the kept rows?"""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        call()
    return any('FROM "games_deal"' in query["sql"] for query in queries.captured_queries)


def measure(player: Any, requests: int, old_requests: int) -> list[str]:
    from django.test import Client

    from games.stats import player_stats
    from games.stats.read import families_in_order
    from games.stats.rebuild import counted_stats

    kept = [family.to_dict() for family in player_stats(player)]
    recounted = [family.to_dict() for family in families_in_order(counted_stats(player.pk))]
    assert kept == recounted, "the kept rows differ from the recount"
    browser = Client()
    browser.force_login(player)

    def get(path: str) -> Callable[[], Any]:
        def call() -> None:
            response = browser.get(path)
            assert response.status_code == 200, (path, response.status_code)

        return call

    def with_the_old_read(call: Callable[[], Any]) -> Callable[[], Any]:
        def old() -> None:
            with the_old_read():
                call()

        return old

    pages = [
        ("GET /api/v1/users/{name}", get(f"/api/v1/users/{player.username}")),
        ("GET /accounts/profile/", get("/accounts/profile/")),
        ("GET /accounts/players/{name}/", get(f"/accounts/players/{player.username}/")),
    ]
    counts = {"old_count": old_requests, "new_count": requests}
    results = [
        line(
            "statistics (function)",
            *timed(lambda: counted_stats(player.pk), lambda: player_stats(player), **counts),
        )
    ]
    for label, call in pages:
        assert reads_deals(with_the_old_read(call)) and not reads_deals(call), label
        results.append(line(label, *timed(with_the_old_read(call), call, **counts)))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="the player's finished games")
    parser.add_argument("--deals", type=int, default=8, help="deals per game")
    parser.add_argument("--requests", type=int, default=200, help="timed calls of each new read")
    parser.add_argument("--old-requests", type=int, default=50, help="timed calls of each old one")
    add_stack_options(parser, web=False)
    args = parser.parse_args()

    with (
        scratch_database(args.db_name or f"remi_bench_stats_{os.getpid()}") as db_name,
        private_redis(args.redis_port, args.redis_db) as redis_url,
        tempfile.TemporaryDirectory() as var_dir,
    ):
        django_setup(db_name, redis_url, var_dir)
        began = time.perf_counter()
        player = seed(args.games, args.deals)
        seeded = time.perf_counter() - began
        from django.db import connection

        from games.stats.rebuild import stats_rebuild

        began = time.perf_counter()
        rewritten = len(stats_rebuild())
        rebuilt = time.perf_counter() - began
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM games_deal")
            (deal_rows,) = cursor.fetchone()
        print(
            f"{args.games:,} finished games (+{UNDER_WAY} under way), {deal_rows:,} deal rows: "
            f"seeded in {seeded:.1f} s; rebuild_stats of {1 + OPPONENTS} players "
            f"({rewritten} rows) in {rebuilt:.1f} s"
        )
        for result in measure(player, args.requests, args.old_requests):
            print(result)
        print("load average (1, 5, 15 min): {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
