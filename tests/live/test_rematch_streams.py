"""A rematch at a table of four on the account event streams: the offer (`challenge`),
each acceptance but the last (`challenge_answered`) and the start (`challenge_accepted`)
reach the offerer and every invitee, on the websocket and on the NDJSON stream, and
every frame matches docs/asyncapi.yaml."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from channels.db import database_sync_to_async
from rest_framework.test import APIClient

from tests.api.rematch_kit import table_finished
from tests.asyncapi_contract import contract
from tests.live.ws_kit import connect, drain

pytestmark = pytest.mark.django_db(transaction=True)

CHALLENGE_FRAMES = {"challenge", "challenge_answered", "challenge_accepted"}


def four_at_a_table(
    user_factory: Callable[..., Any], client_for: Callable[[Any], APIClient], bots: list[Any]
) -> tuple[dict[str, APIClient], str]:
    """mila, ivo and the bot account robo, with a built-in bot, after their game."""
    people = {name: client_for(user_factory(username=name)) for name in ("mila", "ivo", "robo")}
    assert people["robo"].post("/api/v1/me/bot").status_code == 200
    game_id = table_finished(
        people["mila"], [people["ivo"], people["robo"]], bots=[bots[0].username]
    )
    return people, game_id


async def frames_until_accepted(client: Any) -> list[dict[str, Any]]:
    """The challenge frames up to the one that says the game started."""
    seen: list[dict[str, Any]] = []
    while not seen or seen[-1]["type"] != "challenge_accepted":
        frame = await client.receive_json_from(timeout=10)
        if frame["type"] in CHALLENGE_FRAMES:
            seen.append(frame)
    return seen


async def test_everyone_at_the_table_hears_each_answer_on_the_websocket(
    user_factory: Any, client_for: Any, bots: list[Any], deals_seeded: Any
) -> None:
    people, game_id = await database_sync_to_async(four_at_a_table)(user_factory, client_for, bots)
    sockets = {}
    for name, api in people.items():
        sockets[name] = await connect(api.token)  # type: ignore[attr-defined]
        await sockets[name].send_json_to({"type": "subscribe", "stream": "events"})
        await drain(sockets[name])  # the subscription's answer and the state

    offer = await database_sync_to_async(people["mila"].post)(f"/api/v1/games/{game_id}/rematch")
    challenge_id = offer.json()["id"]
    for name in ("ivo", "robo"):
        answered = await database_sync_to_async(people[name].post)(
            f"/api/v1/challenges/{challenge_id}/accept"
        )
        assert answered.status_code == 200, answered.json()

    for name, socket in sockets.items():
        frames = await frames_until_accepted(socket)
        assert [f["type"] for f in frames] == [
            "challenge",
            "challenge_answered",
            "challenge_accepted",
        ], name
        assert {f["direction"] for f in frames} == {"out" if name == "mila" else "in"}
        assert [f["challenge"]["invitees"][0]["answer"] for f in frames] == [
            "pending",
            "accepted",
            "accepted",
        ]
        assert frames[-1]["challenge"]["game"] is not None
        for frame in frames:
            contract().check_server_frame(frame)
        await socket.disconnect()


def next_challenge_frame(lines: Any) -> dict[str, Any]:
    for text in lines:
        frame = json.loads(text) if text.strip() else None
        if frame is not None and frame["type"] in CHALLENGE_FRAMES:
            return dict(frame)
    raise AssertionError("the stream ended before a challenge frame")


def test_a_bot_account_follows_the_rematch_on_its_ndjson_stream(
    asgi_server: str, user_factory: Any, client_for: Any, bots: list[Any], deals_seeded: Any
) -> None:
    people, game_id = four_at_a_table(user_factory, client_for, bots)
    token = people["robo"].token  # type: ignore[attr-defined]
    robo = httpx.Client(headers={"Authorization": f"Bearer {token}"}, timeout=20)
    offer = people["mila"].post(f"/api/v1/games/{game_id}/rematch").json()

    with robo, robo.stream("GET", f"{asgi_server}/api/v1/stream/events") as response:
        assert response.status_code == 200
        lines = response.iter_lines()
        # The offer waiting for it is in the stream's state ...
        seen = [next_challenge_frame(lines)]
        # ... and the answers come as they are given: the person's, then its own.
        people["ivo"].post(f"/api/v1/challenges/{offer['id']}/accept")
        seen.append(next_challenge_frame(lines))
        accepted = robo.post(f"{asgi_server}/api/v1/challenges/{offer['id']}/accept")
        assert accepted.status_code == 200, accepted.text
        seen.append(next_challenge_frame(lines))

    assert [f["type"] for f in seen] == ["challenge", "challenge_answered", "challenge_accepted"]
    assert all(f["direction"] == "in" and f["challenge"]["id"] == offer["id"] for f in seen)
    assert seen[-1]["challenge"]["game"] == accepted.json()["game"]
    for frame in seen:
        contract().check_server_frame(frame)
