"""A live game of one person and only bots waits for that person (docs/rules.md §10): when
they leave, their turn's clock stops at its deadline instead of the absent-player rule,
nothing counts against them, and coming back starts their turn again."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from games import tasks
from games.models import AbsentWait, Game, Move, Seat
from games.play import timeouts
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from remi_site.asgi import application
from tests.live.ws_kit import websocket

pytestmark = pytest.mark.django_db(transaction=True)

SECONDS_PER_TURN = 30
TIME_BANK_S = 20


@pytest.fixture
def alone_game(
    user_factory: Callable[..., Any],
    client_for: Callable[[Any], Any],
    deals_seeded: Callable[[int], None],
) -> Callable[[], tuple[Game, Any]]:
    """A started live game of one person (to move) and two bots; the person's client."""

    def make() -> tuple[Game, Any]:
        person = user_factory()
        bots = [user_factory(is_bot=True, bot_level=1) for _ in range(2)]
        game = game_create(
            owner=person,
            preset="serbian",
            players=3,
            bots=bots,
            time_control="live",
            seconds_per_turn=SECONDS_PER_TURN,
            time_bank_s=TIME_BANK_S,
        )
        game = game_start(game=game, user=person)
        game.refresh_from_db()
        # The bots (eager tasks) have played until the person is to move.
        assert game.to_move == 0 and game.status == Game.Status.ACTIVE
        return game, client_for(person)

    return make


def long_overdue(game: Game) -> None:
    """The turn's deadline passed longer ago than the absent wait and the host's choice."""
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(minutes=10))


async def connected(token: str, game: Game) -> Any:
    client = websocket(token)
    ok, _ = await client.connect()
    assert ok
    assert (await client.receive_json_from())["type"] == "hello"
    await client.send_json_to({"type": "subscribe", "game": game.public_id, "ply": game.ply})
    assert (await client.receive_json_from())["type"] == "subscribed"
    return client


async def frame_of_type(client: Any, kind: str) -> dict[str, Any]:
    """The next frame of ``kind`` (others skipped), within the communicator's timeout."""
    while True:
        frame = await client.receive_json_from(timeout=5)
        if frame["type"] == kind:
            return dict(frame)


async def test_a_person_who_leaves_a_game_against_bots_pauses_it_and_resumes_it(
    alone_game: Callable[[], tuple[Game, Any]],
) -> None:
    game, person = await database_sync_to_async(alone_game)()
    ply = game.ply
    client = await connected(person.token, game)
    await client.disconnect()

    await database_sync_to_async(long_overdue)(game)
    assert await database_sync_to_async(timeouts.timeout_apply)(game_pk=game.pk, ply=ply) == (
        "paused"
    )
    # The sweep keeps running: a paused turn has no deadline, so it has nothing to do.
    assert await database_sync_to_async(tasks.sweep_deadlines)() == 0
    assert await database_sync_to_async(tasks.sweep_deadlines)() == 0

    def paused_state() -> tuple[Game, Seat]:
        game.refresh_from_db()
        return game, Seat.objects.get(game=game, position=0)

    paused, seat = await database_sync_to_async(paused_state)()
    assert paused.status == Game.Status.ACTIVE and paused.ply == ply
    assert paused.deadline_at is None and paused.to_move == 0
    assert seat.status == Seat.Status.ACTIVE
    assert seat.strikes == 0 and seat.time_bank_used_ms == 0
    assert not await database_sync_to_async(AbsentWait.objects.filter(game=game).exists)()
    assert not await database_sync_to_async(Move.objects.filter(game=game, user=None).exists)()

    view = (await database_sync_to_async(person.get)(f"/api/v1/games/{game.public_id}")).json()
    assert view["status"] == "active" and view["deadline_at"] is None
    assert view["seats"][0]["strikes"] == 0

    before = timezone.now()
    back = await connected(person.token, game)
    changed = await frame_of_type(back, "deadline_changed")
    assert changed["reason"] == "player_back" and changed["ply"] == ply

    resumed, seat = await database_sync_to_async(paused_state)()
    assert resumed.ply == ply and resumed.status == Game.Status.ACTIVE
    assert resumed.deadline_at is not None
    # The turn starts again with its own seconds and the whole bank: no clock ran.
    full_turn = timedelta(seconds=SECONDS_PER_TURN + TIME_BANK_S)
    assert before + full_turn <= resumed.deadline_at <= timezone.now() + full_turn
    assert seat.time_bank_used_ms == 0 and seat.strikes == 0
    await back.disconnect()


async def test_the_paused_table_hears_that_the_clock_stopped(
    alone_game: Callable[[], tuple[Game, Any]],
) -> None:
    game, person = await database_sync_to_async(alone_game)()
    watcher = WebsocketCommunicator(  # a visitor watching the public game
        application, "/ws/v1/?watch=1", headers=[(b"origin", b"http://localhost")]
    )
    ok, _ = await watcher.connect()
    assert ok and (await watcher.receive_json_from())["type"] == "hello"
    await watcher.send_json_to({"type": "subscribe", "game": game.public_id, "ply": None})
    assert (await watcher.receive_json_from())["type"] == "subscribed"

    await database_sync_to_async(long_overdue)(game)
    assert await database_sync_to_async(tasks.sweep_deadlines)() == 1

    changed = await frame_of_type(watcher, "deadline_changed")
    assert changed["reason"] == "player_away" and changed["deadline_at"] is None
    await watcher.disconnect()


def test_with_another_person_at_the_table_the_absent_rule_still_applies(
    user_factory: Callable[..., Any], deals_seeded: Callable[[int], None]
) -> None:
    host, guest = user_factory(), user_factory()
    bot = user_factory(is_bot=True, bot_level=1)
    game = game_create(
        owner=host,
        preset="serbian",
        players=3,
        bots=[bot],
        time_control="live",
        seconds_per_turn=SECONDS_PER_TURN,
    )
    game_join(game=game, user=guest, invite_code=game.invite_code)
    game = game_start(game=game, user=host)
    game.refresh_from_db()
    assert game.to_move is not None
    long_overdue(game)

    assert timeouts.timeout_apply(game_pk=game.pk, ply=game.ply) == "waiting"
    game.refresh_from_db()
    assert game.deadline_at is not None
