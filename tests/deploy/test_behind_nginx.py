"""Past one machine: the deployment of docs/deploy.md (nginx terminating TLS, two web
nodes on their own addresses, a worker, beat, PostgreSQL and Redis) plays a game between
two people whose websockets are on different nodes; one node is killed mid-game, its
player's client reconnects through nginx to the other and resyncs, and the game ends
with every move once. The client's address in the nodes' logs and in the throttles is
the real client's, not nginx's, whatever a client writes in X-Forwarded-For."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.deploy.players import Player, http_client
from tests.deploy.stack import NODE_ADDRESSES, PROXY_ADDRESS, Deployment
from tests.sites import RedisServer, scratch_database, wait_for

pytestmark = pytest.mark.slow

# Each client its own source address, so a node's log says whose connection it holds.
ADDRESSES = {"ana": "127.0.0.9", "bea": "127.0.0.10"}
THROTTLED, NEIGHBOUR, RETURNING = "127.0.0.11", "127.0.0.12", "127.0.0.13"
ANON_RATE = 20
ACCESS_LINE = re.compile(r'INFO:\s+(\S+):\d+ - "(\S+) (\S+)')


@pytest.fixture
def database_url() -> Iterator[str]:
    """A fresh PostgreSQL database of the site's own (the site migrates it)."""
    with scratch_database("remi_deploy") as url:
        yield url


@pytest.fixture
def deployment(runtime_venv: Path, database_url: str) -> Iterator[Deployment]:
    redis = RedisServer()
    redis.start()
    try:
        stack = Deployment(
            venv=runtime_venv,
            database_url=database_url,
            redis_url=redis.url,
            extra_env={"THROTTLE_ANON": f"{ANON_RATE}/min"},
        )
        with stack.running():
            yield stack
    finally:
        redis.close()


def websocket_nodes(deployment: Deployment, address: str) -> list[int]:
    """How many websocket connections from ``address`` each node has accepted."""
    pattern = re.compile(rf'{re.escape(address)}:\d+ - "WebSocket /ws/v1/')
    return [len(pattern.findall(deployment.node_log(i))) for i in range(len(NODE_ADDRESSES))]


def node_of_latest(before: list[int], after: list[int]) -> int:
    (node,) = [i for i, (old, new) in enumerate(zip(before, after, strict=True)) if new > old]
    return node


async def connect_on(
    deployment: Deployment, player: Player, game_id: str
) -> tuple[asyncio.Task, int]:
    """Start the player's websocket follower; the node its connection landed on."""
    before = websocket_nodes(deployment, player.address)
    follower = asyncio.create_task(player.follow(game_id))
    await _until(lambda: sum(websocket_nodes(deployment, player.address)) > sum(before), 30)
    return follower, node_of_latest(before, websocket_nodes(deployment, player.address))


async def reconnected_on(deployment: Deployment, player: Player) -> int:
    """Drop the player's websocket; the node its next connection landed on."""
    before = websocket_nodes(deployment, player.address)
    await player.drop_connection()
    await _until(lambda: sum(websocket_nodes(deployment, player.address)) > sum(before), 30)
    return node_of_latest(before, websocket_nodes(deployment, player.address))


async def _until(condition, timeout: float) -> None:
    """Poll ``condition`` (without blocking the event loop) until true, or fail."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.05)


async def play_through_a_node_kill(deployment: Deployment, ana: Player, bea: Player) -> dict:
    with http_client(
        deployment.url, ana.address, deployment.ssl_context(), headers=ana.headers
    ) as api:
        challenge = api.post(
            "/api/v1/challenges", json={"to": "bea", "preset": "polish51", "rated": False}
        )
        assert challenge.status_code == 201, challenge.text
    with http_client(
        deployment.url, bea.address, deployment.ssl_context(), headers=bea.headers
    ) as api:
        accepted = api.post(f"/api/v1/challenges/{challenge.json()['id']}/accept", json={})
        assert accepted.status_code == 200, accepted.text
    game_id = accepted.json()["game"]

    ana_follower, ana_node = await connect_on(deployment, ana, game_id)
    bea_follower, bea_node = await connect_on(deployment, bea, game_id)
    for _ in range(8):  # round robin: another connection lands on the other node
        if bea_node != ana_node:
            break
        bea_node = await reconnected_on(deployment, bea)
    assert bea_node != ana_node, "both players' websockets stayed on one node"

    players = asyncio.gather(ana.play(game_id), bea.play(game_id))
    await _until(lambda: ana.last_ply >= 6 and bea.last_ply >= 6, 120)
    killed_at = ana.last_ply
    before = websocket_nodes(deployment, ana.address)
    deployment.processes[f"node{ana_node}"].kill()
    await _until(lambda: websocket_nodes(deployment, ana.address) != before, 60)
    ana_after_kill = node_of_latest(before, websocket_nodes(deployment, ana.address))

    async with asyncio.timeout(240):
        await players
        await asyncio.gather(ana_follower, bea_follower)
    return {
        "game": game_id,
        "ana_node": ana_node,
        "bea_node": bea_node,
        "ana_after_kill": ana_after_kill,
        "killed_at": killed_at,
    }


def test_behind_nginx_clients_keep_their_address_and_a_game_survives_a_node_lost(
    deployment: Deployment,
):
    # One deployment for both (a minute to set up on two cores): first the addresses,
    # while both nodes serve; then the game, which kills one.
    clients_keep_their_address(deployment)
    a_game_survives_a_node_lost(deployment)


def a_game_survives_a_node_lost(deployment: Deployment) -> None:
    context = deployment.ssl_context()
    ana = Player("ana", ADDRESSES["ana"], deployment.url, context)
    bea = Player("bea", ADDRESSES["bea"], deployment.url, context)

    run = asyncio.run(play_through_a_node_kill(deployment, ana, bea))

    # The killed node's player came back through nginx on the other node.
    assert run["ana_after_kill"] == run["bea_node"] != run["ana_node"]
    assert ana.connections >= 2 and bea.connections == 1
    with http_client(deployment.url, ana.address, context, headers=ana.headers) as api:
        game = api.get(f"/api/v1/games/{run['game']}").json()
        moves, path = [], f"/api/v1/games/{run['game']}/moves?page_size=100"
        while path:
            page = api.get(path).json()
            moves += page["results"]
            path = page["next"] and page["next"].removeprefix(deployment.url)
        # Links are built for the address the client used, over HTTPS.
        first = api.get(f"/api/v1/games/{run['game']}/moves?page_size=1").json()
        assert first["next"].startswith(f"{deployment.url}/"), first["next"]
    assert game["status"] == "finished", game["status"]
    plies = [move["ply"] for move in moves]
    # Every move once, none lost, none doubled.
    assert plies == list(range(1, game["ply"] + 1)), plies
    assert run["killed_at"] < game["ply"]
    # Every move reached both players: in a frame, or read over REST after a resync or
    # a gap in the plies (an event the killed node committed but never sent).
    for player in (ana, bea):
        learnt = {*player.seen_in_frames, *player.read_after_resync, *player.read_after_gap}
        assert sorted(learnt) == plies, player.username
    # Whatever was not in a frame was lost with the killed node, around the kill.
    for player in (ana, bea):
        missed = sorted(set(plies) - set(player.seen_in_frames))
        assert all(ply > run["killed_at"] for ply in missed), (player.username, missed)
    print(
        f"deploy: {game['ply']} moves; node {run['ana_node']} killed at ply {run['killed_at']};"
        f" ana reconnected {ana.connections - 1} time(s) on node {run['ana_after_kill']},"
        f" ana read {len(ana.read_after_resync)} move(s) after a resync and"
        f" {len(ana.read_after_gap)} after a gap, bea {len(bea.read_after_gap)} after a gap"
    )
    for player in (ana, bea):
        assert any(frame["type"] == "game_over" for frame in player.frames), player.username
        for connection in range(1, player.connections + 1):
            in_frames = [
                f["ply"]
                for f in player.frames
                if f["type"] == "move" and f["connection"] == connection
            ]
            assert len(in_frames) == len(set(in_frames)), (
                f"{player.username}: a move twice on one socket"
            )


def clients_keep_their_address(deployment: Deployment) -> None:
    context = deployment.ssl_context()
    # A redirect to HTTPS for plain HTTP.
    with http_client(f"http://{PROXY_ADDRESS}:{deployment.http_port}", THROTTLED, context) as plain:
        redirect = plain.get("/api/v1/rulesets")
    assert redirect.status_code == 301
    assert redirect.headers["location"].startswith(f"https://{PROXY_ADDRESS}/api/v1/rulesets")

    # One address's anonymous requests, over both nodes, share one throttle; another
    # address is not throttled, even writing the first one into X-Forwarded-For.
    with http_client(deployment.url, THROTTLED, context) as throttled:
        answers = [throttled.get("/api/v1/rulesets").status_code for _ in range(ANON_RATE + 1)]
        assert answers[:ANON_RATE] == [200] * ANON_RATE and answers[-1] == 429, answers
        forged = throttled.get("/api/v1/rulesets", headers={"X-Forwarded-For": NEIGHBOUR})
        assert forged.status_code == 429
    with http_client(deployment.url, NEIGHBOUR, context) as neighbour:
        spoofing = neighbour.get("/api/v1/rulesets", headers={"X-Forwarded-For": THROTTLED})
        assert spoofing.status_code == 200

    # The nodes' access logs name the clients, never nginx.
    def clients_logged() -> set[str]:
        found = set()
        for index in range(len(NODE_ADDRESSES)):
            for host, _method, path in ACCESS_LINE.findall(deployment.node_log(index)):
                if path != "/healthz":  # the probes of the nodes themselves
                    found.add(host)
        return found

    wait_for(lambda: {THROTTLED, NEIGHBOUR} <= clients_logged(), timeout=10, what="the access log")
    assert clients_logged() == {THROTTLED, NEIGHBOUR}
    assert PROXY_ADDRESS not in clients_logged()
    # Both nodes served them: the throttle's count is shared through Redis.
    for index in range(len(NODE_ADDRESSES)):
        assert THROTTLED in deployment.node_log(index)
