"""The soak's checks: deadlines and bot turns sampled while it runs, the move log against
what the players were told (lost and doubled moves), and the logs' errors.
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg

from bench.soaking.limits import SAMPLE_EVERY_S
from bench.soaking.players import MoveLog, pause


def user_ids(count: int) -> list[int]:
    """The ids of make_players' users bench0 .. bench{count-1}, in that order."""
    from django.contrib.auth import get_user_model

    names = [f"bench{index}" for index in range(count)]
    ids = dict(get_user_model().objects.filter(username__in=names).values_list("username", "id"))
    return [ids[name] for name in names]


@dataclass
class Watch:
    """Deadlines and bot turns as sampled from the database every second."""

    late_after: float
    stall_after: float
    samples: int = 0
    sample_errors: int = 0
    worst_overdue: float = 0.0  # the most overdue deadline seen, late or not
    worst_bot_wait: float = 0.0
    late: dict[tuple[int, int], float] = field(default_factory=dict)  # (game, ply): worst
    stalled: dict[tuple[int, int], float] = field(default_factory=dict)


OVERDUE_SQL = """
    SELECT id, ply, EXTRACT(EPOCH FROM clock_timestamp() - deadline_at)::float8
    FROM games_game
    WHERE status = 'active' AND deadline_at IS NOT NULL AND deadline_at < clock_timestamp()
"""


BOT_WAITING_SQL = """
    SELECT id, ply, EXTRACT(EPOCH FROM clock_timestamp() - updated_at)::float8
    FROM games_game
    WHERE status = 'active' AND bot_to_move
"""


async def watch_server(db_url: str, watch: Watch, stop: asyncio.Event) -> None:
    """Sample overdue deadlines and waiting bot turns every ``SAMPLE_EVERY_S``."""
    conn: psycopg.AsyncConnection[Any] | None = None
    try:
        while not stop.is_set():
            try:
                if conn is None or conn.closed:
                    conn = await psycopg.AsyncConnection.connect(db_url, autocommit=True)
                overdue = await (await conn.execute(OVERDUE_SQL)).fetchall()
                waiting = await (await conn.execute(BOT_WAITING_SQL)).fetchall()
            except psycopg.Error:
                watch.sample_errors += 1
                conn = None
            else:
                watch.samples += 1
                record_sample(watch, overdue, waiting)
            await pause(stop, SAMPLE_EVERY_S)
    finally:
        if conn is not None:
            await conn.close()


def record_sample(
    watch: Watch, overdue: list[tuple[int, int, float]], waiting: list[tuple[int, int, float]]
) -> None:
    for game, ply, seconds in overdue:
        watch.worst_overdue = max(watch.worst_overdue, seconds)
        if seconds > watch.late_after:
            watch.late[(game, ply)] = max(watch.late.get((game, ply), 0.0), seconds)
    for game, ply, seconds in waiting:
        watch.worst_bot_wait = max(watch.worst_bot_wait, seconds)
        if seconds > watch.stall_after:
            watch.stalled[(game, ply)] = max(watch.stalled.get((game, ply), 0.0), seconds)


@dataclass
class Checks:
    lost: list[tuple[str, int, str, int]] = field(default_factory=list)
    keys_twice: int = 0
    over_accepted: dict[tuple[str, int], int] = field(default_factory=dict)
    unconfirmed_logged: int = 0
    server_moves: int = 0  # logged by the server itself (timeouts, seats out)
    bot_moves: int = 0

    @property
    def doubled(self) -> int:
        return self.keys_twice + sum(self.over_accepted.values())


def check_move_log(db_url: str, moves: MoveLog, humans: list[int]) -> Checks:
    """Compare what the clients saw accepted with the move log in PostgreSQL."""
    checks = Checks()
    logged: dict[tuple[str, int, str], list[int]] = {}
    with psycopg.connect(db_url) as conn:
        for game, user, key, ply in conn.execute(
            "SELECT g.public_id, m.user_id, m.idempotency_key, m.ply FROM games_move m "
            "JOIN games_game g ON g.id = m.game_id WHERE m.idempotency_key IS NOT NULL"
        ):
            logged.setdefault((game, user, key), []).append(ply)
        per_player = {
            (game, user): count
            for game, user, count in conn.execute(
                "SELECT g.public_id, m.user_id, count(*) FROM games_move m "
                "JOIN games_game g ON g.id = m.game_id WHERE m.user_id = ANY(%s) "
                "GROUP BY g.public_id, m.user_id",
                (humans,),
            )
        }
        row = conn.execute(
            "SELECT count(*) FILTER (WHERE user_id IS NULL), "
            "count(*) FILTER (WHERE user_id IS NOT NULL AND NOT user_id = ANY(%s)) "
            "FROM games_move",
            (humans,),
        ).fetchone()
        assert row is not None
        checks.server_moves, checks.bot_moves = row
    checks.lost = [
        (game, user, key, ply)
        for game, user, key, ply in moves.accepted
        if ply not in logged.get((game, user, key), ())
    ]
    checks.keys_twice = sum(len(plies) - 1 for plies in logged.values() if len(plies) > 1)
    maybe: Counter[tuple[str, int]] = Counter()
    for game, user, key in moves.unconfirmed:
        if (game, user, key) in logged:
            maybe[(game, user)] += 1
            checks.unconfirmed_logged += 1
    for player_game, count in per_player.items():
        extra = count - moves.per_player[player_game] - maybe[player_game]
        if extra > 0:
            checks.over_accepted[player_game] = extra
    return checks


# The level of a Django, uvicorn or Celery log line (not a word such as
# SERVER_CLOSED_CONNECTION_ERROR inside a traceback).
LOG_LEVEL_ERROR = re.compile(r"(^|[\s\[:/])(ERROR|CRITICAL)[\s:/\]]")


def log_problems(logs: Path) -> dict[str, Counter[str]]:
    """Per log: its ERROR and CRITICAL messages (without their time), counted. The 503s
    of /healthz during a fault are expected (the fault lines report them)."""
    found = {}
    for path in sorted(logs.glob("*.log")):
        messages: Counter[str] = Counter()
        with path.open(errors="replace") as lines:
            for line in lines:
                if LOG_LEVEL_ERROR.search(line) and "/healthz" not in line:
                    messages[without_time(line.strip())[:200]] += 1
        found[path.name] = messages
    return found


def without_time(line: str) -> str:
    """A log line without its leading timestamp (Django's or Celery's format)."""
    if line.startswith("[") and "] " in line:
        return line.split("] ", 1)[1]
    parts = line.split(" ", 2)
    return parts[2] if len(parts) == 3 and parts[0][:2].isdigit() else line


def count_lines(path: Path, text: str) -> int:
    if not path.exists():
        return 0
    with path.open(errors="replace") as lines:
        return sum(text in line for line in lines)
