"""The README's run command, end to end: embedded SQLite and Redis, web, worker, beat."""

from __future__ import annotations

import time

import httpx
import pytest

from games.engine import PRESETS, Card, card_penalty

pytestmark = pytest.mark.slow

PASSWORD = "correct-horse-battery-staple"
POLISH = PRESETS["polish51"]


def _wait_for_my_turn(api: httpx.Client, game_id: str, seat: int) -> dict:
    """Poll the state until it is our turn or the game ends (the bot moves in the worker)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        view = api.get(f"/games/{game_id}").json()
        if view["status"] != "active" or view["to_move"] == seat:
            return view
        time.sleep(0.2)
    raise AssertionError(f"the bot did not move within 60 s: {view}")


def _my_turn(view: dict) -> dict:
    """Draw, then discard the costliest card: a weak but legal human."""
    deal = view["deal"]
    if "draw" in deal["actions"]:
        return {"type": "draw"}
    if deal["must_return"]:
        return {"type": "discard", "card": deal["must_return"]}
    worst = max(
        (c["card"] for c in deal["hand"]), key=lambda t: card_penalty(Card.parse(t), POLISH)
    )
    return {"type": "discard", "card": worst}


def _play_against_the_bot(api: httpx.Client, actions: int) -> dict:
    view = api.post("/games/play-now", json={"preset": "polish51", "bots": 1, "level": 2}).json()
    game_id, seat = view["id"], view["you"]
    played = 0
    while played < actions:
        view = _wait_for_my_turn(api, game_id, seat)
        if view["status"] != "active":
            break
        answer = api.post(
            f"/games/{game_id}/actions", json={"action": _my_turn(view), "ply": view["ply"]}
        )
        assert answer.status_code == 200, answer.text
        played += 1
    return api.get(f"/games/{game_id}").json()


def test_make_run_serves_the_api_and_ctrl_c_stops_every_process(embedded_site):
    health = embedded_site.health()
    assert health == {
        "status": "ok",
        "database": "ok",
        "redis": "ok",
        "worker": "ok",
        "worker_heartbeat_age": health["worker_heartbeat_age"],
    }

    with httpx.Client(base_url=f"{embedded_site.url}/api/v1", timeout=10) as api:
        signup = api.post("/auth/signup", json={"username": "smoke", "password": PASSWORD})
        assert signup.status_code == 201, signup.text
        login = api.post(
            "/auth/login", json={"username": "smoke", "password": PASSWORD, "token_name": "t"}
        )
        assert login.status_code == 200, login.text
        token = login.json()["token"]["token"]
    me = httpx.get(f"{embedded_site.url}/api/v1/me", headers={"Authorization": f"Bearer {token}"})
    assert me.json()["username"] == "smoke"
    with httpx.Client(
        base_url=f"{embedded_site.url}/api/v1",
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    ) as api:
        # Ten turns (draw + discard) against a bot that the embedded Celery worker moves.
        view = _play_against_the_bot(api, actions=20)
    # Our 20 moves and at least nine bot turns of two moves, whoever started.
    assert view["ply"] >= 38 or view["status"] == "finished", view
    assert httpx.get(f"{embedded_site.url}/api/docs/").status_code == 200
    assert httpx.get(f"{embedded_site.url}/static/css/site.css").status_code == 200

    survivors = embedded_site.stop()

    assert survivors == [], f"still running after Ctrl-C: {survivors}\n{embedded_site.log()}"
    started = "\n".join(embedded_site.commands)
    for program in (
        "redis-server",
        "uvicorn",
        "celery -A remi_site worker",
        "celery -A remi_site beat",
    ):
        assert program in started, f"{program} was not running:\n{started}"
    assert not (embedded_site.var_dir / "redis.sock").exists()
