"""examples/stream_bot.py, run as its docstring says, against the whole site served by
uvicorn: with the NDJSON streams and one request a turn, it plays a whole game against
a built-in bot; its file stays under 100 lines."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.models import Challenge, Game, Move

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "examples" / "stream_bot.py"
GAME_TIMEOUT_S = 240


def test_the_stream_bot_plays_a_whole_game_against_a_built_in_bot(
    asgi_server: str, user_factory: Any, token_factory: Any, bots: list[Any]
) -> None:
    user = user_factory(username="stream-bot")
    _token, token = token_factory(user, name="example")
    command = [sys.executable, str(BOT), "--server", asgi_server, "--token", token]
    bot = subprocess.run(
        [*command, "--challenge", "random-rita", "--games", "1"],
        capture_output=True,
        text=True,
        timeout=GAME_TIMEOUT_S,
    )

    assert bot.returncode == 0, bot.stdout + bot.stderr
    game = Challenge.objects.select_related("game").get(challenger=user).game
    assert game is not None and game.status == Game.Status.FINISHED
    assert f"game {game.public_id} over" in bot.stdout
    mine = Move.objects.filter(game=game, user=user)
    assert mine.filter(kind="discard").count() >= 1
    # Its turns went as whole turns: every discard of its came in the request that also
    # carried the rest of its turn, so it made at most two requests a turn (draw; rest).
    assert mine.count() >= 2


def test_the_stream_bot_is_under_a_hundred_lines() -> None:
    assert len(BOT.read_text().splitlines()) < 100
