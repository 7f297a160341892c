"""Events go to the game's Channels group (real Redis) after the commit, and only then."""

from __future__ import annotations

import contextlib

from games.engine import DrawStock
from games.errors import NotAllowed
from games.play.act import game_act
from tests.gamekit import current_engine_deal
from tests.group_events_kit import game_messages


def moves_in(messages: list[dict]) -> list[dict]:
    return [m for m in messages if m["type"] == "game.event" and m["event"]["type"] == "move"]


def test_a_move_is_published_after_the_commit(started, django_capture_on_commit_callbacks):
    game, users = started(players=2, preset="polish51")
    seat = current_engine_deal(game).to_move
    captured = []

    def move_without_commit() -> None:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            game_act(game=game, user=users[seat], action=DrawStock(), expected_ply=0)
        captured.extend(callbacks)

    assert (
        moves_in(game_messages(game.public_id, move_without_commit)) == []
    )  # not before the commit
    [message] = moves_in(game_messages(game.public_id, lambda: [c() for c in captured]))

    assert message["game"] == game.public_id and message["ply"] == 1
    assert message["event"]["move"] == {"type": "draw", "seat": seat, "stock_count": 78}


def test_a_refused_move_publishes_nothing(started, django_capture_on_commit_callbacks):
    game, users = started(players=2, preset="polish51")
    waiting = users[1 - current_engine_deal(game).to_move]
    captured = []

    def refused() -> None:
        with (
            django_capture_on_commit_callbacks(execute=True) as callbacks,
            contextlib.suppress(NotAllowed),
        ):
            game_act(game=game, user=waiting, action=DrawStock(), expected_ply=0)
        captured.extend(callbacks)

    assert moves_in(game_messages(game.public_id, refused)) == []
    assert captured == []
