"""The README's run command, end to end, from a virtualenv of requirements.txt alone:
embedded SQLite and Redis, web, worker and beat; a bot game played through Celery; a
lost bot task (Redis flushed) recovered by the bot sweep; Ctrl-C stops everything."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
from pathlib import Path

import httpx
import pytest
import redis

from games.engine import PRESETS, Card, card_penalty
from tests.sites import ROOT, wait_for

pytestmark = pytest.mark.slow

PASSWORD = "correct-horse-battery-staple"
POLISH = PRESETS["polish51"]


def _signed_in(url: str, username: str) -> httpx.Client:
    with httpx.Client(base_url=f"{url}/api/v1", timeout=10) as anonymous:
        signup = anonymous.post("/auth/signup", json={"username": username, "password": PASSWORD})
        assert signup.status_code == 201, signup.text
        login = anonymous.post(
            "/auth/login", json={"username": username, "password": PASSWORD, "token_name": "t"}
        )
        assert login.status_code == 200, login.text
    token = login.json()["token"]["token"]
    return httpx.Client(
        base_url=f"{url}/api/v1", headers={"Authorization": f"Bearer {token}"}, timeout=10
    )


def _wait_for_my_turn(api: httpx.Client, game_id: str, seat: int, timeout: float = 60) -> dict:
    """The state once it is our turn or the game is over (the bot moves in the worker)."""

    def my_turn() -> dict | None:
        view = api.get(f"/games/{game_id}").json()
        return view if view["status"] != "active" or view["to_move"] == seat else None

    return wait_for(my_turn, timeout=timeout, what=f"the bot's move in game {game_id}")


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


def _play(api: httpx.Client, view: dict) -> dict:
    """Our whole turn (draw, discard); returns the state after it."""
    for _ in range(2):
        answer = api.post(
            f"/games/{view['id']}/actions", json={"action": _my_turn(view), "ply": view["ply"]}
        )
        assert answer.status_code == 200, answer.text
        view = api.get(f"/games/{view['id']}").json()
        if view["status"] != "active":
            break
    return view


def _play_against_the_bot(api: httpx.Client, turns: int, **options: object) -> dict:
    body = {"preset": "polish51", "bots": 1, "level": 2, **options}
    view = api.post("/games/play-now", json=body).json()
    game_id, seat = view["id"], view["you"]
    for _ in range(turns):
        view = _wait_for_my_turn(api, game_id, seat)
        if view["status"] != "active":
            break
        _play(api, view)
    return api.get(f"/games/{game_id}").json()


def _full_log(site) -> str:
    return site.log_path.read_text(errors="replace")


def _takes_the_write_lock(database: Path) -> bool:
    """Whether a writer gets the SQLite file's write lock within half a second."""
    probe = sqlite3.connect(database, timeout=0.5, isolation_level=None)
    try:
        probe.execute("BEGIN IMMEDIATE")
        probe.execute("ROLLBACK")
        return True
    except sqlite3.OperationalError:  # "database is locked"
        return False
    finally:
        probe.close()


def _stop_the_worker_between_writes(site) -> None:
    """SIGSTOP the worker at a moment it holds no write lock. Stopped inside a
    transaction (a sweep, a move's after-commit work) it would keep every writer, our
    move included, waiting for the lock: a frozen process, not the lost task this test
    is about."""
    database = site.var_dir / "remi.sqlite3"

    def stopped_between_writes() -> bool:
        assert site.signal_role("worker", signal.SIGSTOP), f"no worker to stop:\n{site.log()}"
        if _takes_the_write_lock(database):
            return True
        site.signal_role("worker", signal.SIGCONT)
        return False

    wait_for(stopped_between_writes, timeout=30, what="the worker between two writes")


def _lose_the_queued_bot_task(site, api: httpx.Client) -> dict:
    """Our move hands the turn to the bot while the worker is stopped, Redis is flushed
    (the queued task is gone) and the stopped worker is killed (with whatever it had
    fetched); the supervisor starts a new worker. Returns the state after our move."""
    view = api.post(
        "/games/play-now",
        json={"preset": "polish51", "bots": 1, "level": 2, "time_control": "correspondence"},
    ).json()
    view = _wait_for_my_turn(api, view["id"], view["you"])
    _stop_the_worker_between_writes(site)
    view = _play(api, view)
    assert view["to_move"] != view["you"]
    client = redis.Redis(unix_socket_path=str(site.var_dir / "redis.sock"))
    try:
        assert client.flushall()
    finally:
        client.close()
    site.signal_role("worker", signal.SIGKILL)
    return view


def test_make_run_plays_a_bot_game_survives_a_flushed_redis_and_stops_on_ctrl_c(
    embedded_site,
):
    status, health = embedded_site.health()
    assert status == 200, health
    assert health["worker"] == health["beat"] == "ok", health
    assert health["database"] == health["redis"] == "ok", health

    with _signed_in(embedded_site.url, "smoke") as api:
        assert api.get("/me").json()["username"] == "smoke"
        # Ten turns (draw + discard) against a bot that the embedded Celery worker moves.
        view = _play_against_the_bot(api, turns=10)
        # Our 20 moves and at least nine bot turns of two moves, whoever started.
        assert view["ply"] >= 38 or view["status"] == "finished", view
        # Every bot turn was queued by the move before it, none found by the sweep.
        assert "stalled: queued again" not in _full_log(embedded_site)

        stalled = _lose_the_queued_bot_task(embedded_site, api)
        # The bot sweep finds the stalled turn (BOT_STALL_S, 3 s here) and queues it again.
        after = _wait_for_my_turn(api, stalled["id"], stalled["you"], timeout=60)
        moves = api.get(f"/games/{stalled['id']}/moves").json()["results"]
        bot_seat = 1 - stalled["you"]
        rescued = [m for m in moves if m["ply"] > stalled["ply"]]
        assert rescued and all(m["seat"] == bot_seat for m in rescued), rescued
        assert not any(m["by_server"] for m in rescued), "a timeout played the bot's turn"
        assert [s["strikes"] for s in after["seats"]] == [0, 0]
        assert [m["ply"] for m in moves] == list(range(1, after["ply"] + 1))

    wait_for(
        lambda: embedded_site.health()[0] == 200,
        timeout=60,
        what=f"a healthy site with the new worker:\n{embedded_site.log()}",
    )
    log = _full_log(embedded_site)
    assert "worker started again" in log
    for failure in ("after-commit work of game", "Internal Server Error", "Traceback"):
        assert failure not in log, f"{failure!r} in the site's log:\n{embedded_site.log()}"
    assert httpx.get(f"{embedded_site.url}/api/docs/").status_code == 200
    assert httpx.get(f"{embedded_site.url}/static/css/site.css").status_code == 200
    missing = httpx.get(f"{embedded_site.url}/no-such-page/")
    assert missing.status_code == 404
    assert "Not found" in missing.text and "URLconf" not in missing.text, missing.text

    survivors = embedded_site.stop()

    assert survivors == [], f"still running after Ctrl-C: {survivors}\n{embedded_site.log()}"
    started = "\n".join(embedded_site.commands)
    for program in (
        "redis-server",
        "uvicorn",
        "celery -A remi_site worker",
        "--queues push",  # the worker of the pushes, apart from the main one
        "celery -A remi_site beat",
    ):
        assert program in started, f"{program} was not running:\n{started}"
    assert not (embedded_site.var_dir / "redis.sock").exists()


def test_every_import_of_the_site_is_installed_by_requirements_txt(runtime_venv: Path):
    checked = subprocess.run(
        [runtime_venv / "bin/python", "scripts/check_runtime_imports.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "REMI_VAR_DIR": str(runtime_venv / "var")},
    )

    assert checked.returncode == 0, checked.stderr


def test_the_import_check_names_a_module_that_only_the_dev_requirements_install(
    runtime_venv: Path, tmp_path: Path
):
    # pytest is in requirements-dev.txt only: a site module importing it must fail.
    probe = tmp_path / "uses_pytest.py"
    probe.write_text("def helper():\n    import pytest  # noqa: F401\n")

    checked = subprocess.run(
        [runtime_venv / "bin/python", "scripts/check_runtime_imports.py", str(probe)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "REMI_VAR_DIR": str(tmp_path)},
    )

    assert checked.returncode == 1
    assert f"{probe}:2: no module named 'pytest'" in checked.stderr
