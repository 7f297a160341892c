"""The websocket's event contract, docs/asyncapi.yaml: served at /api/asyncapi.yaml and
linked from the API docs, whole (every reference resolves, every payload is a JSON
Schema), with the consumer's close codes; and every frame of a session that meets each
kind of frame follows it. (Every other websocket test of the suite is checked against
it too: tests/conftest.py, ``websocket_frames_follow_the_contract``.)"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from jsonschema import Draft7Validator
from rest_framework.test import APIClient

from games.challenges import services as challenges
from games.engine import Discard, DrawStock
from games.live import consumers
from games.models import Deal, Game
from games.play.act import game_act
from games.play.create import game_create
from games.play.lobby import game_abort, game_join, game_leave, game_start
from games.play.resign import game_resign
from tests.asyncapi_contract import DOCUMENT, contract
from tests.live.ws_kit import websocket

ROOT = Path(__file__).resolve().parents[2]


def refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            yield node["$ref"]
        for value in node.values():
            yield from refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from refs(value)


# ------------------------------------------------------------------ the document


@pytest.mark.django_db
def test_the_document_is_served_and_linked_from_the_api_docs(api_client: APIClient) -> None:
    response = api_client.get("/api/asyncapi.yaml")
    docs = api_client.get("/api/docs/").content.decode()
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/yaml")
    assert response.content == DOCUMENT.read_bytes()
    assert yaml.safe_load(response.content)["asyncapi"] == "3.0.0"
    assert 'href="/api/asyncapi.yaml"' in docs
    assert "/api/asyncapi.yaml" in schema.json()["info"]["description"]


def test_the_document_holds_together() -> None:
    document = contract().document
    channel = document["channels"]["live"]

    assert document["asyncapi"] == "3.0.0" and channel["address"] == "/ws/v1/"
    for ref in refs(document):
        contract().pointer(ref)  # every reference resolves
    channel_messages = {f"#/channels/live/messages/{name}" for name in channel["messages"]}
    actions = set()
    for operation in document["operations"].values():
        actions.add(operation["action"])
        assert operation["channel"] == {"$ref": "#/channels/live"}
        for message in operation["messages"]:
            # AsyncAPI 3: an operation's messages are messages of its channel.
            assert message["$ref"] in channel_messages, message
    assert actions == {"send", "receive"}
    listed = [ref["$ref"] for op in document["operations"].values() for ref in op["messages"]]
    assert sorted(listed) == sorted(channel_messages)  # each message in one operation
    for message in document["components"]["messages"].values():
        assert message["name"] and "payload" in message
    Draft7Validator.check_schema({"definitions": document["components"]["schemas"]})


def test_its_close_codes_are_the_consumers_and_docs_websocket_md_lists_them() -> None:
    documented = {int(code) for code in contract().document["channels"]["live"]["x-close-codes"]}
    prose = (ROOT / "docs" / "websocket.md").read_text()
    used = {
        value
        for name, value in vars(consumers).items()
        if name.startswith("CLOSE_") and isinstance(value, int)
    }

    assert used <= documented
    for code in documented:
        assert f"`{code}`" in prose, code
    assert {4401, 4403} <= used


def test_every_frame_the_server_sends_has_a_closed_schema() -> None:
    payloads = contract().server_payloads()
    open_ = [key for key, schema in payloads.items() if not contract().is_closed(schema)]

    assert not open_, f"message schemas that allow any extra property: {open_}"
    assert len(payloads) == 38  # every message of the send operation


def test_a_turn_counts_the_time_bank_in_tenths_and_refuses_what_it_does_not_name() -> None:
    turn = {
        "type": "turn",
        "game": "abc",
        "ply": 3,
        "seat": 1,
        "phase": "draw",
        "deadline_at": None,
        "turn_ends_at": None,
        "time_bank_remaining_s": 26.8,
    }

    contract().check_server_frame(turn)  # a number, not an integer
    for extra in ({"hand": []}, {"time_bank_remaining_s": -1}, {"game_id": "abc"}):
        with pytest.raises(AssertionError, match="does not match"):
            contract().check_server_frame({**turn, **extra})


def test_the_contract_refuses_what_it_does_not_describe() -> None:
    cases: list[tuple[Callable[[Any], None], Any, str]] = [
        (contract().check_server_frame, {"type": "surprise"}, "does not list"),
        (contract().check_server_frame, {"type": "turn", "game": "abc", "ply": 3}, "seat"),
        (
            contract().check_server_frame,
            {"type": "your_turn", "stream": "events", "game": "abc", "ply": 1, "seat": 0},
            "deadline_at",
        ),
        (contract().check_client_frame, {"type": "subscribe", "game": "g", "extra": 1}, "any"),
        (contract().check_client_frame, {"type": "subscribe", "stream": "chat"}, "any"),
        (contract().check_client_frame, ["ping"], "not a JSON object"),
    ]
    for check, frame, reason in cases:
        with pytest.raises(AssertionError, match=reason):
            check(frame)


@pytest.mark.django_db(transaction=True)
async def test_a_test_communicator_checks_what_it_sends(
    user: Any, token_factory: Callable[..., Any]
) -> None:
    _, raw = await database_sync_to_async(token_factory)(user)
    client = websocket(raw)
    await client.connect()
    assert (await client.receive_json_from())["type"] == "hello"  # checked on the way in

    with pytest.raises(AssertionError, match="does not match"):
        await client.send_json_to({"type": "ping", "now": True})
    await client.disconnect()


# ------------------------------------------------------------------ a session


async def received(client: WebsocketCommunicator, quiet: float = 0.3) -> list[dict[str, Any]]:
    """Every frame until none arrives for ``quiet`` seconds (each checked on the way in)."""
    out = []
    while not await client.receive_nothing(timeout=quiet):
        out.append(await client.receive_json_from())
    return out


def a_turn(game: Game) -> None:
    """The player to move draws (unless the first turn starts with a discard) and
    discards their highest card."""
    game.refresh_from_db()
    deal = Deal.objects.get(game=game, number=game.deal_number).restore(game.engine_ruleset())
    user = game.seats.get(position=deal.to_move).user
    if not deal.drawn:
        game_act(game=game, user=user, action=DrawStock(), expected_ply=game.ply)
        game.refresh_from_db()
        deal = Deal.objects.get(game=game, number=game.deal_number).restore(game.engine_ruleset())
    card = max(deal.hand(deal.to_move), key=lambda c: (not c.is_joker, c.rank))
    game_act(game=game, user=user, action=Discard(card), expected_ply=game.ply)


@pytest.mark.django_db(transaction=True)
async def test_a_session_that_meets_every_kind_of_frame_follows_the_contract(
    user_factory: Callable[..., Any], token_factory: Callable[..., Any], deals_seeded: Any
) -> None:
    alice = await database_sync_to_async(user_factory)(username="alice")
    bob = await database_sync_to_async(user_factory)(username="bob")
    _, token = await database_sync_to_async(token_factory)(alice)
    game = await database_sync_to_async(game_create)(owner=alice, preset="serbian", players=2)
    lobby = await database_sync_to_async(game_create)(owner=alice, preset="serbian", players=2)
    client = websocket(token)
    await client.connect()
    frames = await received(client)

    await client.send_json_to({"type": "ping"})
    await client.send_json_to({"type": "subscribe", "game": game.public_id, "ply": 5})
    await client.send_json_to({"type": "subscribe", "game": lobby.public_id, "ply": None})
    await client.send_json_to({"type": "subscribe", "stream": "events"})
    await client.send_input({"type": "websocket.receive", "text": "not json"})
    await client.send_json_to({"type": "subscribe", "game": "nosuchgame1", "ply": None})
    frames += await received(client)
    await database_sync_to_async(game_join)(game=game, user=bob)
    await database_sync_to_async(game_leave)(game=game, user=bob)
    await database_sync_to_async(game_join)(game=game, user=bob)
    await database_sync_to_async(game_start)(game=game, user=alice)
    for _ in range(3):
        await database_sync_to_async(a_turn)(game)
    await database_sync_to_async(game_abort)(game=lobby, user=alice)
    frames += await received(client)
    for answer in ("decline", "cancel", "accept"):
        challenger, challenged = (alice, bob) if answer == "cancel" else (bob, alice)
        made = await database_sync_to_async(challenges.challenge_create)(
            challenger=challenger, destination=challenged, preset="serbian"
        )
        if answer == "decline":
            await database_sync_to_async(challenges.challenge_decline)(
                public_id=made.public_id, user=alice, reason="rated"
            )
        elif answer == "cancel":
            await database_sync_to_async(challenges.challenge_cancel)(
                public_id=made.public_id, user=alice
            )
        else:
            await database_sync_to_async(challenges.challenge_accept)(
                public_id=made.public_id, user=alice
            )
    await database_sync_to_async(game_resign)(game=game, user=alice)
    frames += await received(client)
    await client.send_json_to({"type": "unsubscribe", "game": game.public_id})
    await client.send_json_to({"type": "unsubscribe", "stream": "events"})
    frames += await received(client)
    await client.disconnect()

    for frame in frames:  # checked once more, here, where the test can say so
        contract().check_server_frame(frame)
    seen = {frame["type"] for frame in frames}
    expected = {
        "hello", "pong", "subscribed", "unsubscribed", "resync", "error", "player_joined",
        "player_left", "game_aborted", "game_started", "move", "turn", "private",
        "game_over", "challenge", "challenge_declined", "challenge_cancelled",
        "challenge_accepted", "game_start", "your_turn", "game_finish",
    }  # fmt: skip
    assert expected <= seen, expected - seen
    assert {frame["code"] for frame in frames if frame["type"] == "error"} == {
        "bad_message",
        "not_found",
    }
    streams = [frame for frame in frames if frame.get("stream") == "events"]
    assert all(re.fullmatch(r"[a-z_]+", frame["type"]) for frame in streams)
