"""The suspicious pairs on a moderator's player record, against the admin's whole-site
pairs page, on a site with many rated games.

    .venv/bin/python bench/record_pairs.py [--players 400] [--games 40000] [--rounds 7]

What it does, all on 127.0.0.1:

1. creates a scratch PostgreSQL database (dropped at the end) and a private Redis
   server (stopped at the end), and migrates the database;
2. seeds ``--players`` accounts and ``--games`` finished two-player rated games among
   them (bulk-created: a game and its two ``RatingChange`` rows, spread over the last
   90 days), one pair of them playing each other often with one always ahead (the
   pattern flagged), the subject being one of that pair, with its share of games;
3. times, in-process, alternating in ``--rounds`` rounds (the machine may be shared):
   the record's read (``record.pairs_of``: the pairs of one account) and the baseline,
   the admin's whole-site read (``selectors.suspicious_pairs`` over the same 90 days),
   and prints each one's median and the ratio of the medians, with the load average.
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
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.kit.stack import add_redis_options, private_redis, scratch_database  # noqa: E402
from bench.stats import django_setup  # noqa: E402

BATCH = 2000


def seed(players: int, games: int) -> Any:
    """The accounts and their rated games; returns the subject (in the flagged pair)."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from accounts.models import RatingChange
    from games.models import Game

    users = get_user_model().objects
    people = users.bulk_create(
        [get_user_model()(username=f"p{n}", password="!") for n in range(players)]
    )
    subject, partner = people[0], people[1]
    rng = random.Random(7)
    now = timezone.now()
    every = max(2, players // 4)
    for start in range(0, games, BATCH):
        with transaction.atomic():
            pairs = []
            for index in range(start, min(games, start + BATCH)):
                # The flagged pair: more often together than with all the others.
                if index % every == 0:
                    pairs.append((subject, partner))
                else:
                    first, second = rng.sample(people, 2)
                    pairs.append((first, second))
            rows = Game.objects.bulk_create(
                [
                    Game(
                        preset="serbian",
                        ruleset={},
                        players=2,
                        owner=first,
                        rated=True,
                        status=Game.Status.FINISHED,
                        winners=[0],
                        end_reason="completed",
                        deal_number=1,
                        started_at=now,
                        finished_at=now,
                    )
                    for first, _second in pairs
                ]
            )
            changes = []
            for game, (first, second) in zip(rows, pairs, strict=True):
                for position, user in enumerate((first, second)):
                    changes.append(
                        RatingChange(
                            game=game,
                            user=user,
                            rules="serbian",
                            position=position,
                            rank=position + 1,
                            mu_before=25,
                            sigma_before=8,
                            mu_after=25,
                            sigma_after=8,
                            rating_before=1500,
                            rating_after=1500,
                        )
                    )
            made = RatingChange.objects.bulk_create(changes)
            # Spread over the window the reads look at (auto_now_add set them to now).
            for change in made:
                change.created_at = now - timedelta(days=rng.uniform(0, 89))
            RatingChange.objects.bulk_update(made, ["created_at"], batch_size=BATCH)
    return subject


def timed(call: Any) -> float:
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--games", type=int, default=40000)
    parser.add_argument("--rounds", type=int, default=7)
    add_redis_options(parser)
    args = parser.parse_args()
    name = f"bench_pairs_{secrets.token_hex(4)}"
    with (
        scratch_database(name) as db_name,
        private_redis(args.redis_port, args.redis_db) as redis_url,
        tempfile.TemporaryDirectory() as var_dir,
    ):
        django_setup(db_name, redis_url, var_dir)
        from django.db import connection
        from django.utils import timezone

        from accounts.moderation import record, selectors

        subject = seed(args.players, args.games)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        since = timezone.now() - timedelta(days=record.PAIRS_DAYS)
        found = record.pairs_of(subject)
        assert [pair.other.username for pair in found] == ["p1"], found
        site = selectors.suspicious_pairs(since=since)
        assert any(pair.first == subject or pair.second == subject for pair in site)

        record_ms: list[float] = []
        site_ms: list[float] = []
        for _round in range(args.rounds):
            record_ms.append(timed(lambda: record.pairs_of(subject)))
            site_ms.append(timed(lambda: selectors.suspicious_pairs(since=since)))
        mine, theirs = statistics.median(record_ms), statistics.median(site_ms)
        print(f"{args.players} players, {args.games} rated games, {args.rounds} rounds")
        print(f"record (one account's pairs):  median {mine:8.1f} ms  {sorted(record_ms)}")
        print(f"baseline (the site's pairs):   median {theirs:8.1f} ms")
        print(f"ratio record / baseline: {mine / theirs:.3f}")
        print(f"load average: {os.getloadavg()}")


if __name__ == "__main__":
    main()
