"""The players of ``bench/api.py`` and ``bench/soak.py``: aiohttp clients on uvloop
playing 2-player serbian matches through the public API in a closed loop (one move in
flight per game), and readers of random games' states.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from bench.kit.measure import cpu_seconds, cpu_used, sample_memory


class Client:
    """The players' HTTP client: keep-alive connections to the server (aiohttp: the
    load generator shares the machine's cores with the server, so its own cost per
    request matters; httpx spent about twice as much CPU per request)."""

    def __init__(self, session: aiohttp.ClientSession) -> None:
        self.session = session

    async def get(self, url: str, headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
        async with self.session.get(url, headers=headers) as response:
            return response.status, await response.json()

    async def post(
        self, url: str, headers: dict[str, str], json: dict[str, Any] | None = None
    ) -> tuple[int, dict[str, Any]]:
        async with self.session.post(url, json=json, headers=headers) as response:
            return response.status, await response.json()


@dataclass
class Stats:
    move_latency: list[float] = field(default_factory=list)
    # The same latencies by kind of move (``move_kind``).
    latency_by_kind: dict[str, list[float]] = field(default_factory=dict)
    get_latency: list[float] = field(default_factory=list)
    accepted: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    games_finished: int = 0
    measuring: bool = False
    cpu: dict[str, float] = field(default_factory=dict)
    workers: list[float] = field(default_factory=list)  # CPU seconds of each web worker
    # Each web worker's resident memory (MB), sampled every second while measuring.
    memory: dict[int, list[float]] = field(default_factory=dict)

    def refuse(self, code: str) -> None:
        self.refused[code] = self.refused.get(code, 0) + 1


_rulesets: dict[str, Any] = {}  # the games' rulesets, parsed once


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """A client-side policy from the player's own view (with the engine's solver, as a
    bot or a UI hint would): draw; lay an opening (or, once opened, any meld) when the
    hand holds one; discard the card worth the most penalty."""
    from games.engine import Card, Ruleset, best_opening, card_penalty, meld_value

    deal = view["deal"]
    if deal["phase"] == "draw":
        return {"type": "draw"}
    hand = [Card.parse(pair["card"]) for pair in deal["hand"]]
    key = repr(view["ruleset"])
    ruleset = _rulesets.get(key)
    if ruleset is None:
        ruleset = _rulesets[key] = Ruleset.from_dict(view["ruleset"])
    actions = deal["actions"]
    if deal["must_return"]:
        return {"type": "discard", "card": deal["must_return"]}
    if "lay" in actions:
        melds = best_opening(hand, ruleset, keep=1)
        value = sum(meld_value(meld, ruleset) for meld in melds)
        opened = deal["opened"][deal["seat"]]
        if melds and (opened or value >= ruleset.opening_minimum):
            return {"type": "lay", "melds": [[str(c) for c in meld.cards] for meld in melds]}
    worst = max(hand, key=lambda card: (not card.is_joker, card_penalty(card, ruleset)))
    return {"type": "discard", "card": str(worst)}


async def timed_get(
    client: Client, url: str, headers: dict[str, str], stats: Stats
) -> dict[str, Any]:
    began = time.perf_counter()
    _status, body = await client.get(url, headers)
    if stats.measuring:
        stats.get_latency.append(time.perf_counter() - began)
    return body


async def play_pair(
    client: Client,
    host: str,
    guest: str,
    stats: Stats,
    stop: asyncio.Event,
    playing: dict[str, dict[str, str]],
) -> None:
    """Two players playing serbian matches one after another. A player who is told it
    is their turn (a websocket event would say so, with the ply) and has to draw just
    draws: the answer holds their whole view, which decides the rest of the turn. Only
    a player who must act without a fresh view of their own (the starter of a deal)
    reads the state first."""
    headers = [{"Authorization": f"Bearer {token}"} for token in (host, guest)]
    while not stop.is_set():
        _status, created = await client.post(
            "/api/v1/games", headers[0], {"preset": "serbian", "players": 2}
        )
        game_id = created["id"]
        url = f"/api/v1/games/{game_id}"
        await client.post(f"{url}/join", headers[1], {})
        _status, view = await client.post(f"{url}/start", headers[0])
        views: list[dict[str, Any] | None] = [None, None]
        views[view["you"]] = view
        playing[game_id] = headers[1]
        while not stop.is_set() and view["status"] == "active":
            mover = view["to_move"]
            current = views[mover]
            if current is not None and current["ply"] == view["ply"]:
                action = choose(current)
            elif view["deal"]["phase"] == "draw":
                action, current = {"type": "draw"}, view
            else:
                current = await timed_get(client, url, headers[mover], stats)
                action = choose(current)
            began = time.perf_counter()
            status, body = await client.post(
                f"{url}/actions",
                {**headers[mover], "Idempotency-Key": secrets.token_hex(8)},
                {"action": action, "ply": current["ply"]},
            )
            elapsed = time.perf_counter() - began
            if status != 200:
                stats.refuse(body["error"]["code"])
                views[mover] = None
                continue
            if stats.measuring:
                stats.accepted += 1
                stats.move_latency.append(elapsed)
                kind = move_kind(action, current, body["game"])
                stats.latency_by_kind.setdefault(kind, []).append(elapsed)
            view = views[mover] = body["game"]
        playing.pop(game_id, None)
        if view["status"] == "finished":
            stats.games_finished += 1


def move_kind(action: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> str:
    """The kind of an accepted move, for its latency: the action's type, or what the
    server did more than the action (ended the deal, and dealt the next one or ended
    the match)."""
    if after["status"] != "active":
        return "ends the match"
    if after["deal_number"] != before["deal_number"]:
        return "ends a deal"
    return str(action["type"])


async def poll_states(
    client: Client,
    per_second: float,
    stats: Stats,
    stop: asyncio.Event,
    playing: dict[str, dict[str, str]],
) -> None:
    """Players (and spectators) reading game states: ``per_second`` GETs of random games."""
    rng = random.Random(1)
    while not stop.is_set():
        await asyncio.sleep(rng.expovariate(per_second))
        if playing:
            game_id = rng.choice(list(playing))
            await timed_get(client, f"/api/v1/games/{game_id}", playing[game_id], stats)


async def load(
    url: str,
    tokens: list[str],
    seconds: float,
    warmup: float,
    server_pid: int,
    gets_per_second: float,
    db_name: str,
) -> Stats:
    stats = Stats()
    stop = asyncio.Event()
    connector = aiohttp.TCPConnector(limit=len(tokens))
    timeout = aiohttp.ClientTimeout(total=30)
    async with aiohttp.ClientSession(url, connector=connector, timeout=timeout) as session:
        client = Client(session)
        playing: dict[str, dict[str, str]] = {}
        tasks = [
            asyncio.create_task(play_pair(client, tokens[i], tokens[i + 1], stats, stop, playing))
            for i in range(0, len(tokens), 2)
        ]
        tasks += [
            asyncio.create_task(poll_states(client, gets_per_second / 4, stats, stop, playing))
            for _ in range(4)
        ]
        await asyncio.sleep(warmup)
        stats.measuring = True
        cpu_before = cpu_seconds(server_pid, db_name)
        began = time.perf_counter()
        sampler = asyncio.create_task(sample_memory(server_pid, stats.memory))
        await asyncio.sleep(seconds)
        sampler.cancel()
        await asyncio.gather(sampler, return_exceptions=True)
        stats.measuring = False
        measured = time.perf_counter() - began
        cpu_after = cpu_seconds(server_pid, db_name)
        stats.cpu = cpu_used(cpu_before, cpu_after)
        stats.workers = sorted(
            used - cpu_before["uvicorn"].get(pid, 0.0)
            for pid, used in cpu_after["uvicorn"].items()
            if pid != server_pid and used - cpu_before["uvicorn"].get(pid, 0.0) > 0.01 * seconds
        )
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    stats.move_latency.sort()
    for latencies in stats.latency_by_kind.values():
        latencies.sort()
    stats.get_latency.sort()
    stats.refused = dict(stats.refused)
    setattr(stats, "seconds", measured)  # noqa: B010
    return stats
