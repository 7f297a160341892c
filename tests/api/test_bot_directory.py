"""GET /api/v1/bots and the bots page: the built-in bots, then the bot accounts that
may play, each with its ratings and whether it is connected now (a websocket or an
NDJSON stream), banned and deleted accounts left out."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts import services
from accounts.deletion import account_delete
from accounts.models import Rating
from accounts.moderation.services import ban_create
from games.engine import PRESETS
from tests.gamekit import SchemaChecker
from tests.live.ws_kit import connect
from tests.user_kit import PASSWORD

BOTS = "/api/v1/bots"


def bot_account(user_factory: Callable[..., Any], username: str, **profile: Any) -> Any:
    user = user_factory(username=username, **profile)
    services.account_upgrade_to_bot(user=user)
    return user


def listed(client: APIClient) -> dict[str, dict[str, Any]]:
    return {bot["username"]: bot for bot in client.get(BOTS).json()["results"]}


@pytest.mark.django_db
def test_bot_accounts_are_listed_after_the_built_in_bots_with_their_ratings(
    api_client: APIClient, bots: list[Any], user_factory: Callable[..., Any]
) -> None:
    robo = bot_account(user_factory, "robo")
    Rating.objects.create(user=robo, rules="serbian", mu=30.0, sigma=2.0, rating=1744, games=40)

    response = api_client.get(BOTS)

    assert response.status_code == 200
    body = response.json()
    SchemaChecker(api_client).check("GET", BOTS, 200, body)
    results = body["results"]
    assert [b["username"] for b in results] == [bot.username for bot in bots] + ["robo"]
    assert {b["kind"] for b in results[:4]} == {"builtin"}
    assert all(b["connected"] is True for b in results[:4])  # the server moves them
    entry = results[4]
    assert entry["kind"] == "account" and entry["bot_level"] is None
    assert entry["connected"] is False
    assert [r["rules"] for r in entry["ratings"]] == list(PRESETS)
    serbian = next(r for r in entry["ratings"] if r["rules"] == "serbian")
    assert serbian == {
        "rules": "serbian",
        "rating": 1744,
        "deviation": serbian["deviation"],
        "provisional": False,
        "games": 40,
    }


@pytest.mark.django_db
def test_banned_and_deleted_bot_accounts_are_not_listed(
    api_client: APIClient, user_factory: Callable[..., Any]
) -> None:
    bot_account(user_factory, "robo")
    banned = bot_account(user_factory, "banned-bot")
    gone = bot_account(user_factory, "gone-bot")
    moderator = user_factory(username="mod")
    ban_create(user=banned, moderator=moderator, reason="spam", permanent=True)
    account_delete(user=gone, password=PASSWORD)

    assert [name for name, bot in listed(api_client).items() if bot["kind"] == "account"] == [
        "robo"
    ]


@pytest.mark.django_db(transaction=True)
async def test_a_bot_account_on_the_websocket_is_listed_connected_and_first(
    user_factory: Callable[..., Any],
) -> None:
    await database_sync_to_async(bot_account)(user_factory, "aaa-idle")
    robo = await database_sync_to_async(bot_account)(user_factory, "robo")
    _token, raw = await database_sync_to_async(services.token_create)(user=robo, name="ws")
    api = APIClient()

    client = await connect(raw)
    during = await database_sync_to_async(listed)(api)
    await client.disconnect()
    after = await database_sync_to_async(listed)(api)

    assert during["robo"]["connected"] is True
    assert during["aaa-idle"]["connected"] is False
    assert list(during) == ["robo", "aaa-idle"]  # connected first
    assert after["robo"]["connected"] is False


@pytest.mark.django_db(transaction=True)
async def test_a_bot_account_that_hides_its_presence_shows_no_status(
    user_factory: Callable[..., Any],
) -> None:
    robo = await database_sync_to_async(bot_account)(user_factory, "robo", show_online=False)
    _token, raw = await database_sync_to_async(services.token_create)(user=robo, name="ws")

    client = await connect(raw)
    during = await database_sync_to_async(listed)(APIClient())
    await client.disconnect()

    assert during["robo"]["connected"] is None


def test_a_bot_account_is_listed_connected_while_it_follows_its_ndjson_stream(
    asgi_server: str, user_factory: Callable[..., Any]
) -> None:
    robo = bot_account(user_factory, "robo")
    _token, raw = services.token_create(user=robo, name="stream")
    headers = {"Authorization": f"Bearer {raw}"}

    with (
        httpx.Client(timeout=20) as http,
        http.stream("GET", f"{asgi_server}/api/v1/stream/events", headers=headers) as stream,
    ):
        assert stream.status_code == 200
        deadline = time.monotonic() + 10
        while True:
            bots = {b["username"]: b for b in http.get(f"{asgi_server}{BOTS}").json()["results"]}
            if bots["robo"]["connected"] or time.monotonic() > deadline:
                break
        assert bots["robo"]["connected"] is True

    # The client went away: the stream ends on the server and the bot is offline.
    with httpx.Client(timeout=20) as http:
        deadline = time.monotonic() + 10
        while True:
            bots = {b["username"]: b for b in http.get(f"{asgi_server}{BOTS}").json()["results"]}
            if not bots["robo"]["connected"] or time.monotonic() > deadline:
                break
    assert bots["robo"]["connected"] is False


@pytest.mark.django_db
def test_the_bots_page_lists_both_kinds_with_status_and_ratings(
    bots: list[Any], user_factory: Callable[..., Any]
) -> None:
    bot_account(user_factory, "robo", display_name="Robo")

    page = Client().get("/bots/")

    assert page.status_code == 200
    html = page.content.decode()
    for bot in bots:
        assert f'data-bot="{bot.username}"' in html
    assert 'data-bot="robo"' in html and "Robo" in html
    assert "bot account" in html and "Offline" in html
    assert html.count("1500?") >= len(PRESETS)  # an unrated bot: provisional 1500s


@pytest.mark.django_db
def test_the_list_costs_the_same_queries_for_one_bot_account_or_many(
    api_client: APIClient, bots: list[Any], user_factory: Callable[..., Any]
) -> None:
    bot_account(user_factory, "robo-0")
    with CaptureQueriesContext(connection) as one:
        assert api_client.get(BOTS).status_code == 200
    for number in range(1, 6):
        bot_account(user_factory, f"robo-{number}")
    with CaptureQueriesContext(connection) as six:
        assert len(api_client.get(BOTS).json()["results"]) == 4 + 6

    assert len(six) == len(one) <= 4  # the built-in bots' ratings are a table of their own
