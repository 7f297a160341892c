"""What a whole turn costs the server as one request (``POST /games/{id}/turn``) against
the same actions sent one by one (``POST /games/{id}/actions`` each), and against the
cheapest authenticated GET, in-process: CPU time of this process and of PostgreSQL.

    .venv/bin/python bench/turn_cost.py [--turns 200] [--rounds 4]

The set-up is ``bench/move_cost.py``'s (a scratch PostgreSQL database and a Redis server
of its own, production settings, Django's test client through the whole stack). Two
players play 2-player serbian games turn after turn, each turn a draw and a discard (a
card from the hand before the draw: the plan is made before it is sent). In each round,
``--turns`` turns one by one, ``--turns`` turns in one request and ``--turns`` GETs, so a
change in the host's load reaches all three alike; the ratios are of the sums over the
rounds. The state each mover plans from is read untimed.

A benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.kit.stack import add_redis_options, production_django  # noqa: E402
from bench.move_cost import Cost, Table, database_cpu, redis_calls  # noqa: E402

WARMUP_TURNS = 20


class Turns(Table):
    """``bench/move_cost.py``'s table, played a whole turn at a time."""

    def plan(self) -> tuple[Any, dict[str, Any]]:
        """The mover's client and the turn it plans from the state it reads (untimed)."""
        if self.view["status"] != "active" or self.view["deal"] is None:
            self.new_match()
        client = self.clients[self.view["to_move"]]
        current = client.get(f"/api/v1/games/{self.game_id}").json()
        deal = current["deal"]
        keep = [pair["card"] for pair in deal["hand"] if pair["card"] != "JK"]
        actions = ["draw"] if deal["phase"] == "draw" else []
        actions.append(f"discard {keep[0]}")
        return client, {"actions": actions, "ply": current["ply"]}

    def answered(self, response: Any) -> None:
        if response.status_code != 200:
            raise RuntimeError(f"refused: {response.status_code} {response.content!r}")
        self.view = response.json()["game"]


def timed(cost: Cost, redis_url: str, calls: Any) -> None:
    """Run ``calls()`` (the requests of one measured unit) and add its cost."""
    redis_before, database_before = redis_calls(redis_url), database_cpu()
    began = time.process_time()
    calls()
    cost.cpu.append(time.process_time() - began)
    cost.database_cpu += database_cpu() - database_before
    cost.redis_commands += redis_calls(redis_url) - redis_before


def one_by_one(table: Turns, client: Any, turn: dict[str, Any]) -> None:
    ply = turn["ply"]
    for action in turn["actions"]:
        response = client.post(
            f"/api/v1/games/{table.game_id}/actions",
            {"action": action, "ply": ply},
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=secrets.token_hex(8),
        )
        table.answered(response)
        ply = table.view["ply"]


def in_one(table: Turns, client: Any, turn: dict[str, Any]) -> None:
    table.answered(
        client.post(
            f"/api/v1/games/{table.game_id}/turn",
            turn,
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=secrets.token_hex(8),
        )
    )


def run(args: argparse.Namespace, redis_url: str) -> None:
    table = Turns()
    for _ in range(WARMUP_TURNS):
        client, turn = table.plan()
        in_one(table, client, turn)
        client, turn = table.plan()
        one_by_one(table, client, turn)
    separate, together = Cost("turn as separate requests"), Cost("turn in one request")
    get = Cost("GET /api/v1/me/vacation")
    draws = {"separate": 0, "together": 0}
    for _ in range(args.rounds):
        for cost, send, name in (
            (separate, one_by_one, "separate"),
            (together, in_one, "together"),
        ):
            for _ in range(args.turns):
                client, turn = table.plan()
                draws[name] += turn["actions"][0] == "draw"
                timed(cost, redis_url, lambda c=client, t=turn, s=send: s(table, c, t))
        for _ in range(args.turns):
            timed(get, redis_url, lambda: table.clients[0].get("/api/v1/me/vacation"))
    report(separate, together, get, draws, args)


def report(
    separate: Cost, together: Cost, get: Cost, draws: dict[str, int], args: argparse.Namespace
) -> None:
    print(
        f"\nbench/turn_cost.py: {args.rounds} rounds of {args.turns} turns each way and "
        f"{args.turns} GETs, in-process, PostgreSQL + Redis, production settings; load "
        f"average {os.getloadavg()[0]:.2f}; turns with a draw: {draws['separate']} of "
        f"{len(separate.cpu)} separate, {draws['together']} of {len(together.cpu)} in one"
    )
    print(f"{'call':<30} {'CPU mean':>9} {'p50':>7} {'p99':>7} {'PG CPU':>8} {'Redis/call':>11}")
    for cost in (separate, together, get):
        print(
            f"{cost.name:<30} {cost.mean_ms:>7.2f}ms {cost.ms(0.5):>5.2f}ms "
            f"{cost.ms(0.99):>5.2f}ms {cost.database_ms:>6.2f}ms "
            f"{cost.per_call(cost.redis_commands):>11.2f}"
        )

    def total(cost: Cost) -> float:
        return cost.mean_ms + cost.database_ms

    print(
        f"  with PostgreSQL's CPU: a turn in one request {total(together):.2f} ms, as separate "
        f"requests {total(separate):.2f} ms, the GET {total(get):.2f} ms"
    )
    print(
        f"  a turn in one request costs {total(together) / total(separate):.2f}x the same "
        f"actions sent one by one, and {total(together) / total(get):.2f}x the GET "
        f"(one by one: {total(separate) / total(get):.2f}x)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--turns", type=int, default=100, help="timed turns each way per round")
    parser.add_argument("--rounds", type=int, default=4, help="rounds (alternating the kinds)")
    add_redis_options(parser)
    args = parser.parse_args()
    with production_django(
        "remi_bench_turn", args.redis_port, args.redis_db, args.db_name
    ) as redis_url:
        run(args, redis_url)


if __name__ == "__main__":
    main()
