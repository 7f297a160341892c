"""Reads and sweeps against a large PostgreSQL database: do they grow with the number
of games?

    .venv/bin/python bench/scale.py [--active 100000] [--finished 10000] [--samples 200]

All on 127.0.0.1, production settings (``DATABASE_URL``, ``REDIS_URL``, ``DEBUG=0``):

1. creates a scratch PostgreSQL database (random name, dropped at the end unless
   ``--keep-db``), migrates it, and starts a ``redis-server`` of its own on a free port
   (the cache, the channel layer and the Celery broker of this process; stopped at
   the end; both from ``bench/kit/stack.py``);
2. seeds it (``bench/atscale/``): template games played through the services,
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
import shutil
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.atscale.figures import (  # noqa: E402
    overdue_ensure,
    read_figures,
    sweep_query_figures,
    sweep_whole_figures,
)
from bench.atscale.report import database_facts, figures_json, report  # noqa: E402
from bench.atscale.seeding import BUSY_GAMES, cast_find, seed_all  # noqa: E402
from bench.atscale.setup import (  # noqa: E402
    bench_env,
    database,
    database_migrate,
    django_setup,
    static_collect,
)
from bench.kit.measure import CpuMeter, load_average  # noqa: E402
from bench.kit.report import write_json  # noqa: E402
from bench.kit.stack import add_stack_options, private_redis  # noqa: E402


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
    add_stack_options(parser, web=False)
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
                write_json(args.json, figures_json(figures))
        finally:
            shutil.rmtree(env["REMI_VAR_DIR"], ignore_errors=True)


if __name__ == "__main__":
    main()
