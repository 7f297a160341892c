"""How much of a move's cost any durable write must pay: the floor under issue 38's goal
(a move's server CPU at most 1.5x the cheapest authenticated GET's).

    .venv/bin/python bench/move_floor.py [--calls 200] [--rounds 4]

The set-up is ``bench/turn_cost.py``'s (a scratch PostgreSQL database and a Redis server
of its own, production settings, Django's test client through the whole stack, the
server's CPU as the web process's, PostgreSQL's backends' and the Redis server's). Each
round makes ``--calls`` calls of each kind, every other round in the reverse order:

- the GET (``/api/v1/me/vacation``): the baseline;
- an authenticated POST that does nothing: a move's body (an action and a ply) sent to
  a view of this benchmark behind the same middleware, token authentication, throttles
  and error handling as the move's, answered with a ply;
- the same POST that also writes durably what a move must at the least: the game's row
  locked and read (``SELECT ... FOR UPDATE``), one update of it, the commit (its WAL
  flush: ``synchronous_commit`` stays on) -- no engine, no move row, no event;
- a real move (``POST /api/v1/games/{id}/actions`` with ``Prefer: return=minimal``, a
  draw or a discard).

So the two floors say what a move's goal leaves for the game itself: whatever the floor
with the write costs over the GET is spent before a card is looked at.

A benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.kit.stack import add_redis_options, production_django  # noqa: E402
from bench.move_cost import Cost, Table  # noqa: E402
from bench.turn_cost import Meter, RedisCpu, total  # noqa: E402

WARMUP_CALLS = 30
MINIMAL = {"HTTP_PREFER": "return=minimal"}


def floor_urls() -> Any:
    """The site's URLs and the two floors' (a module-like object for ``ROOT_URLCONF``)."""
    from types import ModuleType

    from django.db import transaction
    from django.urls import include, path
    from django.utils import timezone
    from rest_framework.request import Request
    from rest_framework.response import Response

    from games.api.move_io import move_input
    from games.api.views import GameAPIView
    from games.models import Game

    class PostFloor(GameAPIView):
        """A move's request and answer, and nothing between."""

        def post(self, request: Request, game_id: str) -> Response:
            _given, ply = move_input(request.data)
            return Response({"ply": ply})

    class WriteFloor(GameAPIView):
        """A move's request and answer around the least durable write of the game."""

        def post(self, request: Request, game_id: str) -> Response:
            _given, ply = move_input(request.data)
            with transaction.atomic():
                game_pk = (
                    Game.objects.select_for_update()
                    .values_list("pk", flat=True)
                    .get(public_id=game_id)
                )
                Game.objects.filter(pk=game_pk).update(updated_at=timezone.now())
            return Response({"ply": ply})

    urls = ModuleType("bench_floor_urls")
    urls.urlpatterns = [  # type: ignore[attr-defined]
        path("bench/floor/post/<str:game_id>", PostFloor.as_view()),
        path("bench/floor/write/<str:game_id>", WriteFloor.as_view()),
        path("", include("remi_site.urls")),
    ]
    return urls


def floor_call(table: Table, kind: str) -> None:
    client = table.clients[0]
    response = client.post(
        f"/bench/floor/{kind}/{table.game_id}",
        {"action": "draw", "ply": table.view["ply"]},
        content_type="application/json",
    )
    if response.status_code != 200:
        raise RuntimeError(f"the {kind} floor answered {response.status_code}")


def move_call(table: Table, meter: Meter, cost: Cost) -> None:
    """A move, timed; the state its mover plans from is read first, untimed."""
    client, url, body = table.next_move()
    meter.timed([cost], lambda: send_move(table, client, url, body))


def send_move(table: Table, client: Any, url: str, body: dict[str, Any]) -> None:
    table.answered(
        client.post(
            url,
            body,
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=secrets.token_hex(8),
            **MINIMAL,
        )
    )


def run(args: argparse.Namespace, redis_url: str) -> None:
    from django.test.utils import override_settings

    with override_settings(ROOT_URLCONF=floor_urls()):
        table = Table()
        meter = Meter(redis_url, RedisCpu(redis_url))
        kinds: dict[str, Callable[[Cost], None]] = {
            "GET /api/v1/me/vacation": lambda cost: meter.timed(
                [cost], lambda: table.clients[0].get("/api/v1/me/vacation")
            ),
            "POST, nothing done": lambda cost: meter.timed(
                [cost], lambda: floor_call(table, "post")
            ),
            "POST, the game locked, updated, committed": lambda cost: meter.timed(
                [cost], lambda: floor_call(table, "write")
            ),
            "a move (draw or discard), minimal": lambda cost: move_call(table, meter, cost),
        }
        costs = {name: Cost(name) for name in kinds}
        for call in kinds.values():
            for _ in range(WARMUP_CALLS):
                call(Cost("warm-up"))
        for number in range(args.rounds):
            order = list(kinds) if number % 2 == 0 else list(reversed(kinds))
            for name in order:
                for _ in range(args.calls):
                    kinds[name](costs[name])
    report(list(costs.values()), args)


def report(costs: list[Cost], args: argparse.Namespace) -> None:
    get = costs[0]
    print(
        f"\nbench/move_floor.py: {args.rounds} rounds of {args.calls} calls of each kind, "
        f"alternating, in-process, PostgreSQL + Redis, production settings; load average "
        f"{os.getloadavg()[0]:.2f}"
    )
    print(
        f"{'call':<44} {'web CPU':>8} {'PG CPU':>7} {'Redis CPU':>9} {'server':>7} "
        f"{'x GET':>6} {'over GET':>8}"
    )
    for cost in costs:
        print(
            f"{cost.name:<44} {cost.mean_ms:>6.2f}ms {cost.database_ms:>5.2f}ms "
            f"{cost.redis_cpu * 1000 / max(len(cost.cpu), 1):>7.3f}ms {total(cost):>5.2f}ms "
            f"{total(cost) / total(get):>5.2f}x {total(cost) - total(get):>6.2f}ms"
        )
    print(
        f"  the goal (1.5x) allows a move {total(get) * 0.5:.2f} ms over the GET; the write "
        f"floor uses {(total(costs[2]) - total(get)) / (total(get) * 0.5):.0%} of it"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--calls", type=int, default=200, help="calls of each kind per round")
    parser.add_argument("--rounds", type=int, default=4, help="rounds (alternating the kinds)")
    add_redis_options(parser)
    args = parser.parse_args()
    # The throttles run as in production (their Redis calls are in every kind's cost);
    # only their limit is raised: this bench sends thousands of calls a minute.
    os.environ["THROTTLE_USER"] = "1000000/min"
    with production_django(
        "remi_bench_floor", args.redis_port, args.redis_db, args.db_name
    ) as redis_url:
        run(args, redis_url)


if __name__ == "__main__":
    main()
