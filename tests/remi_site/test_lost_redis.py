"""The production configuration (PostgreSQL, an external Redis) in real processes, with
Redis lost in the middle of a game: moves still commit to PostgreSQL, nothing answers
a 500, and once Redis is back the stalled bot plays, notifications flow again and the
move log has no gap and no double."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets

from tests.sites import RedisServer, Site, scratch_database, wait_for

pytestmark = pytest.mark.slow

PASSWORD = "correct-horse-battery-staple"


@pytest.fixture
def database_url() -> Iterator[str]:
    """A fresh PostgreSQL database of the site's own (the site migrates it)."""
    with scratch_database("remi_stack") as url:
        yield url


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    server = RedisServer()
    server.start()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def production_site(
    runtime_venv: Path, database_url: str, redis_server: RedisServer
) -> Iterator[Site]:
    env = {"DATABASE_URL": database_url, "REDIS_URL": redis_server.url, "BOT_STALL_S": "3"}
    with Site(venv=runtime_venv, env=env).running() as site:
        yield site


def _signed_in(url: str) -> tuple[httpx.Client, str]:
    with httpx.Client(base_url=f"{url}/api/v1", timeout=15) as anonymous:
        body = {"username": "lena", "password": PASSWORD}
        assert anonymous.post("/auth/signup", json=body).status_code == 201
        login = anonymous.post("/auth/login", json={**body, "token_name": "t"})
        assert login.status_code == 200, login.text
    token = login.json()["token"]["token"]
    api = httpx.Client(
        base_url=f"{url}/api/v1", headers={"Authorization": f"Bearer {token}"}, timeout=15
    )
    return api, token


def _my_turn(api: httpx.Client, game_id: str, seat: int) -> dict:
    def mine() -> dict | None:
        view = api.get(f"/games/{game_id}").json()
        return view if view["to_move"] == seat else None

    return wait_for(mine, timeout=60, what=f"our turn in game {game_id}")


def _act(api: httpx.Client, view: dict, action: dict) -> httpx.Response:
    return api.post(f"/games/{view['id']}/actions", json={"action": action, "ply": view["ply"]})


async def _events_until(url: str, token: str, game_id: str, ply: int) -> list[dict]:
    """Connect, subscribe to the game, and collect its events until one reaches ``ply``."""
    ws_url = url.replace("http://", "ws://") + "/ws/v1/"
    headers = {"Authorization": f"Bearer {token}", "Origin": url}
    received: list[dict] = []
    async with websockets.connect(ws_url, additional_headers=headers) as socket:
        assert json.loads(await socket.recv())["type"] == "hello"
        await socket.send(json.dumps({"type": "subscribe", "game": game_id, "ply": None}))
        async with asyncio.timeout(60):
            while not any(e.get("game") == game_id and e.get("ply", 0) >= ply for e in received):
                received.append(json.loads(await socket.recv()))
    return received


def test_a_move_commits_while_redis_is_down_and_play_resumes_when_it_returns(
    production_site: Site, redis_server: RedisServer
):
    api, token = _signed_in(production_site.url)
    started = api.post(
        "/games/play-now",
        json={"preset": "polish51", "bots": 1, "level": 2, "time_control": "correspondence"},
    ).json()
    seat = started["you"]
    view = _my_turn(api, started["id"], seat)

    redis_server.stop()
    drawn = _act(api, view, {"type": "draw"})
    assert drawn.status_code == 200, drawn.text
    after_draw = api.get(f"/games/{view['id']}")
    assert after_draw.status_code == 200, after_draw.text
    view = after_draw.json()
    hand = [card["card"] for card in view["deal"]["hand"]]
    discarded = _act(api, view, {"type": "discard", "card": view["deal"]["must_return"] or hand[0]})
    assert discarded.status_code == 200, discarded.text
    status, health = production_site.health()
    assert status == 503 and health["redis"] == "fail", health
    # Both moves are in PostgreSQL; the bot's task could not be queued (no broker).
    committed_ply = api.get(f"/games/{view['id']}").json()["ply"]
    assert committed_ply == view["ply"] + 1

    redis_server.start()

    # The bot sweep finds the bot's stalled turn and plays it; the websocket carries it.
    events = asyncio.run(_events_until(production_site.url, token, view["id"], committed_ply + 1))
    assert any(event["type"] == "subscribed" for event in events), events
    view = _my_turn(api, view["id"], seat)
    moves = api.get(f"/games/{view['id']}/moves").json()["results"]
    assert [move["ply"] for move in moves] == list(range(1, view["ply"] + 1))
    assert not any(move["by_server"] for move in moves), "a timeout played a turn"
    assert [s["strikes"] for s in view["seats"]] == [0, 0]
    wait_for(
        lambda: production_site.health()[0] == 200,
        timeout=60,
        what=f"a healthy site after Redis returned:\n{production_site.log()}",
    )
    api.close()
