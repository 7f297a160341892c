"""What the rematch tests share: a finished table of people and built-in bots, played
through the API, to offer a rematch at."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient


def table_finished(
    host: APIClient, others: list[APIClient], *, bots: list[str], **terms: Any
) -> str:
    """A finished casual game of ``host``, ``others`` (joining in this order) and the
    built-in ``bots``: everyone but the bots resigns, the host last."""
    made = host.post(
        "/api/v1/games",
        {
            "preset": "serbian",
            "players": 1 + len(others) + len(bots),
            **terms,
            "bots": bots,
            "time_control": "live",
            "seconds_per_turn": 60,
        },
        format="json",
    )
    assert made.status_code == 201, made.json()
    game_id = made.json()["id"]
    for other in others:
        joined = other.post(f"/api/v1/games/{game_id}/join", {}, format="json")
        assert joined.status_code == 200, joined.json()
    assert host.post(f"/api/v1/games/{game_id}/start").status_code == 200
    for player in [*others, host]:
        resigned = player.post(f"/api/v1/games/{game_id}/resign")
        assert resigned.status_code == 200, resigned.json()
    assert host.get(f"/api/v1/games/{game_id}").json()["status"] == "finished"
    return str(game_id)
