"""API token scopes: a token does only what it was created for (read, play, challenge,
bot:play, account), over HTTP, the NDJSON streams and the websocket; a web session and
a token made without naming scopes can do everything; the schema names each call's
scope; the profile page creates scoped tokens and lists their scopes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import URLResolver, get_resolver
from rest_framework.test import APIClient

from accounts import services
from accounts.models import ApiToken
from accounts.scopes import _WRITES, TokenScopePermission
from tests.gamekit import error_of
from tests.live.ws_kit import connect, drain, websocket
from tests.user_kit import PASSWORD

TOKENS = "/api/v1/tokens"
EVERY_SCOPE = ["read", "play", "challenge", "bot:play", "account"]


def bearer(raw: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    return client


def scoped(user: Any, *scopes: str) -> APIClient:
    _token, raw = services.token_create(user=user, name="scoped", scopes=list(scopes))
    return bearer(raw)


def refused_for(response: Any, scope: str) -> None:
    assert response.status_code == 403, response.content
    error = error_of(response)
    assert error["code"] == "insufficient_scope"
    assert error["details"] == {"scope": scope}
    assert scope in error["message"]


@pytest.mark.django_db
def test_a_token_is_created_with_its_scopes_and_listed_with_them(auth_client: APIClient) -> None:
    made = auth_client.post(TOKENS, {"name": "watcher", "scopes": ["read"]}, format="json")

    assert made.status_code == 201, made.json()
    assert made.json()["scopes"] == ["read"]
    listed = {t["name"]: t["scopes"] for t in auth_client.get(TOKENS).json()["results"]}
    assert listed == {"watcher": ["read"], "test": EVERY_SCOPE}


@pytest.mark.django_db
def test_a_token_made_without_naming_scopes_has_every_scope(auth_client: APIClient) -> None:
    made = auth_client.post(TOKENS, {"name": "all"}, format="json")

    assert made.json()["scopes"] == EVERY_SCOPE


@pytest.mark.django_db
@pytest.mark.parametrize("scopes", [["admin"], [], "read", [["read"]]])
def test_unknown_or_malformed_scopes_are_refused(auth_client: APIClient, scopes: Any) -> None:
    response = auth_client.post(TOKENS, {"name": "x", "scopes": scopes}, format="json")

    assert response.status_code == 400
    assert error_of(response)["details"]["fields"]["scopes"]
    assert not ApiToken.objects.filter(name="x").exists()


@pytest.mark.django_db
def test_a_read_only_token_reads_but_cannot_move_challenge_or_make_tokens(
    started: Callable[..., tuple[Any, list[Any]]], user_factory: Callable[..., Any]
) -> None:
    game, users = started(2)
    reader = scoped(users[0], "read")
    user_factory(username="bob")

    assert reader.get("/api/v1/me").status_code == 200
    assert reader.get(f"/api/v1/games/{game.public_id}").status_code == 200
    refused_for(reader.post(f"/api/v1/games/{game.public_id}/resign", {}, format="json"), "play")
    refused_for(
        reader.post("/api/v1/challenges", {"to": "bob", "preset": "serbian"}, format="json"),
        "challenge",
    )
    refused_for(reader.post(TOKENS, {"name": "more"}, format="json"), "account")
    refused_for(reader.get(TOKENS), "account")
    refused_for(reader.post("/api/v1/me/delete", {}, format="json"), "account")
    game.refresh_from_db()
    assert game.status == "active"
    assert ApiToken.objects.filter(user=users[0]).count() == 1


@pytest.mark.django_db
def test_a_play_token_plays_but_cannot_challenge(
    started: Callable[..., tuple[Any, list[Any]]], user_factory: Callable[..., Any]
) -> None:
    game, users = started(2)
    player = scoped(users[0], "play")
    user_factory(username="bob")

    refused_for(
        player.post("/api/v1/challenges", {"to": "bob", "preset": "serbian"}, format="json"),
        "challenge",
    )
    resigned = player.post(f"/api/v1/games/{game.public_id}/resign", {}, format="json")

    assert resigned.status_code == 200, resigned.json()


@pytest.mark.django_db
def test_a_bot_play_token_plays_and_a_challenge_token_challenges(
    started: Callable[..., tuple[Any, list[Any]]], user_factory: Callable[..., Any]
) -> None:
    game, users = started(2)
    user_factory(username="bob")
    challenger = scoped(users[1], "challenge")

    made = challenger.post("/api/v1/challenges", {"to": "bob", "preset": "serbian"}, format="json")
    resigned = scoped(users[0], "bot:play").post(
        f"/api/v1/games/{game.public_id}/resign", {}, format="json"
    )

    assert made.status_code == 201, made.json()
    assert resigned.status_code == 200, resigned.json()


@pytest.mark.django_db
def test_a_web_session_has_every_scope(user: Any) -> None:
    browser = APIClient()
    browser.force_login(user)

    made = browser.post(TOKENS, {"name": "from-the-site", "scopes": ["read"]}, format="json")

    assert made.status_code == 201


@pytest.mark.django_db
def test_the_event_stream_needs_the_read_scope(user: Any) -> None:
    refused_for(scoped(user, "play").get("/api/v1/stream/events"), "read")


@pytest.mark.django_db
def test_a_game_stream_needs_the_read_scope(started: Callable[..., tuple[Any, list[Any]]]) -> None:
    game, users = started(2)

    refused_for(scoped(users[0], "play").get(f"/api/v1/games/{game.public_id}/stream"), "read")


@pytest.mark.django_db
def test_the_schema_names_each_operations_scope_and_the_refusal(api_client: APIClient) -> None:
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paths = schema["paths"]

    expected = {
        ("/api/v1/tokens", "post"): "account",
        ("/api/v1/tokens", "get"): "account",
        ("/api/v1/games/{game_id}/resign", "post"): "play",
        ("/api/v1/games/{game_id}/turn", "post"): "play",
        ("/api/v1/challenges", "post"): "challenge",
        ("/api/v1/me/bot", "post"): "bot:play",
        ("/api/v1/games/{game_id}", "get"): None,  # open to visitors: no token needed
        ("/api/v1/stream/events", "get"): "read",
    }
    for (path, method), scope in expected.items():
        operation = paths[path][method]
        assert operation.get("x-token-scope") == scope, (path, method)
        if scope is not None:
            assert f"Token scope: `{scope}`." in operation["description"]
            assert "insufficient_scope" in operation["responses"]["403"]["description"]


@pytest.mark.django_db
def test_the_profile_page_creates_a_scoped_token_and_lists_its_scopes(user: Any) -> None:
    browser = Client()
    browser.force_login(user)

    page = browser.post(
        "/accounts/tokens/", {"name": "reader", "scopes": ["read", "challenge"]}, follow=True
    )

    assert page.status_code == 200
    token = ApiToken.objects.get(user=user, name="reader")
    assert token.scopes == ["read", "challenge"]
    html = page.content.decode()
    assert "<code>read</code> <code>challenge</code>" in html
    assert 'value="bot:play"' in html  # the form offers every scope


@pytest.mark.django_db
def test_the_profile_page_refuses_a_token_without_scopes(user: Any) -> None:
    browser = Client()
    browser.force_login(user)

    page = browser.post("/accounts/tokens/", {"name": "none"})

    assert page.status_code == 400
    assert not ApiToken.objects.filter(user=user, name="none").exists()


# ------------------------------------------------------------------ the websocket


@pytest.mark.django_db(transaction=True)
async def test_a_websocket_with_a_token_without_read_is_closed_with_4403(
    user_factory: Callable[..., Any],
) -> None:
    person = await database_sync_to_async(user_factory)(username="writer")
    _token, raw = await database_sync_to_async(services.token_create)(
        user=person, name="w", scopes=["play"]
    )
    client = websocket(raw)

    connected, _ = await client.connect()

    assert connected
    assert await client.receive_output(timeout=2) == {"type": "websocket.close", "code": 4403}


@pytest.mark.django_db(transaction=True)
async def test_chat_on_the_websocket_needs_the_play_scope(
    started: Callable[..., tuple[Any, list[Any]]],
) -> None:
    game, users = await database_sync_to_async(started)(2)
    _token, raw = await database_sync_to_async(services.token_create)(
        user=users[0], name="r", scopes=["read"]
    )
    client = await connect(raw)
    await client.send_json_to({"type": "subscribe", "game": game.public_id, "ply": game.ply})
    assert (await client.receive_json_from())["type"] == "subscribed"

    await client.send_json_to({"type": "chat", "game": game.public_id, "text": "hello"})

    answer = await client.receive_json_from(timeout=10)
    assert answer["type"] == "error" and answer["code"] == "insufficient_scope"
    assert answer["details"] == {"scope": "play"}
    assert await drain(client) == []  # and nothing was said at the table
    await client.disconnect()


def test_every_write_of_the_api_has_its_scope_decided() -> None:
    """A new endpoint that writes must be given its scope in accounts.scopes (until
    then only an `account` token may call it): each one here is named in the table."""

    undecided, checked = [], []
    for prefix in get_resolver().url_patterns:
        if not isinstance(prefix, URLResolver) or prefix.namespace not in (
            "accounts-api",
            "games-api",
        ):
            continue
        for pattern in prefix.url_patterns:
            view = pattern.callback.view_class  # type: ignore[union-attr]
            guarded = any(
                isinstance(permission, TokenScopePermission)
                for permission in view().get_permissions()
            )
            writes = {"post", "put", "patch", "delete"} & set(dir(view))
            name = f"{prefix.namespace}:{pattern.name}"
            if guarded and writes:
                checked.append(name)
                if name not in _WRITES:
                    undecided.append(name)

    assert undecided == []
    assert {"games-api:rematch", "games-api:turn", "accounts-api:tokens"} <= set(checked)


@pytest.mark.django_db(transaction=True)
def test_tokens_made_before_scopes_keep_every_scope(user: Any) -> None:
    _token, raw = services.token_create(user=user, name="old")
    executor = MigrationExecutor(connection)
    try:
        executor.migrate([("accounts", "0006_moderation_warnings_claims_appeals")])  # before scopes
        executor = MigrationExecutor(connection)
        executor.migrate([("accounts", "0007_api_token_scopes")])
    finally:
        MigrationExecutor(connection).migrate(executor.loader.graph.leaf_nodes("accounts"))

    assert ApiToken.objects.get(name="old").scopes == EVERY_SCOPE
    assert bearer(raw).post(TOKENS, {"name": "newer"}, format="json").status_code == 201


@pytest.mark.django_db
def test_signing_in_may_make_a_scoped_token(api_client: APIClient, user: Any) -> None:
    signed_in = api_client.post(
        "/api/v1/auth/login",
        {"username": "ana", "password": PASSWORD, "token_name": "bot", "token_scopes": ["read"]},
        format="json",
    )

    assert signed_in.status_code == 200, signed_in.json()
    token = signed_in.json()["token"]
    assert token["scopes"] == ["read"]
    refused_for(bearer(token["token"]).post(TOKENS, {"name": "more"}, format="json"), "account")
