"""Notification latency: from a move's commit to a connected websocket client.

    .venv/bin/python bench/notify.py [--clients 200] [--games 20] [--moves 600] [--rate 50]

All on 127.0.0.1, production mode (PostgreSQL, Redis, ``SECRET_KEY`` set):

1. creates a scratch PostgreSQL database (dropped at the end), migrates it, and
   creates ``--games`` started 2-player games and ``--clients`` users with API
   tokens (the two players of each game, the rest spectators of the games);
2. starts **two** uvicorn processes (two ports) and, in ``--client-procs``
   separate client processes, connects the clients alternately to one or the other, each
   subscribed to its game over ``/ws/v1/``;
3. in this process plays ``--moves`` moves through ``games.play.act.game_act``
   (round-robin over the games, ``--rate`` moves per second), stamping the wall
   clock when each transaction commits (the first on-commit callback);
4. the clients stamp the arrival of each ``move`` event (game, ply); latency is
   arrival minus commit. Prints p50/p90/p99/max and the count of deliveries
   (every client must get every move of its game).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.kit.stack import (  # noqa: E402
    add_stack_options,
    free_port,
    private_redis,
    production_env,
    scratch_database,
)

# ------------------------------------------------------------------ the clients (own process)


async def _client(
    port: int, token: str, game_id: str, ready: asyncio.Event, arrivals: list[Any], stop: Any
) -> None:
    import websockets

    async with websockets.connect(
        f"ws://127.0.0.1:{port}/ws/v1/",
        additional_headers={"Authorization": f"Bearer {token}"},
        origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
        max_size=2**22,
    ) as ws:
        await ws.recv()  # hello
        await ws.send(json.dumps({"type": "subscribe", "game": game_id, "ply": None}))
        while json.loads(await ws.recv())["type"] != "subscribed":
            pass
        ready.set()
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except TimeoutError:
                continue
            now = time.time()
            message = json.loads(raw)
            if message.get("type") == "move":
                arrivals.append((message["game"], message["ply"], now))


def client_process(
    plan: list[tuple[int, str, str]], ready_queue: Any, out_queue: Any, stop: Any
) -> None:
    async def main() -> None:
        arrivals: list[Any] = []
        events = [asyncio.Event() for _ in plan]
        tasks = [
            asyncio.create_task(_client(port, token, game, event, arrivals, stop))
            for (port, token, game), event in zip(plan, events, strict=True)
        ]
        await asyncio.gather(*(event.wait() for event in events))
        ready_queue.put(len(plan))
        while not stop.is_set():
            await asyncio.sleep(0.1)
        await asyncio.gather(*tasks, return_exceptions=True)
        out_queue.put(arrivals)

    asyncio.run(main())


# ------------------------------------------------------------------ the driver


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--moves", type=int, default=600)
    parser.add_argument("--rate", type=float, default=50.0)
    parser.add_argument("--client-procs", type=int, default=2)
    add_stack_options(parser)
    args = parser.parse_args()

    db_name = args.db_name or f"remi_bench_notify_{secrets.token_hex(3)}"
    with private_redis(args.redis_port, args.redis_db) as redis_url, scratch_database(db_name):
        run(args, db_name, redis_url)


def run(args: argparse.Namespace, db_name: str, redis_url: str) -> None:
    env = production_env(db_name, redis_url)
    os.environ.update(env)
    servers: list[subprocess.Popen[bytes]] = []
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
        )
        import django

        django.setup()
        plan, games = _setup(args.games, args.clients)
        # Two web servers: --web-port and the next one, or two free ports.
        ports = [args.web_port, args.web_port + 1] if args.web_port else [free_port(), free_port()]
        for port in ports:
            servers.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "uvicorn",
                        "remi_site.asgi:application",
                        "--port",
                        str(port),
                        "--log-level",
                        "warning",
                        "--no-access-log",
                        "--ws",
                        "websockets",
                        "--timeout-graceful-shutdown",
                        "3",
                    ],
                    cwd=ROOT,
                    env=env,
                    start_new_session=True,
                )
            )
        _wait_ports(ports)
        client_plan = [(ports[i % 2], token, game) for i, (token, game) in enumerate(plan)]
        ctx = mp.get_context("spawn")
        ready, out, stop = ctx.Queue(), ctx.Queue(), ctx.Event()
        procs = [
            ctx.Process(
                target=client_process,
                args=(client_plan[n :: args.client_procs], ready, out, stop),
            )
            for n in range(args.client_procs)
        ]
        for proc in procs:
            proc.start()
        connected = sum(ready.get(timeout=120) for _ in procs)
        print(
            f"{connected} clients connected across 2 uvicorn processes "
            f"(clients in {len(procs)} processes)"
        )
        commits = _drive(games, args.moves, args.rate)
        time.sleep(2)
        stop.set()
        arrivals = [item for _ in procs for item in out.get(timeout=60)]
        for proc in procs:
            proc.join(10)
        _report(commits, arrivals, plan)
    finally:
        for server in servers:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(10)


def _setup(game_count: int, client_count: int) -> tuple[list[tuple[str, str]], list[Any]]:
    from django.contrib.auth.models import User

    from accounts import services as account_services
    from games.play.create import game_create
    from games.play.lobby import game_join, game_start

    games = []
    tokens: dict[int, str] = {}
    for index in range(game_count):
        players = [
            User.objects.create_user(username=f"p{index}_{seat}", password=None)
            for seat in range(2)
        ]
        game = game_create(owner=players[0], preset="serbian", players=2)
        game_join(game=game, user=players[1])
        games.append(game_start(game=game, user=players[0]))
        for player in players:
            tokens[player.pk] = account_services.token_create(user=player, name="bench")[1]
    plan = []
    for game in games:
        for seat in game.seats.all():
            plan.append((tokens[seat.user_id], game.public_id))
    spectators = client_count - len(plan)
    for index in range(max(0, spectators)):
        user = User.objects.create_user(username=f"s{index}", password=None)
        token = account_services.token_create(user=user, name="bench")[1]
        plan.append((token, games[index % len(games)].public_id))
    return plan[:client_count], games


def _wait_ports(ports: list[int]) -> None:
    end = time.monotonic() + 60
    for port in ports:
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > end:
                    raise
                time.sleep(0.2)


def _drive(games: list[Any], moves: int, rate: float) -> dict[tuple[str, int], float]:
    """Play ``moves`` moves round-robin; returns the commit time of each (game, ply)."""
    from django.db import transaction

    from games.bots.server_moves import server_action
    from games.models import Deal, Game
    from games.play.act import game_act

    commits: dict[tuple[str, int], float] = {}
    interval = 1.0 / rate
    next_at = time.monotonic()
    played = 0
    while played < moves:
        for game in games:
            if played >= moves:
                break
            game = Game.objects.get(pk=game.pk)
            if game.status != Game.Status.ACTIVE:
                continue
            deal = Deal.objects.get(game=game, number=game.deal_number).restore(
                game.engine_ruleset()
            )
            seat = game.seats.get(position=deal.to_move)
            key = (game.public_id, game.ply + 1)

            def stamp(key: tuple[str, int] = key) -> None:
                commits[key] = time.time()

            with transaction.atomic():
                transaction.on_commit(stamp)  # first: runs right at the commit
                game_act(
                    game=game, user=seat.user, action=server_action(deal), expected_ply=game.ply
                )
            played += 1
            next_at += interval
            time.sleep(max(0.0, next_at - time.monotonic()))
    return commits


def _report(
    commits: dict[tuple[str, int], float],
    arrivals: list[tuple[str, int, float]],
    plan: list[tuple[str, str]],
) -> None:
    watchers: dict[str, int] = {}
    for _token, game in plan:
        watchers[game] = watchers.get(game, 0) + 1
    expected = sum(watchers[game] for game, _ply in commits)
    latencies = sorted(
        (arrived - commits[(game, ply)]) * 1000
        for game, ply, arrived in arrivals
        if (game, ply) in commits
    )
    if not latencies:
        print("no deliveries")
        return
    q = statistics.quantiles(latencies, n=100)
    print(f"moves committed: {len(commits)}; deliveries: {len(latencies)} of {expected} expected")
    print(
        f"commit -> client latency ms: p50 {q[49]:.1f}  p90 {q[89]:.1f}  "
        f"p99 {q[98]:.1f}  max {latencies[-1]:.1f}"
    )


if __name__ == "__main__":
    main()
