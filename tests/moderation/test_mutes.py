"""A chat mute: for its period the player's lines are refused, over the API and over
the websocket alike, with the reason and the end; then, or once lifted, they chat."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import timezone

from accounts.models import ModAction, Sanction
from accounts.moderation import services
from games.models import ChatMessage, Game
from tests.gamekit import error_of
from tests.live.ws_kit import connect, drain


def chat_url(game: Game) -> str:
    return f"/api/v1/games/{game.public_id}/chat"


def mute(user: Any, moderator: Any, hours: float = 2, reason: str = "insults") -> Sanction:
    ends_at = timezone.now() + timedelta(hours=hours)
    return services.mute_create(user=user, moderator=moderator, reason=reason, ends_at=ends_at)


@pytest.mark.django_db
def test_a_muted_player_cannot_chat_over_the_api_until_unmuted(
    started: Callable[..., Any], client_for: Callable[[Any], Any], moderator: Any
) -> None:
    game, users = started(players=2)
    loud = client_for(users[0])
    mute(users[0], moderator, reason="insults at the table")

    refused = loud.post(chat_url(game), {"text": "you cheat"}, format="json")
    services.mute_lift(user=users[0], moderator=moderator, reason="apologised")
    allowed = loud.post(chat_url(game), {"text": "sorry"}, format="json")

    assert refused.status_code == 403
    error = error_of(refused)
    assert error["code"] == "muted"
    assert error["details"]["reason"] == "insults at the table"
    assert error["details"]["until"] is not None
    assert "You are muted in chat until" in error["message"]
    assert allowed.status_code == 201
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["sorry"]


@pytest.mark.django_db
def test_a_mute_ends_by_itself_and_mutes_nobody_else(
    started: Callable[..., Any], client_for: Callable[[Any], Any], moderator: Any
) -> None:
    game, users = started(players=2)
    sanction = mute(users[0], moderator)

    other = client_for(users[1]).post(chat_url(game), {"text": "hello"}, format="json")
    Sanction.objects.filter(pk=sanction.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    after = client_for(users[0]).post(chat_url(game), {"text": "hi"}, format="json")

    assert other.status_code == 201 and after.status_code == 201


@pytest.mark.django_db
def test_a_moderator_mutes_from_the_admin_and_the_player_reads_it(
    user: Any, moderator: Any, moderator_client: Client, client_for: Callable[[Any], Any]
) -> None:
    response = moderator_client.post(
        f"/admin/auth/user/{user.pk}/act/mute/", {"reason": "spam", "length": "6", "unit": "hours"}
    )

    assert response.status_code == 302
    mine = client_for(user).get("/api/v1/me/sanctions").json()
    assert mine["playban"] is None
    assert mine["mute"]["kind"] == "mute" and mine["mute"]["reason"] == "spam"
    logged = ModAction.objects.get()
    assert (logged.action, logged.moderator, logged.target) == ("mute", moderator, user)
    assert logged.details["until"] is not None

    unmuted = moderator_client.post(
        f"/admin/auth/user/{user.pk}/act/unmute/", {"reason": "served enough"}
    )
    again = moderator_client.post(f"/admin/auth/user/{user.pk}/act/unmute/", {"reason": "twice"})

    assert unmuted.status_code == 302
    assert client_for(user).get("/api/v1/me/sanctions").json()["mute"] is None
    assert again.status_code == 200 and b"has no mute in force" in again.content
    assert list(ModAction.objects.order_by("id").values_list("action", flat=True)) == [
        "mute",
        "unmute",
    ]


@pytest.mark.django_db
def test_a_mute_needs_a_reason_in_the_admin(user: Any, moderator_client: Client) -> None:
    response = moderator_client.post(
        f"/admin/auth/user/{user.pk}/act/mute/", {"reason": "", "length": "6", "unit": "hours"}
    )

    assert response.status_code == 200  # the form again, with its error
    assert b"Choose a preset reason or write one." in response.content
    assert not Sanction.objects.exists() and not ModAction.objects.exists()


@pytest.mark.django_db(transaction=True)
async def test_a_muted_player_cannot_chat_over_the_websocket(
    started: Callable[..., Any], token_factory: Callable[..., Any], moderator: Any
) -> None:
    game, (loud, quiet) = await database_sync_to_async(started)(players=2)
    clients = []
    for person in (loud, quiet):
        _, raw = await database_sync_to_async(token_factory)(person)
        client = await connect(raw)
        await client.send_json_to({"type": "subscribe", "game": game.public_id, "ply": game.ply})
        assert (await client.receive_json_from())["type"] == "subscribed"
        clients.append(client)
    await database_sync_to_async(mute)(loud, moderator, 1, "shouting")

    await clients[0].send_json_to({"type": "chat", "game": game.public_id, "text": "HEY"})
    refused = await clients[0].receive_json_from()
    await clients[1].send_json_to({"type": "chat", "game": game.public_id, "text": "calm down"})

    assert refused["type"] == "error" and refused["code"] == "muted"
    assert refused["game"] == game.public_id
    assert refused["details"]["reason"] == "shouting"
    heard = [e for e in await drain(clients[0], expect=1) if e["type"] == "chat"]
    assert [e["message"]["text"] for e in heard] == ["calm down"]
    sent = await drain(clients[1], expect=2)
    assert sent[0]["type"] == "chat_sent"
    assert [e["message"]["text"] for e in sent if e["type"] == "chat"] == ["calm down"]
    assert await database_sync_to_async(
        lambda: list(ChatMessage.objects.values_list("text", flat=True))
    )() == ["calm down"]
    for client in clients:
        await client.disconnect()
