"""A user's event stream on /ws/v1/ (``{"type": "subscribe", "stream": "events"}``):
the state first (pending challenges, games under way, turns waiting), then challenges
made, accepted, declined and cancelled, games starting, turns coming and games ending;
and the close codes of a refused connection."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts import services as accounts
from games.challenges import services as challenges
from games.engine import Discard, DrawStock
from games.models import Deal, Game
from games.play.act import game_act
from games.play.create import game_create
from games.play.lobby import game_abort, game_join, game_start
from games.play.resign import game_resign
from remi_site.asgi import application
from tests.live.ws_kit import connect, drain, receive_until, websocket

pytestmark = pytest.mark.django_db(transaction=True)

STREAM = {"type": "subscribe", "stream": "events"}


async def streaming(
    token: str, opening: int = 0
) -> tuple[WebsocketCommunicator, list[dict[str, Any]]]:
    """A connection subscribed to its event stream, and the frames that came first:
    the ``opening`` frames the state sends (waited for: a loaded machine sends them
    later than a quiet spell), and any others."""
    client = await connect(token)
    await client.send_json_to(STREAM)
    assert await client.receive_json_from() == {"type": "subscribed", "stream": "events"}
    return client, await drain(client, expect=opening)


def stream_frames(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [frame for frame in frames if frame.get("stream") == "events"]


def kinds(frames: list[dict[str, Any]]) -> list[str]:
    return [frame["type"] for frame in stream_frames(frames)]


@pytest.fixture
def person(
    user_factory: Callable[..., Any], token_factory: Callable[..., Any]
) -> Callable[[str], tuple[Any, str]]:
    """``person(name)``: a new user and an API token of theirs."""

    def make(name: str) -> tuple[Any, str]:
        user = user_factory(username=name)
        _token, raw = token_factory(user)
        return user, raw

    return make


def mover_of(game: Game) -> int:
    game.refresh_from_db()
    row = Deal.objects.get(game=game, number=game.deal_number)
    return row.restore(game.engine_ruleset()).to_move


def play_a_turn(game: Game) -> int:
    """The player to move draws (unless the first turn starts with a discard) and
    discards their highest card: the turn passes. Returns the new ply."""
    game.refresh_from_db()
    deal = Deal.objects.get(game=game, number=game.deal_number).restore(game.engine_ruleset())
    user = game.seats.get(position=deal.to_move).user
    if not deal.drawn:
        game_act(game=game, user=user, action=DrawStock(), expected_ply=game.ply)
        game.refresh_from_db()
        deal = Deal.objects.get(game=game, number=game.deal_number).restore(game.engine_ruleset())
    card = max(deal.hand(deal.to_move), key=lambda c: (not c.is_joker, c.rank))
    game_act(game=game, user=user, action=Discard(card), expected_ply=game.ply)
    game.refresh_from_db()
    return game.ply


# ------------------------------------------------------------------ the state first


async def test_the_stream_starts_with_pending_challenges_games_and_turns(
    person: Callable[[str], tuple[Any, str]], deals_seeded: Any
) -> None:
    alice, token = await database_sync_to_async(person)("alice")
    bob, _ = await database_sync_to_async(person)("bob")
    carol, _ = await database_sync_to_async(person)("carol")
    to_alice = await database_sync_to_async(challenges.challenge_create)(
        challenger=carol, destination=alice, preset="serbian"
    )
    from_alice = await database_sync_to_async(challenges.challenge_create)(
        challenger=alice, destination=None, preset="macedonian", rated=True
    )
    game = await database_sync_to_async(game_create)(owner=alice, preset="serbian", players=2)
    await database_sync_to_async(game_join)(game=game, user=bob)
    game = await database_sync_to_async(game_start)(game=game, user=alice)
    alice_to_move = await database_sync_to_async(mover_of)(game) == 0

    client = await connect(token)
    await client.send_json_to(STREAM)
    assert await client.receive_json_from() == {"type": "subscribed", "stream": "events"}
    first = await receive_until(
        client,
        lambda frames: (
            any(frame["type"] == "game_start" for frame in frames)
            and (not alice_to_move or any(frame["type"] == "your_turn" for frame in frames))
        ),
    )

    assert [(f["type"], f["direction"], f["challenge"]["id"]) for f in first[:2]] == [
        ("challenge", "in", to_alice.public_id),
        ("challenge", "out", from_alice.public_id),
    ]
    assert first[2] == {
        "type": "game_start",
        "stream": "events",
        "game": game.public_id,
        "ply": game.ply,
        "seat": 0,
    }
    turns = [f for f in first if f["type"] == "your_turn"]
    assert [(f["game"], f["seat"]) for f in turns] == (
        [(game.public_id, 0)] if alice_to_move else []
    )
    await client.disconnect()


# ------------------------------------------------------------------ challenges live


async def test_a_challenge_and_its_acceptance_reach_both_streams_then_the_game_starts(
    person: Callable[[str], tuple[Any, str]], deals_seeded: Any
) -> None:
    alice, alice_token = await database_sync_to_async(person)("alice")
    bob, bob_token = await database_sync_to_async(person)("bob")
    alice_ws, _ = await streaming(alice_token)
    bob_ws, _ = await streaming(bob_token)

    made = await database_sync_to_async(challenges.challenge_create)(
        challenger=alice, destination=bob, preset="serbian"
    )
    to_bob, to_alice = await drain(bob_ws, expect=1), await drain(alice_ws, expect=1)

    assert [(f["type"], f["direction"]) for f in stream_frames(to_bob)] == [("challenge", "in")]
    assert [(f["type"], f["direction"]) for f in stream_frames(to_alice)] == [("challenge", "out")]
    assert to_bob[0]["challenge"]["id"] == made.public_id
    assert to_bob[0]["challenge"]["challenger"]["username"] == "alice"

    await database_sync_to_async(challenges.challenge_accept)(public_id=made.public_id, user=bob)
    to_bob, to_alice = await drain(bob_ws, expect=1), await drain(alice_ws, expect=1)

    game_id = await database_sync_to_async(
        lambda: Game.objects.get(challenge__public_id=made.public_id).public_id
    )()
    for frames, seat in ((to_alice, 0), (to_bob, 1)):
        stream = stream_frames(frames)
        assert stream[0]["type"] == "challenge_accepted"
        assert stream[0]["challenge"]["game"] == game_id
        assert stream[1] == {
            "type": "game_start",
            "stream": "events",
            "game": game_id,
            "ply": 0,
            "seat": seat,
        }
    mover = await database_sync_to_async(lambda: mover_of(Game.objects.get(public_id=game_id)))()
    turns = [f for f in stream_frames(to_alice + to_bob) if f["type"] == "your_turn"]
    assert [(f["game"], f["seat"], f["ply"]) for f in turns] == [(game_id, mover, 0)]
    for client in (alice_ws, bob_ws):
        await client.disconnect()


async def test_declined_and_cancelled_challenges_are_told_to_both(
    person: Callable[[str], tuple[Any, str]],
) -> None:
    alice, alice_token = await database_sync_to_async(person)("alice")
    bob, bob_token = await database_sync_to_async(person)("bob")
    declined = await database_sync_to_async(challenges.challenge_create)(
        challenger=alice, destination=bob, preset="serbian"
    )
    cancelled = await database_sync_to_async(challenges.challenge_create)(
        challenger=alice, destination=bob, preset="polish51"
    )
    alice_ws, _ = await streaming(alice_token)
    bob_ws, _ = await streaming(bob_token)

    await database_sync_to_async(challenges.challenge_decline)(
        public_id=declined.public_id, user=bob, reason="later"
    )
    await database_sync_to_async(challenges.challenge_cancel)(
        public_id=cancelled.public_id, user=alice
    )

    for client, direction in ((alice_ws, "out"), (bob_ws, "in")):
        frames = stream_frames(await drain(client, expect=2))
        assert [(f["type"], f["direction"], f["challenge"]["id"]) for f in frames] == [
            ("challenge_declined", direction, declined.public_id),
            ("challenge_cancelled", direction, cancelled.public_id),
        ]
        assert frames[0]["challenge"]["decline_reason"] == "later"
        await client.disconnect()


# ------------------------------------------------------------------ games live


async def test_each_new_turn_goes_to_its_mover_and_the_end_to_everyone(
    person: Callable[[str], tuple[Any, str]], deals_seeded: Any
) -> None:
    alice, alice_token = await database_sync_to_async(person)("alice")
    bob, bob_token = await database_sync_to_async(person)("bob")
    game = await database_sync_to_async(game_create)(owner=alice, preset="serbian", players=2)
    await database_sync_to_async(game_join)(game=game, user=bob)
    game = await database_sync_to_async(game_start)(game=game, user=alice)
    first = await database_sync_to_async(mover_of)(game)
    # Each opens with its game's start, and the mover with their turn.
    clients = {
        seat: (await streaming(token, opening=1 + (seat == first)))[0]
        for seat, token in ((0, alice_token), (1, bob_token))
    }

    for _ in range(3):
        ply = await database_sync_to_async(play_a_turn)(game)
        mover = await database_sync_to_async(mover_of)(game)
        got = {
            seat: stream_frames(await drain(client, expect=int(seat == mover)))
            for seat, client in clients.items()
        }
        assert [(f["type"], f["ply"], f["seat"]) for f in got[mover]] == [("your_turn", ply, mover)]
        assert got[1 - mover] == []  # the other player is told nothing on the stream

    await database_sync_to_async(game_resign)(game=game, user=bob)

    for seat, client in clients.items():
        frames = stream_frames(await drain(client, expect=1))
        assert [(f["type"], f["status"], f["winners"], f["seat"]) for f in frames] == [
            ("game_finish", "finished", [0], seat)
        ]
        await client.disconnect()


async def test_an_aborted_lobby_ends_for_those_who_had_joined(
    person: Callable[[str], tuple[Any, str]],
) -> None:
    alice, _ = await database_sync_to_async(person)("alice")
    bob, bob_token = await database_sync_to_async(person)("bob")
    game = await database_sync_to_async(game_create)(owner=alice, preset="serbian", players=3)
    await database_sync_to_async(game_join)(game=game, user=bob)
    bob_ws, _ = await streaming(bob_token)

    await database_sync_to_async(game_abort)(game=game, user=alice)

    frames = stream_frames(await drain(bob_ws, expect=1))
    assert [(f["type"], f["game"], f["status"], f["seat"]) for f in frames] == [
        ("game_finish", game.public_id, "aborted", 1)
    ]
    await bob_ws.disconnect()


# ------------------------------------------------------------------ who gets the stream


async def test_only_connections_subscribed_to_the_stream_get_it_until_they_unsubscribe(
    person: Callable[[str], tuple[Any, str]],
) -> None:
    alice, _ = await database_sync_to_async(person)("alice")
    bob, bob_token = await database_sync_to_async(person)("bob")
    subscribed, _ = await streaming(bob_token)
    plain = await connect(bob_token)

    await database_sync_to_async(challenges.challenge_create)(
        challenger=alice, destination=bob, preset="serbian"
    )

    assert kinds(await drain(subscribed, expect=1)) == ["challenge"]
    assert await drain(plain) == []
    await subscribed.send_json_to({"type": "unsubscribe", "stream": "events"})
    assert await subscribed.receive_json_from() == {"type": "unsubscribed", "stream": "events"}
    await database_sync_to_async(challenges.challenge_create)(
        challenger=alice, destination=bob, preset="polish51"
    )
    assert await drain(subscribed) == []
    for client in (subscribed, plain):
        await client.disconnect()


async def test_there_is_one_stream_and_its_name_is_events(
    person: Callable[[str], tuple[Any, str]],
) -> None:
    _alice, token = await database_sync_to_async(person)("alice")
    client = await connect(token)

    await client.send_json_to({"type": "subscribe", "game": "nope"})
    assert (await client.receive_json_from())["code"] == "not_found"
    await client.send_input(
        {"type": "websocket.receive", "text": '{"type": "subscribe", "stream": "chat"}'}
    )
    reply = await client.receive_json_from()
    assert reply["type"] == "error" and reply["code"] == "bad_message"
    await client.disconnect()


# ------------------------------------------------------------------ close codes


async def test_a_connection_without_valid_credentials_is_closed_with_4401(db: None) -> None:
    for token in (None, "remi_not-a-token"):
        client = websocket(token)
        connected, _ = await client.connect()
        assert connected
        assert await client.receive_output(timeout=2) == {"type": "websocket.close", "code": 4401}


async def test_a_bot_account_on_a_browser_session_is_closed_with_4403(
    person: Callable[[str], tuple[Any, str]],
) -> None:
    robo, token = await database_sync_to_async(person)("robo")
    browser = Client()
    await database_sync_to_async(browser.force_login)(robo)  # before it became a bot
    await database_sync_to_async(accounts.account_upgrade_to_bot)(user=robo)
    cookie = f"sessionid={browser.cookies['sessionid'].value}"
    headers = [
        (b"origin", b"http://localhost"),
        (b"host", b"localhost"),
        (b"cookie", cookie.encode()),
    ]

    on_session = WebsocketCommunicator(application, "/ws/v1/", headers=headers)
    connected, _ = await on_session.connect()
    assert connected
    assert await on_session.receive_output(timeout=2) == {"type": "websocket.close", "code": 4403}
    await on_session.disconnect()

    with_token = await connect(token)  # its API token is how a bot connects
    await with_token.send_json_to(STREAM)
    assert (await with_token.receive_json_from())["stream"] == "events"
    await with_token.disconnect()
