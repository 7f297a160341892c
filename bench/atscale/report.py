"""The report of ``bench/scale.py``: the database's size and rows, the figures' table,
the bytes of one finished match, the plans, and the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
from pathlib import Path
from typing import Any

import psycopg

from bench.atscale.clones import relation_sizes
from bench.atscale.figures import DEADLINE_QUERY, MY_GAMES, STALLED_QUERY, Figure
from bench.atscale.plans import Query
from bench.atscale.seeding import Seeding
from bench.atscale.setup import db_url


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
        tables = relation_sizes(conn)
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
