"""Two ASGI server processes: a move made through one reaches a client of the other."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from django.db import connection

from games.engine import Discard, DrawStock
from games.models import Game
from games.read.selectors import current_deal

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def two_servers() -> Iterator[list[int]]:
    """Two uvicorn processes on this test's database and Redis database."""
    settings_dict = connection.settings_dict
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "remi_site.settings_test",
        "TEST_DATABASE_URL": (
            f"postgres://{settings_dict['USER']}@{settings_dict['HOST']}:"
            f"{settings_dict['PORT']}/{settings_dict['NAME']}"
        ),
    }
    ports = [free_port(), free_port()]
    servers = [
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
                "--timeout-graceful-shutdown",
                "3",
            ],
            cwd=ROOT,
            env=env,
            start_new_session=True,
        )  # fmt: skip
        for port in ports
    ]
    try:
        end = time.monotonic() + 60
        for port in ports:
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    assert time.monotonic() < end, "the servers did not start"
                    time.sleep(0.2)
        yield ports
    finally:
        for server in servers:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(10)


async def listen(port: int, token: str, game_id: str, ply: int, seen: list[Any]) -> None:
    async with websockets.connect(
        f"ws://127.0.0.1:{port}/ws/v1/",
        additional_headers={"Authorization": f"Bearer {token}"},
        origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
    ) as ws:
        await ws.recv()
        await ws.send(json.dumps({"type": "subscribe", "game": game_id, "ply": ply}))
        while True:
            seen.append(json.loads(await ws.recv()))


def test_players_on_two_servers_receive_each_others_moves(
    started_game: Callable[..., Game],
    token_factory: Callable[..., Any],
    two_servers: list[int],
) -> None:
    game = started_game(2)
    seats = list(game.seats.select_related("user"))
    tokens = [token_factory(seat.user)[1] for seat in seats]

    async def scenario() -> list[list[Any]]:
        seen: list[list[Any]] = [[], []]
        listeners = [
            asyncio.create_task(listen(two_servers[i], tokens[i], game.public_id, 0, seen[i]))
            for i in range(2)
        ]
        await until(lambda: all(subscribed(messages) for messages in seen))
        # Each player moves through the REST API of *their own* server.
        async with httpx.AsyncClient() as http:
            for _ in range(3):
                ply, mover, action = await asyncio.to_thread(next_move, game)
                response = await http.post(
                    f"http://127.0.0.1:{two_servers[mover]}/api/v1/games/{game.public_id}/actions",
                    json={"action": action, "ply": ply},
                    headers={"Authorization": f"Bearer {tokens[mover]}"},
                )
                assert response.status_code == 200, response.text
        await until(lambda: all(len(move_plies(messages)) >= 3 for messages in seen))
        for task in listeners:
            task.cancel()
        return seen

    seen = asyncio.run(scenario())
    game.refresh_from_db()
    for messages in seen:
        assert move_plies(messages) == [1, 2, 3][: game.ply]
        assert all(m["type"] != "private" or m["view"]["seat"] in (0, 1) for m in messages)
    # Each player's private updates carried only their own seat's view.
    for position, messages in enumerate(seen):
        privates = [m for m in messages if m["type"] == "private"]
        assert privates and {m["view"]["seat"] for m in privates} == {position}


def subscribed(messages: list[Any]) -> bool:
    return any(message["type"] == "subscribed" for message in messages)


def move_plies(messages: list[Any]) -> list[int]:
    return [message["ply"] for message in messages if message["type"] == "move"]


async def until(condition: Callable[[], bool], timeout: float = 30) -> None:
    """Poll ``condition`` while the listeners run, failing after ``timeout`` seconds."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.05)


def next_move(game: Game) -> tuple[int, int, dict[str, Any]]:
    """(ply, seat to move, a plain action); runs in a thread: closes its connection."""
    try:
        return _next_move(game)
    finally:
        connection.close()


def _next_move(game: Game) -> tuple[int, int, dict[str, Any]]:
    game.refresh_from_db()
    deal = current_deal(game)
    assert deal is not None
    if not deal.drawn:
        return game.ply, deal.to_move, DrawStock().to_dict()
    card = max(deal.hand(deal.to_move), key=lambda c: (not c.is_joker, c.rank))
    return game.ply, deal.to_move, Discard(card).to_dict()
