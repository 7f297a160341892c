"""The README's run command, end to end: embedded SQLite and Redis, web, worker, beat."""

from __future__ import annotations

import httpx
import pytest

pytestmark = pytest.mark.slow

PASSWORD = "correct-horse-battery-staple"


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
