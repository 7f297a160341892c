"""What a bot author relies on over /ws/v1/, through the websocket and the REST API only:
the seat to move gets ``legal`` pushed in its ``private`` frame (the same object as the
REST game view's ``deal.legal``) and can play from the frames alone; a ``private``
frame comes only when that seat's hand or legal moves changed (never after an
opponent's stock draw); subscribing with ``ply: null`` to a game under way answers a
``resync``; a challenge to a built-in bot shows on the challenger's stream as made,
then accepted; the end of a game carries the final totals in ``game_over`` and in the
stream's ``game_finish``."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.models import Seat
from games.read.selectors import current_deal
from tests.live.ws_kit import websocket

pytestmark = pytest.mark.django_db(transaction=True)

TURNS = 4
MAX_TURNS = 20


class Client:
    """A bot author's client: the API with a token, and one websocket connection that
    keeps every frame it received."""

    def __init__(self, api: Any) -> None:
        self.api = api
        self.ws: WebsocketCommunicator = websocket(api.token)
        self.frames: list[dict[str, Any]] = []

    async def connect(self) -> None:
        connected, _ = await self.ws.connect()
        assert connected
        assert (await self.ws.receive_json_from())["type"] == "hello"

    async def send(self, frame: dict[str, Any]) -> None:
        await self.ws.send_json_to(frame)

    async def until(
        self, wanted: Callable[[dict[str, Any]], bool], timeout: float = 20.0
    ) -> dict[str, Any]:
        """The next frame ``wanted`` accepts (every frame before it is kept too)."""
        end = time.monotonic() + timeout
        while True:
            # (A timed-out receive would cancel the application: ask first.)
            while await self.ws.receive_nothing(timeout=0.05):
                assert time.monotonic() < end, f"no such frame; last: {self.frames[-4:]}"
            frame: dict[str, Any] = await self.ws.receive_json_from()
            self.frames.append(frame)
            if wanted(frame):
                return frame

    async def quiet(self, seconds: float = 0.3) -> list[dict[str, Any]]:
        """Every frame until none arrives for ``seconds``."""
        out = []
        while not await self.ws.receive_nothing(timeout=seconds):
            out.append(await self.ws.receive_json_from())
        self.frames.extend(out)
        return out

    async def get(self, path: str) -> Any:
        response = await database_sync_to_async(self.api.get)(path)
        assert response.status_code == 200, response.json()
        return response.json()

    async def post(self, path: str, body: dict[str, Any]) -> Any:
        return await database_sync_to_async(self.api.post)(path, body, format="json")


@pytest.fixture
def author(
    user_factory: Callable[..., Any], client_for: Callable[[Any], Any], bots: list[Any]
) -> Callable[[str], Any]:
    """``author(name)``: a new account's API client (the built-in bots exist)."""

    def make(name: str) -> Any:
        return client_for(user_factory(username=name))

    return make


async def play_now(client: Client) -> dict[str, Any]:
    created = await client.post(
        "/api/v1/games/play-now", {"preset": "serbian", "bots": 1, "level": 1}
    )
    assert created.status_code == 201, created.json()
    game: dict[str, Any] = created.json()
    return game


def opponent_draws(frames: list[dict[str, Any]], me: int) -> list[dict[str, Any]]:
    """The stock draws of the others among ``frames``."""
    return [
        frame
        for frame in frames
        if frame["type"] == "move"
        and frame["move"]["type"] == "draw"
        and frame["move"]["seat"] != me
    ]


def my_private(me: int) -> Callable[[dict[str, Any]], bool]:
    return lambda frame: frame["type"] == "private" and frame["view"]["seat"] == me


def my_turn(me: int) -> Callable[[dict[str, Any]], bool]:
    return lambda frame: my_private(me)(frame) and frame["view"]["legal"] is not None


# ------------------------------------------------------------------ legal moves pushed


async def test_the_seat_to_move_plays_from_the_legal_moves_its_private_frames_push(
    author: Callable[[str], Any], deals_seeded: Callable[[int], None]
) -> None:
    client = Client(await database_sync_to_async(author)("ada"))
    start = await play_now(client)
    game, me = start["id"], start["you"]
    await client.connect()
    await client.send({"type": "subscribe", "game": game, "ply": start["ply"]})
    await client.until(lambda frame: frame["type"] == "subscribed")
    # The turn under way when we came: the game view says what the frames say after it.
    legal, ply = start["deal"]["legal"], start["ply"]
    compared = 0
    for _turn in range(TURNS):
        if legal is None:
            frame = await client.until(my_turn(me))
            legal, ply = frame["view"]["legal"], frame["ply"]
            state = await client.get(f"/api/v1/games/{game}")
            assert state["ply"] == ply and state["deal"]["legal"] == legal
            compared += 1
        if legal["draw"]:
            drawn = await client.post(
                f"/api/v1/games/{game}/actions", {"action": {"type": "draw"}, "ply": ply}
            )
            assert drawn.status_code == 200, drawn.json()
            frame = await client.until(my_private(me))
            legal, ply = frame["view"]["legal"], frame["ply"]
            assert legal is not None and not legal["draw"] and legal["discards"]
        discard = {"type": "discard", "card": legal["discards"][0]}
        played = await client.post(f"/api/v1/games/{game}/actions", {"action": discard, "ply": ply})
        assert played.status_code == 200, played.json()
        legal = None
    await client.quiet()
    await client.ws.disconnect()

    privates = [frame for frame in client.frames if my_private(me)(frame)]
    assert compared >= TURNS - 1
    for frame in privates:
        view = frame["view"]
        assert (view["legal"] is not None) == (view["to_move"] == me and view["phase"] != "over")
    # No frame repeats the last one's news: each changed the hand or the legal moves.
    seen = [
        ([pair["id"] for pair in frame["view"]["hand"]], frame["view"]["legal"])
        for frame in privates
    ]
    assert all(before != after for before, after in zip(seen, seen[1:], strict=False)), seen


async def test_an_opponents_draw_or_take_sends_no_private_frame(
    author: Callable[[str], Any], deals_seeded: Callable[[int], None]
) -> None:
    client = Client(await database_sync_to_async(author)("ben"))
    start = await play_now(client)
    game, me = start["id"], start["you"]
    await client.connect()
    await client.send({"type": "subscribe", "game": game, "ply": start["ply"]})
    await client.until(lambda frame: frame["type"] == "subscribed")
    state = start
    turns = 0
    # (The bot draws from the stock or takes the discard as it likes: play on until it drew.)
    while turns < TURNS or not opponent_draws(client.frames, me):
        assert turns < MAX_TURNS, "the bot never drew from the stock"
        if "deal_over" in [frame["type"] for frame in client.frames]:
            break
        if state["deal"]["legal"] is None:
            await client.until(my_turn(me))
            state = await client.get(f"/api/v1/games/{game}")
        for action in ({"type": "draw"}, None):
            legal = state["deal"]["legal"]
            body = action or {"type": "discard", "card": legal["discards"][0]}
            if body["type"] == "draw" and not legal["draw"]:
                continue
            answer = await client.post(
                f"/api/v1/games/{game}/actions", {"action": body, "ply": state["ply"]}
            )
            assert answer.status_code == 200, answer.json()
            state = answer.json()["game"]
        turns += 1
    await client.quiet()
    await client.ws.disconnect()

    privates = [frame for frame in client.frames if my_private(me)(frame)]
    # Each private frame is news: my turn (its legal moves) or a hand of mine that changed.
    hands = [[pair["id"] for pair in frame["view"]["hand"]] for frame in privates]
    for frame, before, after in zip(privates[1:], hands, hands[1:], strict=False):
        assert frame["view"]["to_move"] == me or after != before, frame
    assert opponent_draws(client.frames, me)
    # The game's events come in the order of their plies (a bot's turn of several moves
    # included), its turn after the moves.
    plies = [frame["ply"] for frame in client.frames if frame["type"] in ("move", "turn")]
    assert plies == sorted(plies)


# ------------------------------------------------------------------ subscribing


async def test_subscribing_with_ply_null_to_a_game_under_way_answers_a_resync(
    author: Callable[[str], Any], deals_seeded: Callable[[int], None]
) -> None:
    client = Client(await database_sync_to_async(author)("cid"))
    start = await play_now(client)
    lobby = await client.post("/api/v1/games", {"preset": "serbian", "players": 2})
    assert lobby.status_code == 201, lobby.json()
    await client.connect()

    await client.send({"type": "subscribe", "game": start["id"], "ply": None})
    subscribed = await client.until(lambda frame: frame["type"] == "subscribed")
    resync = await client.until(lambda frame: True, timeout=5)
    await client.send({"type": "subscribe", "game": lobby.json()["id"], "ply": None})
    in_lobby = await client.until(lambda frame: frame["type"] == "subscribed")
    after_lobby = await client.quiet()
    await client.ws.disconnect()

    assert subscribed["status"] == "active"
    assert resync == {"type": "resync", "game": start["id"], "ply": subscribed["ply"]}
    # A game in its lobby has nothing to read again yet.
    assert in_lobby["status"] == "lobby"
    assert "resync" not in [frame["type"] for frame in after_lobby]


# ------------------------------------------------------------------ the event stream


async def test_a_challenge_to_a_built_in_bot_shows_on_the_stream_as_made_then_accepted(
    author: Callable[[str], Any], bots: list[Any], deals_seeded: Callable[[int], None]
) -> None:
    client = Client(await database_sync_to_async(author)("dee"))
    await client.connect()
    await client.send({"type": "subscribe", "stream": "events"})
    await client.until(lambda frame: frame["type"] == "subscribed")
    bot = bots[0].username

    made = await client.post("/api/v1/challenges", {"to": bot, "preset": "serbian"})
    assert made.status_code == 201, made.json()
    await client.until(lambda frame: frame["type"] == "game_start")
    await client.quiet()
    await client.ws.disconnect()

    stream = [
        frame
        for frame in client.frames
        if frame.get("stream") == "events" and frame["type"] != "subscribed"
    ]
    kinds = [frame["type"] for frame in stream]
    assert kinds[:3] == ["challenge", "challenge_accepted", "game_start"], kinds
    challenge, accepted = stream[0], stream[1]
    assert challenge["direction"] == accepted["direction"] == "out"
    assert challenge["challenge"]["id"] == made.json()["id"]
    assert challenge["challenge"]["destination"]["username"] == bot
    assert stream[2]["game"] == accepted["challenge"]["game"] == made.json()["game"]


async def test_the_end_of_a_game_carries_its_final_totals_in_both_frames(
    author: Callable[[str], Any], deals_seeded: Callable[[int], None]
) -> None:
    client = Client(await database_sync_to_async(author)("eve"))
    start = await play_now(client)
    game = start["id"]
    await client.connect()
    await client.send({"type": "subscribe", "stream": "events"})
    await client.until(lambda frame: frame["type"] == "subscribed")
    await client.send({"type": "subscribe", "game": game, "ply": start["ply"]})
    await client.until(lambda frame: frame.get("game") == game and frame["type"] == "subscribed")

    resigned = await client.post(f"/api/v1/games/{game}/resign", {})
    assert resigned.status_code == 200, resigned.json()
    over = await client.until(lambda frame: frame["type"] == "game_over")
    finish = await client.until(lambda frame: frame["type"] == "game_finish")
    await client.quiet()
    await client.ws.disconnect()
    state = await client.get(f"/api/v1/games/{game}")

    totals = [seat["total"] for seat in state["seats"]]
    assert state["status"] == "finished" and len(totals) == 2
    assert over["totals"] == finish["totals"] == totals
    assert finish["winners"] == over["winners"] == state["winners"]
    assert finish["status"] == "finished" and finish["seat"] == start["you"]


# ------------------------------------------------------------------ the turn's clock


def bank_partly_used(started_game: Callable[..., Any]) -> tuple[Any, Any]:
    """A live game with a 120 s bank of which each player has used 3.2 s; returns the
    game and the player to move."""
    game = started_game(2, time_control="live", seconds_per_turn=30, time_bank_s=120)
    deal = current_deal(game)
    assert deal is not None
    Seat.objects.filter(game=game).update(time_bank_used_ms=3_200)
    return game, game.seats.get(position=deal.to_move).user


async def test_a_turn_frame_counts_the_time_bank_in_tenths_of_a_second(
    started_game: Callable[..., Any],
    client_for: Callable[[Any], Any],
    deals_seeded: Callable[[int], None],
) -> None:
    game, mover = await database_sync_to_async(bank_partly_used)(started_game)
    client = Client(await database_sync_to_async(client_for)(mover))
    await client.connect()
    await client.send({"type": "subscribe", "game": game.public_id, "ply": game.ply})
    await client.until(lambda frame: frame["type"] == "subscribed")
    state = await client.get(f"/api/v1/games/{game.public_id}")
    legal = state["deal"]["legal"]
    action = "draw" if legal["draw"] else f"discard {legal['discards'][0]}"

    played = await client.post(
        f"/api/v1/games/{game.public_id}/actions", {"action": action, "ply": state["ply"]}
    )
    turn = await client.until(lambda frame: frame["type"] == "turn")
    await client.quiet()
    await client.ws.disconnect()

    assert played.status_code == 200, played.json()
    assert turn["time_bank_remaining_s"] == 116.8  # checked against the contract on arrival
