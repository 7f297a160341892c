"""The production configuration (PostgreSQL, an external Redis) in real processes, with
a service lost in the middle of a game.

Redis lost: moves still commit to PostgreSQL, nothing answers a 500, and once Redis is
back the stalled bot plays, notifications flow again and the move log has no gap and no
double. PostgreSQL restarted: no request fails on a connection the site kept. PostgreSQL
lost: every request is told 503 with Retry-After (the API in its error shape, a page in
the reader's language), a websocket is closed with 1013 (Try Again Later), /healthz
says so at once, no move is half made, and once the
database is back the same requests succeed."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import websockets

from tests.sites import SERVER, RedisServer, Site, scratch_database, wait_for

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
    # A request waits this long for a connection while PostgreSQL is lost (10 s by
    # default), so the outage's requests answer sooner; still more than the 1 + 2 s the
    # pool waits between checks of the two dead connections it keeps after a restart.
    env["DB_POOL_TIMEOUT"] = "5"
    with Site(venv=runtime_venv, env=env).running() as site:
        yield site


def _signed_in(url: str, username: str = "lena") -> tuple[httpx.Client, str]:
    with httpx.Client(base_url=f"{url}/api/v1", timeout=15) as anonymous:
        body = {"username": username, "password": PASSWORD}
        assert anonymous.post("/auth/signup", json=body).status_code == 201
        login = anonymous.post("/auth/login", json={**body, "token_name": "t"})
        assert login.status_code == 200, login.text
    token = login.json()["token"]["token"]
    api = httpx.Client(
        # Longer than DB_POOL_TIMEOUT (10 s): the wait for a connection that never comes.
        base_url=f"{url}/api/v1",
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
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


def _database_accepts_connections(database_url: str, accepts: bool) -> None:
    """Let the site's database take connections again, or refuse them and end the ones
    it has (as PostgreSQL being stopped would)."""
    name = database_url.rsplit("/", 1)[1]
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as admin:
        admin.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS {str(accepts).lower()}')
    if not accepts:
        _end_connections(database_url)


def _end_connections(database_url: str) -> None:
    """End every connection to the site's database, as a PostgreSQL restart does, and
    wait until their processes are gone (pg_terminate_backend only signals them)."""
    name = database_url.rsplit("/", 1)[1]
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as admin:
        ended = [
            pid
            for pid, _signalled in admin.execute(
                "SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                [name],
            )
        ]
        wait_for(
            lambda: (
                not admin.execute(
                    "SELECT 1 FROM pg_stat_activity WHERE pid = ANY(%s)", [ended]
                ).fetchone()
            ),
            timeout=30,
            what="the ended connections' processes to exit",
        )


def _first_move(view: dict) -> dict:
    """The turn's first move: the draw, or the starter's discard (Macedonian: 15 cards)."""
    deal = view["deal"]
    if "draw" in deal["actions"]:
        return {"type": "draw"}
    return {"type": "discard", "card": deal["hand"][0]["card"]}


async def _close_codes_across_the_cut(
    url: str, token: str, game_id: str, cut: Callable[[], None]
) -> list[int | None]:
    """The close codes of a websocket opened before ``cut`` that then subscribes to
    the game (a database read), and of one opened after it (its token's lookup)."""
    ws_url = url.replace("http://", "ws://") + "/ws/v1/"
    headers = {"Authorization": f"Bearer {token}", "Origin": url}

    async def closed(socket: Any) -> int | None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async with asyncio.timeout(30):
                while True:
                    await socket.recv()
        code: int | None = socket.close_code
        return code

    async with websockets.connect(ws_url, additional_headers=headers) as held:
        assert json.loads(await held.recv())["type"] == "hello"
        cut()
        await held.send(json.dumps({"type": "subscribe", "game": game_id, "ply": 0}))
        codes = [await closed(held)]
    async with websockets.connect(ws_url, additional_headers=headers) as opened:
        codes.append(await closed(opened))
    return codes


def _told_to_come_back(response: httpx.Response) -> httpx.Response:
    assert response.status_code == 503, response.text
    assert response.headers["Retry-After"] == "10"
    return response


def test_while_the_database_is_down_every_request_is_told_to_retry_and_none_half_happens(
    production_site: Site, database_url: str
):
    api, token = _signed_in(production_site.url, "vesna")
    started = api.post(
        "/games/play-now",
        json={"preset": "macedonian", "bots": 1, "level": 2, "time_control": "correspondence"},
    ).json()
    view = _my_turn(api, started["id"], started["you"])

    # PostgreSQL restarted: the connections the site keeps are all dead, and none of
    # them fails a request (each web process keeps a few).
    _end_connections(database_url)
    reads = [api.get(f"/games/{view['id']}") for _ in range(8)]
    assert [read.status_code for read in reads] == [200] * 8, production_site.log()

    try:
        # A websocket is asked to come back later (1013), whether it was open or opens.
        codes = asyncio.run(
            _close_codes_across_the_cut(
                production_site.url,
                token,
                view["id"],
                lambda: _database_accepts_connections(database_url, False),
            )
        )
        assert codes == [1013, 1013], codes
        move = _first_move(view)
        error = _told_to_come_back(_act(api, view, move)).json()["error"]
        assert error["code"] == "service_unavailable" and error["details"] == {"retry_after": 10}
        assert "database" in error["message"]
        read = _told_to_come_back(api.get(f"/games/{view['id']}"))
        assert read.json()["error"]["code"] == "service_unavailable"
        # A page says so too, in the reader's language.
        page = httpx.get(
            f"{production_site.url}/games/{view['id']}/",
            headers={"Accept": "text/html", "Accept-Language": "pl"},
            timeout=30,
        )
        _told_to_come_back(page)
        assert '<html lang="pl">' in page.text and "bazą danych" in page.text, page.text
        status, health = production_site.health()
        assert status == 503 and health["database"] == "fail", health
    finally:
        _database_accepts_connections(database_url, True)

    # The refused move never happened; the same move now does. The first request after
    # the database returns is answered (the pool connects again while it waits).
    back = api.get(f"/games/{view['id']}")
    assert back.status_code == 200, back.text
    assert back.json()["ply"] == view["ply"]
    played = _act(api, view, move)
    assert played.status_code == 200, played.text
    moves = api.get(f"/games/{view['id']}/moves").json()["results"]
    assert [move["ply"] for move in moves] == list(range(1, view["ply"] + 2))
    wait_for(
        lambda: production_site.health()[0] == 200,
        timeout=60,
        what=f"a healthy site after the database returned:\n{production_site.log()}",
    )
    assert "Internal Server Error" not in production_site.log_path.read_text(errors="replace")
    api.close()
