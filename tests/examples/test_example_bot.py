"""examples/bot.py, run as its README says, against the whole site served by uvicorn:
it plays a whole game against a built-in bot, and it answers a person's challenges
(accepts a casual one, declines a rated one). Every websocket frame it sends and
receives (its ``--trace``) is checked against docs/asyncapi.yaml."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Challenge, Game, Move
from tests.asyncapi_contract import contract
from tests.sites import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "examples" / "bot.py"
GAME_TIMEOUT_S = 300


@pytest.fixture
def bot_account(
    user_factory: Callable[..., Any], token_factory: Callable[..., tuple[Any, str]]
) -> tuple[Any, str]:
    """A fresh account made a bot account through the API with its token: (user, token)."""
    user = user_factory(username="example-bot")
    _token, raw = token_factory(user, name="example")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    assert client.post("/api/v1/me/bot").status_code == 200
    return user, raw


def run_bot(server: str, token: str, *args: str) -> subprocess.Popen[str]:
    command = [sys.executable, str(BOT), "--server", server, "--token", token, "--trace", *args]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def finish(bot: subprocess.Popen[str]) -> str:
    try:
        output, _ = bot.communicate(timeout=GAME_TIMEOUT_S)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.communicate()
    return output


def frames_follow_the_contract(output: str) -> list[dict[str, Any]]:
    """The frames of the bot's trace, each checked against docs/asyncapi.yaml; the
    frames it received."""
    received = []
    for line in output.splitlines():
        direction, _, text = line.partition(" ")
        if direction == ">":
            contract().check_client_frame(json.loads(text))
        elif direction == "<":
            frame = json.loads(text)
            contract().check_server_frame(frame)
            received.append(frame)
    return received


def test_the_example_bot_plays_a_whole_game_against_a_built_in_bot(
    asgi_server: str, bot_account: tuple[Any, str], bots: list[Any]
) -> None:
    user, token = bot_account

    # A match of one deal: the whole of a game's frames, without eight deals of the same.
    one_deal = json.dumps({"match_deals": [1, 1, 1, 1, 1]})
    bot = run_bot(
        asgi_server, token, "--challenge", "random-rita", "--house-rules", one_deal, "--games", "1"
    )
    output = finish(bot)

    assert bot.returncode == 0, output
    challenge = Challenge.objects.select_related("game").get(challenger=user)
    assert challenge.status == Challenge.Status.ACCEPTED
    game = challenge.game
    assert game is not None and game.status == Game.Status.FINISHED, output
    # Remik 51 seats the players by drawn cards: either may sit first.
    assert {seat.user.username for seat in game.seats.all()} == {"example-bot", "random-rita"}
    assert Move.objects.filter(game=game, user=user).count() >= 2  # a draw and a discard
    assert game.deal_number == 1 and game.ruleset["match_deals"] == [1, 1, 1, 1, 1]
    received = frames_follow_the_contract(output)
    kinds = [frame["type"] for frame in received]
    assert {"hello", "subscribed", "game_start", "your_turn", "game_finish"} <= set(kinds)
    assert f"# game {game.public_id} finished" in output


def test_the_example_bot_accepts_a_casual_challenge_and_declines_a_rated_one(
    asgi_server: str,
    bot_account: tuple[Any, str],
    client_for: Callable[[Any], APIClient],
    user_factory: Callable[..., Any],
    settings: Any,
) -> None:
    settings.REMI_BOTS_RATED_VS_HUMANS = True  # so that a rated challenge can be made
    bot_user, token = bot_account
    person = client_for(user_factory(username="vera"))
    bot = run_bot(asgi_server, token, "--games", "1")
    try:
        terms = {"to": "example-bot", "preset": "polish51"}
        rated = person.post("/api/v1/challenges", {**terms, "rated": True}, format="json")
        casual = person.post("/api/v1/challenges", terms, format="json")
        assert rated.status_code == casual.status_code == 201

        def answered() -> dict[str, Any] | None:
            states = {
                name: person.get(f"/api/v1/challenges/{response.json()['id']}").json()
                for name, response in (("rated", rated), ("casual", casual))
            }
            return states if all(s["status"] != "pending" for s in states.values()) else None

        states = wait_for(answered, timeout=60, what="the bot's answers to two challenges")
        assert states["rated"]["status"] == "declined"
        assert states["rated"]["decline_reason"] == "casual"
        assert states["casual"]["status"] == "accepted"
        game_id = states["casual"]["game"]
        assert person.get(f"/api/v1/games/{game_id}").json()["status"] == "active"
        assert person.post(f"/api/v1/games/{game_id}/resign").status_code == 200
    finally:
        output = finish(bot)

    assert bot.returncode == 0, output
    received = frames_follow_the_contract(output)
    finished = [frame for frame in received if frame["type"] == "game_finish"]
    assert [(frame["game"], frame["status"]) for frame in finished] == [(game_id, "finished")]
    assert Game.objects.get(public_id=game_id).seats.filter(user=bot_user).exists()


def test_the_example_bot_says_why_the_site_refused_its_challenge(
    asgi_server: str, bot_account: tuple[Any, str], bots: list[Any]
) -> None:
    _user, token = bot_account

    bad_rules = json.dumps({"match_deals": "eight"})
    bot = run_bot(asgi_server, token, "--challenge", "random-rita", "--house-rules", bad_rules)
    output = finish(bot)

    assert bot.returncode == 1, output
    assert "bot.py: the site refused POST /api/v1/challenges: 400" in output
    assert "invalid_ruleset" in output and "Traceback" not in output
