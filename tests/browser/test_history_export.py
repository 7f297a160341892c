"""The export of one's games from the real ASGI server: sent as it is produced
(chunked), whole and in order."""

from __future__ import annotations

import csv
import io

import httpx
import pytest

from accounts import export
from tests.accounts.account_kit import played_game

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_the_export_streams_from_the_asgi_server(
    asgi_server, user_factory, token_factory, deals_seeded, monkeypatch
):
    monkeypatch.setattr(export, "CHUNK", 2)  # five games: three chunks
    ana, bora = user_factory(username="ana"), user_factory(username="bora")
    games = [played_game([ana, bora], winner=i % 2) for i in range(5)]
    _token, raw = token_factory(ana)

    with httpx.stream(
        "GET",
        f"{asgi_server}/api/v1/me/games/export?format=csv",
        headers={"Authorization": f"Bearer {raw}"},
        timeout=30,
    ) as response:
        body = "".join(response.iter_text())

    assert response.status_code == 200
    assert response.headers.get("transfer-encoding") == "chunked"
    assert "content-length" not in response.headers
    rows = list(csv.DictReader(io.StringIO(body)))
    assert [row["id"] for row in rows] == [game.public_id for game in reversed(games)]
    assert [row["result"] for row in rows] == ["won", "lost", "won", "lost", "won"]
