"""The history of one's games (web and API), its export, and the rating chart."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connections, transaction
from django.test import AsyncClient
from django.utils import timezone

from accounts import export, history_views
from accounts.models import Rating
from games import ratings
from games.models import Game
from games.play.create import game_create
from tests.accounts.account_kit import played_game, web_client

pytestmark = pytest.mark.django_db

HISTORY_API = "/api/v1/me/games/history"
EXPORT_API = "/api/v1/me/games/export"


@pytest.fixture
def ana_s_games(user, user_factory, deals_seeded) -> dict[str, Any]:
    """Ana won a rated serbian game against Bora, lost a live macedonian one to
    Cvijeta, is playing Bora now, and left a lobby that never started."""
    bora, cvijeta = user_factory(username="bora"), user_factory(username="+cvijeta")
    won = played_game([user, bora], rated=True, winner=0)
    lost = played_game([cvijeta, user], preset="macedonian", winner=0, time_control="live")
    running = played_game([bora, user], winner=None)
    game_create(owner=user, preset="serbian", players=2)  # never started
    assert (won.status, lost.status, running.status) == ("finished", "finished", "active")
    return {"won": won, "lost": lost, "running": running}


def ids(response: Any) -> list[str]:
    return [entry["id"] for entry in response.json()["results"]]


def test_the_history_lists_every_game_played_newest_first(auth_client, ana_s_games):
    response = auth_client.get(HISTORY_API)

    games = ana_s_games
    assert response.status_code == 200
    assert ids(response) == [g.public_id for g in (games["running"], games["lost"], games["won"])]
    running, lost, won = response.json()["results"]
    assert (won["result"], won["place"], won["rated"]) == ("won", 1, True)
    assert won["rating_change"] > 0 and won["rating_after"] == 1500 + won["rating_change"]
    assert [o["user"]["username"] for o in won["opponents"]] == ["bora"]
    assert (lost["result"], lost["place"], lost["time_control"]) == ("lost", 2, "live")
    assert lost["rating_change"] is None
    assert (running["result"], running["place"], running["finished_at"]) == ("playing", None, None)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("result=won", ["won"]),
        ("result=lost", ["lost"]),
        ("result=playing", ["running"]),
        ("opponent=BORA", ["running", "won"]),
        ("variant=macedonian", ["lost"]),
        ("time_control=correspondence", ["running", "won"]),
        ("time_control=live&result=lost", ["lost"]),
        ("since={today}&until={today}", ["running", "lost", "won"]),
        ("since={tomorrow}", []),
        ("until={yesterday}", []),
    ],
)
def test_the_history_filters(auth_client, ana_s_games, query, expected):
    today = timezone.now().date()
    query = query.format(
        today=today, tomorrow=today + timedelta(days=1), yesterday=today - timedelta(days=1)
    )

    response = auth_client.get(f"{HISTORY_API}?{query}")

    assert response.status_code == 200, response.json()
    assert ids(response) == [ana_s_games[name].public_id for name in expected]


@pytest.mark.parametrize(
    "query",
    ["result=draw", "time_control=blitz", "since=yesterday", "since=2026-02-02&until=2026-02-01"],
)
def test_the_history_refuses_bad_filters(auth_client, query):
    response = auth_client.get(f"{HISTORY_API}?{query}")

    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid"


def test_the_history_is_cursor_paginated(auth_client, ana_s_games):
    first = auth_client.get(f"{HISTORY_API}?page_size=2")
    second = auth_client.get(first.json()["next"])
    bad = auth_client.get(f"{HISTORY_API}?cursor=not-a-cursor")
    too_big = auth_client.get(f"{HISTORY_API}?page_size=101")

    assert len(first.json()["results"]) == 2 and first.json()["previous"] is None
    assert ids(second) == [ana_s_games["won"].public_id] and second.json()["next"] is None
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_cursor"
    assert too_big.status_code == 400


def test_the_history_is_one_s_own(client_for, user_factory, ana_s_games):
    stranger = client_for(user_factory())

    assert stranger.get(HISTORY_API).json()["results"] == []


def test_the_history_page_shows_and_filters_the_games(user, ana_s_games):
    client = web_client(user)

    everything = client.get("/history/").content.decode()
    won = client.get("/history/?result=won").content.decode()
    bad = client.get("/history/?since=2026-02-02&until=2026-02-01")

    assert "3 games" in everything
    for game in ana_s_games.values():
        assert f"/games/{game.public_id}/" in everything
    assert "1 game" in won and ana_s_games["lost"].public_id not in won
    assert "/api/v1/me/games/export?result=won&amp;format=csv" in won
    assert bad.status_code == 400 and "The end of the range comes before its start." in (
        bad.content.decode()
    )


def test_the_history_page_is_paginated(user, ana_s_games, monkeypatch):
    monkeypatch.setattr(history_views, "PAGE_SIZE", 2)
    client = web_client(user)

    first = client.get("/history/").content.decode()
    second = client.get("/history/?page=2").content.decode()

    assert "Page 1 of 2" in first and ana_s_games["won"].public_id not in first
    assert "Page 2 of 2" in second and ana_s_games["won"].public_id in second


def test_the_history_page_needs_a_login(client):
    assert client.get("/history/").status_code == 302


# ------------------------------------------------------------------ export


def streamed(response: Any) -> str:
    assert response.streaming
    return b"".join(response.streaming_content).decode()


def test_the_export_as_csv_has_a_row_per_game(auth_client, ana_s_games):
    response = auth_client.get(f"{EXPORT_API}?format=csv")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="remi-games-ana-')
    rows = list(csv.DictReader(io.StringIO(streamed(response))))
    assert [row["id"] for row in rows] == [
        ana_s_games[name].public_id for name in ("running", "lost", "won")
    ]
    assert [row["result"] for row in rows] == ["playing", "lost", "won"]
    # A username a spreadsheet would take for a formula is quoted.
    assert rows[1]["opponents"] == "'+cvijeta"
    assert rows[2]["rated"] == "yes" and int(rows[2]["rating_change"]) > 0


def test_the_export_as_json_holds_the_history_entries(auth_client, ana_s_games):
    response = auth_client.get(f"{EXPORT_API}?format=json&result=won")
    history = auth_client.get(f"{HISTORY_API}?result=won").json()["results"]

    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    body = json.loads(streamed(response))
    assert body["username"] == "ana"
    assert body["games"] == history


def test_the_export_of_no_games_is_still_a_document(auth_client):
    csv_body = streamed(auth_client.get(f"{EXPORT_API}?format=csv"))
    json_body = streamed(auth_client.get(f"{EXPORT_API}?format=json"))

    assert csv_body.splitlines()[0].startswith("id,preset,time_control")
    assert json.loads(json_body) == {"username": "ana", "games": []}


@pytest.mark.parametrize("query", ["", "?format=xml", "?format=csv&result=draw"])
def test_the_export_refuses_bad_requests_in_json(auth_client, query):
    response = auth_client.get(f"{EXPORT_API}{query}")

    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "invalid"


def test_the_export_works_from_the_web_session(user, ana_s_games):
    response = web_client(user).get(f"{EXPORT_API}?format=csv")

    assert response.status_code == 200 and len(streamed(response).splitlines()) == 4


def test_the_export_needs_authentication(api_client):
    assert api_client.get(f"{EXPORT_API}?format=csv").status_code == 401


# ------------------------------------------------------------------ the rating chart


def test_the_profile_and_the_player_page_draw_the_rating_over_time(user, ana_s_games, client):
    profile = web_client(user).get("/accounts/profile/").content.decode()
    public = client.get("/accounts/players/ana/").content.decode()

    for page in (profile, public):
        assert '<svg xmlns="http://www.w3.org/2000/svg"' in page
        assert '<polyline class="rating-line" data-rules="serbian"' in page
        assert "Rating over time" in page
        assert "style=" not in page.split('id="rating-chart"')[1].split("</figure>")[0]


def chart_says(client: Any, username: str) -> str:
    page = client.get(f"/accounts/players/{username}/").content.decode()
    return re.search(r'<desc id="rating-chart-desc">(.*?)</desc>', page, re.S).group(1).strip()


def test_the_chart_is_drawn_again_whenever_the_rating_history_changes(
    user, user_factory, deals_seeded, client
):
    bora = user_factory(username="bora")
    played_game([user, bora], rated=True, winner=0)
    first = chart_says(client, "ana")
    assert chart_says(client, "ana") == first  # kept

    played_game([user, bora], rated=True, winner=1)
    second = chart_says(client, "ana")
    with transaction.atomic():
        ratings.results_revert(user=bora)
    reverted = chart_says(client, "ana")

    assert "after 1 rated game." in first
    assert "after 2 rated games." in second
    rating = Rating.objects.get(user=user, rules="serbian").rating
    assert rating == 1500  # both games taken back
    assert reverted.startswith(f"Serbian Remi: {rating:,} after 2 rated games.")
    assert len({first, second, reverted}) == 3


def test_a_player_without_rated_games_has_no_chart(user):
    page = web_client(user).get("/accounts/profile/").content.decode()

    assert 'id="rating-chart"' not in page


def test_a_long_export_comes_a_chunk_of_games_at_a_time(auth_client, ana_s_games, monkeypatch):
    monkeypatch.setattr(export, "CHUNK", 2)

    rows = list(csv.DictReader(io.StringIO(streamed(auth_client.get(f"{EXPORT_API}?format=csv")))))
    body = json.loads(streamed(auth_client.get(f"{EXPORT_API}?format=json")))

    expected = [ana_s_games[name].public_id for name in ("running", "lost", "won")]
    assert [row["id"] for row in rows] == expected
    assert [game["id"] for game in body["games"]] == expected


@pytest.fixture
def raw_token(token_factory, user) -> str:
    return token_factory(user)[1]


@pytest.mark.django_db(transaction=True)
async def test_under_asgi_the_export_streams_asynchronously(ana_s_games, raw_token, monkeypatch):
    monkeypatch.setattr(export, "CHUNK", 2)
    client = AsyncClient()

    response = await client.get(
        f"{EXPORT_API}?format=json", headers={"Authorization": f"Bearer {raw_token}"}
    )

    body = json.loads(b"".join([part async for part in response.streaming_content]))
    # The view ran in the test client's thread for synchronous code: its connection
    # is closed there, or the test database could not be dropped.
    await sync_to_async(connections.close_all)()

    assert response.status_code == 200 and response.is_async
    assert [game["id"] for game in body["games"]] == [
        ana_s_games[name].public_id for name in ("running", "lost", "won")
    ]


def test_a_shared_first_place_counts_as_won(auth_client, user, user_factory, deals_seeded):
    # Both players at the top: the game is changed to a tie after the fact, as only
    # the result matters here.
    game = played_game([user_factory(), user], winner=0)
    Game.objects.filter(pk=game.pk).update(winners=[0, 1])

    won = auth_client.get(f"{HISTORY_API}?result=won")
    lost = auth_client.get(f"{HISTORY_API}?result=lost")

    assert ids(won) == [game.public_id] and won.json()["results"][0]["result"] == "won"
    assert ids(lost) == []
