"""Public games are watched without an account: the table page, the game, its log and
its websocket events, with no hidden card; private games stay 404; the anonymous
throttle applies. Also the vacation badge others see on a seat."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import PlayerSettings
from remi_site import throttling
from remi_site.asgi import application
from tests.gamekit import assert_log_hides_secrets, assert_view_hides_secrets, table_create


@pytest.mark.django_db
def test_a_visitor_sees_a_public_game_without_any_hand(players: Any, deals_seeded: Any) -> None:
    table = table_create(players(3), preset="serbian")
    visitor = APIClient()

    view = visitor.get(table.url())
    log = visitor.get(table.url("/moves"))

    assert view.status_code == 200 and log.status_code == 200
    assert view.json()["you"] is None and view.json()["deal"]["hand"] is None
    assert_view_hides_secrets(view.json(), None, table.game)
    assert_log_hides_secrets(log.json(), None, table.game)


@pytest.mark.django_db
def test_a_private_game_stays_hidden_from_visitors(started: Any) -> None:
    game, _users = started(2, visibility="private")

    assert APIClient().get(f"/api/v1/games/{game.public_id}").status_code == 404
    assert APIClient().get(f"/api/v1/games/{game.public_id}/moves").status_code == 404
    # The page sends a visitor to log in, as for a game that does not exist: nothing
    # tells the two apart.
    page, unknown = Client().get(f"/games/{game.public_id}/"), Client().get("/games/nosuchgame/")
    assert (page.status_code, unknown.status_code) == (302, 302)
    assert page["Location"].startswith("/accounts/login/")
    assert unknown["Location"].startswith("/accounts/login/")


@pytest.mark.django_db
def test_the_table_page_opens_for_a_visitor(started: Any) -> None:
    game, _users = started(2)

    page = Client().get(f"/games/{game.public_id}/")

    assert page.status_code == 200
    assert 'data-ws-url="/ws/v1/?watch=1"' in page.content.decode()


@pytest.mark.django_db
def test_visitors_are_rate_limited(
    started: Any, monkeypatch: pytest.MonkeyPatch, clear_cache: None
) -> None:
    game, _users = started(2)
    rates = {**throttling.AnonRateThrottle.THROTTLE_RATES, "anon": "3/min"}
    monkeypatch.setattr(throttling.AnonRateThrottle, "THROTTLE_RATES", rates)
    visitor = APIClient()

    codes = [visitor.get(f"/api/v1/games/{game.public_id}").status_code for _ in range(4)]

    assert codes == [200, 200, 200, 429]


@pytest.mark.django_db
def test_a_seat_shows_that_its_player_is_on_vacation(started: Any, client_for: Any) -> None:
    game, users = started(2)
    until = timezone.now() + timedelta(days=4)
    PlayerSettings.objects.update_or_create(user=users[1], defaults={"vacation_until": until})

    seats = client_for(users[0]).get(f"/api/v1/games/{game.public_id}").json()["seats"]
    page = Client().get(f"/accounts/players/{users[1].username}/")

    by_user = {seat["user"]["username"]: seat["away_until"] for seat in seats}
    assert by_user[users[0].username] is None
    assert by_user[users[1].username] is not None
    assert 'id="vacation-badge"' in page.content.decode()


# ------------------------------------------------------------------ the websocket


def _watcher() -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    return WebsocketCommunicator(application, "/ws/v1/?watch=1", headers=headers)


@pytest.mark.django_db(transaction=True)
async def test_a_visitor_subscribes_to_a_public_game_and_gets_its_events(
    started: Any,
) -> None:
    game = (await database_sync_to_async(started)(2))[0]
    private = (await database_sync_to_async(started)(2, visibility="private"))[0]
    client = _watcher()
    connected, _ = await client.connect()
    assert connected
    assert (await client.receive_json_from())["type"] == "hello"

    await client.send_json_to({"type": "subscribe", "game": game.public_id, "ply": None})
    subscribed = await client.receive_json_from()
    resync = await client.receive_json_from()  # it has seen nothing of a running game
    await client.send_json_to({"type": "subscribe", "game": private.public_id, "ply": None})
    refused = await client.receive_json_from()
    await client.send_json_to({"type": "chat", "game": game.public_id, "text": "hi"})
    no_chat = await client.receive_json_from()

    assert (subscribed["type"], subscribed["seat"]) == ("subscribed", None)
    assert (resync["type"], resync["ply"]) == ("resync", subscribed["ply"])
    assert (refused["type"], refused["code"]) == ("error", "not_found")
    assert (no_chat["type"], no_chat["code"]) == ("error", "not_authenticated")
    await client.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_visitor_subscribing_to_the_event_stream_is_told_not_authenticated() -> None:
    client = _watcher()
    connected, _ = await client.connect()
    assert connected
    assert (await client.receive_json_from())["type"] == "hello"

    await client.send_json_to({"type": "subscribe", "stream": "events"})
    refused = await client.receive_json_from()
    await client.send_json_to({"type": "ping"})
    still_open = await client.receive_json_from()
    await client.disconnect()

    assert (refused["type"], refused["code"]) == ("error", "not_authenticated")
    assert still_open == {"type": "pong"}


@pytest.mark.django_db(transaction=True)
async def test_without_asking_to_watch_a_visitor_is_still_refused() -> None:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    client = WebsocketCommunicator(application, "/ws/v1/", headers=headers)
    connected, _ = await client.connect()
    assert connected
    assert await client.receive_output(timeout=2) == {"type": "websocket.close", "code": 4401}
    await client.disconnect()
