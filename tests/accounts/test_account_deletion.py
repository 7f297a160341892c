"""Deleting one's account: anonymised, signed out everywhere, running games resigned,
and the other players' games, statistics and ratings exactly as they were."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import ApiToken, Rating, RatingChange
from games.models import Game, PlayerStats, Seat
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from games.play.resign import game_resign
from tests.accounts.account_kit import finished_game, web_client
from tests.gamekit import everyone_moves

pytestmark = pytest.mark.django_db

DELETE_API = "/api/v1/me/delete"
CSRF = re.compile(r'(name="csrf-token" content="|name="csrfmiddlewaretoken" value=")[^"]+')


def game_page(client: Any, game: Game) -> dict[str, Any]:
    """What an opponent sees of a game: its API state and move log, and the web page."""
    state = client.get(f"/api/v1/games/{game.public_id}")
    moves = client.get(f"/api/v1/games/{game.public_id}/moves")
    assert state.status_code == moves.status_code == 200
    return {"state": state.json(), "moves": moves.json()}


def web_page(client: Client, game: Game) -> str:
    response = client.get(f"/games/{game.public_id}/")
    assert response.status_code == 200
    return CSRF.sub(r"\1…", response.content.decode())


def without_name(page: str, user: Any) -> str:
    """The web page with ``user``'s current names blanked (the score sheet names every
    seat): before the deletion their own, after it the placeholder's."""
    now = get_user_model().objects.select_related("profile").get(pk=user.pk)
    for name in (now.username, now.profile.display_name):
        if name:
            page = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", "-", page)
    return page


def without_player(page: dict[str, Any], game: Game, user: Any) -> dict[str, Any]:
    """The page with ``user``'s name blanked where it shows (their seat, and the host's
    name if theirs): the one thing that deleting their account changes for others."""
    position = Seat.objects.get(game=game, user=user).position
    state = dict(page["state"])
    state["seats"] = [
        {**seat, "user": {**seat["user"], "username": "-", "display_name": "-"}}
        if seat["position"] == position
        else seat
        for seat in state["seats"]
    ]
    if game.owner_id == user.pk:
        state["owner"] = "-"
    return {**page, "state": state}


def ratings_and_stats(user: Any) -> dict[str, Any]:
    return {
        "ratings": list(Rating.objects.filter(user=user).values().order_by("rules")),
        "changes": list(RatingChange.objects.filter(user=user).values().order_by("id")),
        "stats": list(PlayerStats.objects.filter(user=user).values().order_by("rules")),
    }


@pytest.fixture
def history_with_ana(started, user_factory):
    """Ana won a rated game against Bora, and lost a casual three-seat game that Bora
    hosted and won, with Cvijeta at the table too."""
    rated = finished_game(started, rated=True, winner=0)
    ana, bora = rated.users
    cvijeta = user_factory()
    casual = game_create(owner=bora, preset="serbian", players=3)
    game_join(game=casual, user=ana)
    game_join(game=casual, user=cvijeta)
    casual = game_start(game=casual, user=bora)
    everyone_moves(casual, [bora, ana, cvijeta])
    game_resign(game=casual, user=ana)
    game_resign(game=casual, user=cvijeta)
    casual.refresh_from_db()
    assert casual.status == Game.Status.FINISHED and casual.winners == [0]
    return ana, [bora, cvijeta], [rated, casual]


def test_deleting_an_account_leaves_the_opponents_games_statistics_and_ratings_as_they_were(
    history_with_ana, client_for, password
):
    ana, opponents, games = history_with_ana
    viewers = [(person, client_for(person), web_client(person)) for person in opponents]

    def snapshot() -> dict[str, Any]:
        shared = [
            (person, api, web, game)
            for person, api, web in viewers
            for game in games
            if Seat.objects.filter(game=game, user=person).exists()
        ]
        return {
            "pages": [
                without_player(game_page(api, game), game, ana) for _, api, _, game in shared
            ],
            "web": [without_name(web_page(web, game), ana) for _, _, web, game in shared],
            "profiles": [api.get(f"/api/v1/users/{p.username}").json() for p, api, _ in viewers],
            "rows": [ratings_and_stats(person) for person, _, _ in viewers],
            "ana_rating_changes": list(
                RatingChange.objects.filter(user=ana).values().order_by("id")
            ),
        }

    before = snapshot()
    bora = viewers[0][1]
    seat_before = game_page(bora, games[0])["state"]["seats"][0]["user"]

    response = client_for(ana).post(DELETE_API, {"password": password})

    assert response.status_code == 204
    assert len(before["pages"]) == 3 and len(before["ana_rating_changes"]) == 1
    assert snapshot() == before
    seat_after = game_page(bora, games[0])["state"]["seats"][0]["user"]
    assert seat_before["username"] == ana.username
    assert seat_after == {
        **seat_before,
        "username": f"deleted-{ana.pk}",
        "display_name": "Deleted player",
    }


def test_a_deleted_account_is_anonymised_and_signed_out_everywhere(user, client_for, password):
    user.email = "ana@example.com"
    user.profile.bio, user.profile.country, user.profile.avatar = "Hi", "RS", "🃏"
    user.profile.pending_email = "new@example.com"
    user.profile.save()
    user.save()
    api, session = client_for(user), web_client(user)

    page = session.get("/settings/delete/")
    response = session.post("/settings/delete/", {"password": password}, follow=True)

    assert page.status_code == 200 and "Delete your account" in page.content.decode()
    assert response.redirect_chain[-1][0] == "/"
    assert "Your account is deleted" in response.content.decode()
    deleted = get_user_model().objects.get(pk=user.pk)
    profile = deleted.profile
    assert deleted.username == f"deleted-{user.pk}" and deleted.email == ""
    assert not deleted.is_active and not deleted.has_usable_password()
    assert (profile.display_name, profile.bio, profile.country, profile.avatar) == (
        "Deleted player",
        "",
        "",
        "",
    )
    assert profile.pending_email == "" and profile.deleted_at is not None
    assert not ApiToken.objects.filter(user=user).exists()
    assert api.get("/api/v1/me").status_code == 401
    assert session.get("/settings/").status_code == 302
    assert Client().get("/accounts/players/ana/").status_code == 404
    login = Client().post("/accounts/login/", {"username": "ana", "password": password})
    assert login.status_code == 200  # the form again: no such account


def test_another_session_of_the_deleted_account_ends_too(user, client_for, password):
    other_session = web_client(user)

    client_for(user).post(DELETE_API, {"password": password})

    assert other_session.get("/settings/").status_code == 302
    assert other_session.get("/api/v1/me").status_code in (401, 403)


def test_deleting_needs_the_password(user, client_for):
    api = client_for(user)

    web = web_client(user).post("/settings/delete/", {"password": "wrong"})
    response = api.post(DELETE_API, {"password": "wrong"})
    missing = api.post(DELETE_API, {})

    assert web.status_code == 400 and "That is not your password." in web.content.decode()
    assert response.status_code == 400 and response.json()["error"]["code"] == "wrong_password"
    assert missing.status_code == 400
    user.refresh_from_db()
    assert user.is_active and user.username == "ana"


def test_running_games_are_resigned_and_lobby_seats_given_up(started, lobby, client_for, password):
    running, (ana, rival) = started(players=2)
    hosted = game_create(owner=ana, preset="serbian", players=3)
    joined, _ = lobby(players=3, seated=2)
    game_join(game=joined, user=ana)

    assert client_for(ana).post(DELETE_API, {"password": password}).status_code == 204

    running.refresh_from_db()
    hosted.refresh_from_db()
    joined.refresh_from_db()
    assert running.status == Game.Status.FINISHED and running.end_reason == "resigned"
    assert running.winners == [Seat.objects.get(game=running, user=rival).position]
    assert hosted.status == Game.Status.ABORTED
    assert joined.status == Game.Status.LOBBY
    assert not Seat.objects.filter(game=joined, user=ana).exists()


def test_a_built_in_bot_cannot_be_deleted(bots, client_for):
    response = client_for(bots[0]).post(DELETE_API, {"password": "anything"})

    assert response.status_code == 409 and response.json()["error"]["code"] == "cannot_delete"
