"""POST /api/v1/games/{id}/rematch: after a finished game, the same table offered again
as a challenge (same preset, house rules, time control, rated or not, same players);
the other accepts or declines (or asks for the rematch too), a built-in bot accepts at
once, the other's event stream hears of it; refused while the game runs, twice, or when
another player cannot play. Bigger tables: test_rematch_table.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from rest_framework.test import APIClient

from accounts import services
from accounts.deletion import account_delete
from accounts.moderation.services import ban_create
from tests.asyncapi_contract import contract
from tests.gamekit import SchemaChecker, error_of
from tests.live.ws_kit import connect, drain
from tests.user_kit import PASSWORD

TERMS = {
    "preset": "serbian",
    "players": 2,
    "overrides": {"opening_minimum": 41},
    "time_control": "live",
    "seconds_per_turn": 45,
    "visibility": "private",
}


def finished_game(host: APIClient, guest: APIClient, **terms: Any) -> str:
    """A game of ``host`` and ``guest`` on ``terms``, played until ``guest`` resigns."""
    made = host.post("/api/v1/games", {**TERMS, **terms}, format="json")
    assert made.status_code == 201, made.json()
    game = made.json()
    joined = guest.post(
        f"/api/v1/games/{game['id']}/join", {"invite_code": game["invite_code"] or ""}, "json"
    )
    assert joined.status_code == 200, joined.json()
    assert host.post(f"/api/v1/games/{game['id']}/start").status_code == 200
    resigned = guest.post(f"/api/v1/games/{game['id']}/resign")
    assert resigned.json()["status"] == "finished"
    return str(game["id"])


def rematch(client: APIClient, game_id: str) -> Any:
    return client.post(f"/api/v1/games/{game_id}/rematch")


@pytest.fixture
def two(players: Callable[[int], list[APIClient]]) -> list[APIClient]:
    return players(2)


@pytest.mark.django_db
def test_a_rematch_offers_the_same_table_and_its_acceptance_starts_it(
    two: list[APIClient], deals_seeded: Any
) -> None:
    host, guest = two
    game_id = finished_game(host, guest)

    offered = rematch(guest, game_id)

    assert offered.status_code == 201, offered.json()
    body = offered.json()
    SchemaChecker(guest).check("POST", "/api/v1/games/{game_id}/rematch", 201, body)
    assert body["status"] == "pending" and body["rematch_of"] == game_id
    assert body["challenger"]["username"] == guest.user.username
    assert body["destination"]["username"] == host.user.username
    assert (body["preset"], body["overrides"], body["visibility"]) == (
        "serbian",
        {"opening_minimum": 41},
        "private",
    )
    assert body["time_control"]["kind"] == "live"
    assert body["time_control"]["seconds_per_turn"] == 45
    assert body["rated"] is False and body["bots"] == []
    waiting = host.get("/api/v1/challenges?direction=in").json()["results"]
    assert [c["rematch_of"] for c in waiting] == [game_id]

    accepted = host.post(f"/api/v1/challenges/{body['id']}/accept")

    assert accepted.status_code == 200, accepted.json()
    new_game = host.get(f"/api/v1/games/{accepted.json()['game']}").json()
    assert new_game["status"] == "active" and new_game["preset"] == "serbian"
    assert {s["user"]["username"] for s in new_game["seats"]} == {
        host.user.username,
        guest.user.username,
    }
    assert [r["name"] for r in new_game["house_rules"]] == ["opening_minimum"]


@pytest.mark.django_db
def test_a_rematch_may_be_declined(two: list[APIClient], deals_seeded: Any) -> None:
    host, guest = two
    offered = rematch(host, finished_game(host, guest)).json()

    declined = guest.post(
        f"/api/v1/challenges/{offered['id']}/decline", {"reason": "later"}, format="json"
    )

    assert declined.status_code == 200
    assert declined.json()["status"] == "declined" and declined.json()["decline_reason"] == "later"


@pytest.mark.django_db
def test_a_built_in_bot_accepts_a_rematch_at_once(
    auth_client: APIClient, bots: list[Any], deals_seeded: Any
) -> None:
    game = auth_client.post(
        "/api/v1/games/play-now", {"preset": "serbian", "bots": 1, "level": 1}, format="json"
    ).json()
    assert auth_client.post(f"/api/v1/games/{game['id']}/resign").json()["status"] == "finished"

    offered = rematch(auth_client, game["id"])

    assert offered.status_code == 201, offered.json()
    body = offered.json()
    assert body["status"] == "accepted" and body["rematch_of"] == game["id"]
    old_bots = sorted(s["user"]["username"] for s in game["seats"] if s["user"]["is_bot"])
    new_game = auth_client.get(f"/api/v1/games/{body['game']}").json()
    assert new_game["status"] == "active"
    assert sorted(s["user"]["username"] for s in new_game["seats"] if s["user"]["is_bot"]) == (
        old_bots
    )


@pytest.mark.django_db
def test_a_rematch_is_refused_while_the_game_runs_and_for_outsiders(
    two: list[APIClient],
    client_for: Callable[[Any], APIClient],
    user_factory: Any,
    deals_seeded: Any,
) -> None:
    host, guest = two
    made = host.post("/api/v1/games", {**TERMS, "visibility": "public"}, format="json").json()
    guest.post(f"/api/v1/games/{made['id']}/join", {}, format="json")
    host.post(f"/api/v1/games/{made['id']}/start")

    running = rematch(host, made["id"])
    outsider = rematch(client_for(user_factory()), made["id"])
    unknown = rematch(host, "nosuchgame")

    assert running.status_code == 409 and error_of(running)["code"] == "game_not_finished"
    assert error_of(running)["details"] == {"status": "active"}
    assert outsider.status_code == 404 and unknown.status_code == 404


@pytest.mark.django_db
def test_a_game_is_offered_again_once_and_the_other_asking_too_accepts_it(
    two: list[APIClient], deals_seeded: Any
) -> None:
    host, guest = two
    game_id = finished_game(host, guest)
    first = rematch(host, game_id).json()

    again = rematch(host, game_id)
    by_the_other = rematch(guest, game_id)
    after_it = rematch(guest, game_id)

    assert again.status_code == 409 and error_of(again)["code"] == "rematch_exists"
    assert error_of(again)["details"] == {"challenge": first["id"]}
    assert by_the_other.status_code == 200, by_the_other.json()
    assert by_the_other.json()["id"] == first["id"]
    assert by_the_other.json()["status"] == "accepted" and by_the_other.json()["game"]
    assert after_it.status_code == 409 and error_of(after_it)["code"] == "rematch_exists"


@pytest.mark.django_db
def test_no_rematch_with_a_banned_or_deleted_player(
    players: Callable[[int], list[APIClient]], user_factory: Any, deals_seeded: Any
) -> None:
    host, banned, gone = players(3)
    with_banned = finished_game(host, banned)
    with_gone = finished_game(host, gone)
    ban_create(user=banned.user, moderator=user_factory(), reason="abuse", permanent=True)
    account_delete(user=gone.user, password=PASSWORD)

    for game_id, other in ((with_banned, banned), (with_gone, gone)):
        refused = rematch(host, game_id)
        assert refused.status_code == 403, refused.json()
        assert error_of(refused)["code"] == "player_unavailable"
        assert error_of(refused)["details"] == {"username": other.user.username}
    assert not host.get("/api/v1/challenges?direction=out").json()["results"]


@pytest.mark.django_db
def test_no_rated_rematch_between_a_bot_account_and_a_person_once_the_site_forbids_it(
    two: list[APIClient],
    client_for: Callable[[Any], APIClient],
    user_factory: Any,
    settings: Any,
    deals_seeded: Any,
) -> None:
    person, _ = two
    robo = client_for(user_factory(username="robo"))
    assert robo.post("/api/v1/me/bot").status_code == 200
    settings.REMI_BOTS_RATED_VS_HUMANS = True
    game_id = finished_game(person, robo, rated=True, visibility="public")
    settings.REMI_BOTS_RATED_VS_HUMANS = False

    refused = rematch(person, game_id)

    assert refused.status_code == 403 and error_of(refused)["code"] == "bots_rated_vs_humans"


@pytest.mark.django_db
def test_a_rematch_needs_the_challenge_scope(two: list[APIClient], deals_seeded: Any) -> None:
    host, guest = two
    game_id = finished_game(host, guest)
    _token, raw = services.token_create(user=host.user, name="play-only", scopes=["play"])
    player = APIClient()
    player.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")

    refused = rematch(player, game_id)

    assert refused.status_code == 403 and error_of(refused)["details"] == {"scope": "challenge"}


@pytest.mark.django_db(transaction=True)
async def test_the_other_player_hears_of_the_rematch_in_their_event_stream(
    players: Callable[[int], list[APIClient]], token_factory: Any, deals_seeded: Any
) -> None:
    host, guest = await database_sync_to_async(players)(2)
    game_id = await database_sync_to_async(finished_game)(host, guest)
    _token, raw = await database_sync_to_async(token_factory)(host.user, "ws")
    client = await connect(raw)
    await client.send_json_to({"type": "subscribe", "stream": "events"})
    await drain(client)  # the subscription's answer and the state

    offered = await database_sync_to_async(rematch)(guest, game_id)

    frames = [await client.receive_json_from(timeout=10)]
    while frames[-1]["type"] != "challenge":
        frames.append(await client.receive_json_from(timeout=10))
    frames = [f for f in frames + await drain(client) if f["type"] == "challenge"]
    assert len(frames) == 1
    assert frames[0]["direction"] == "in"
    assert frames[0]["challenge"]["id"] == offered.json()["id"]
    assert frames[0]["challenge"]["rematch_of"] == game_id
    contract().check_server_frame(frames[0])
    await client.disconnect()
