"""Ratings on the web: the profile page and the (read-only) admin."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import Rating, RatingChange
from games.play.resign import game_resign
from tests.gamekit import everyone_moves

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated_game(started):
    game, users = started(players=2, preset="polish51", rated=True)
    everyone_moves(game, users)
    game_resign(game=game, user=users[1])
    return game, users


def test_the_profile_page_shows_ratings_and_recent_rating_changes(rated_game):
    game, users = rated_game
    change = RatingChange.objects.get(game=game, user=users[0])
    client = Client()
    client.force_login(users[0])

    page = client.get("/accounts/profile/").content.decode()

    # Each rule family by the name it goes by on every page.
    assert "Ratings" in page and "Polish Remik 51" in page and "Serbian" in page
    assert f"{change.rating_after}?" in page  # still provisional; a rating is never grouped
    assert f"/games/{game.public_id}/" in page and f"+{change.change}" in page


def test_a_new_player_has_no_rated_games_yet(user):
    client = Client()
    client.force_login(user)

    page = client.get("/accounts/profile/").content.decode()

    assert "No rated games yet." in page and "1500?" in page


def test_the_profile_page_of_a_bot_account_says_so(user, client_for):
    client_for(user).post("/api/v1/me/bot")
    client = Client()
    client.force_login(user)

    page = client.get("/accounts/profile/").content.decode()

    assert "This is a bot account" in page


def test_rating_changes_are_read_only_in_the_admin(rated_game, admin_client):
    game, _users = rated_game
    change = RatingChange.objects.filter(game=game).first()
    assert change is not None

    listed = admin_client.get("/admin/accounts/ratingchange/")
    shown = admin_client.get(f"/admin/accounts/ratingchange/{change.pk}/change/")
    add = admin_client.get("/admin/accounts/ratingchange/add/")
    edit = admin_client.post(
        f"/admin/accounts/ratingchange/{change.pk}/change/", {"rating_after": 3000}
    )
    delete = admin_client.post(f"/admin/accounts/ratingchange/{change.pk}/delete/", {"post": "yes"})

    assert listed.status_code == 200 and game.public_id in listed.content.decode()
    assert shown.status_code == 200
    assert (add.status_code, edit.status_code, delete.status_code) == (403, 403, 403)
    assert RatingChange.objects.get(pk=change.pk).rating_after == change.rating_after
    assert admin_client.get("/admin/accounts/rating/").status_code == 200


def test_the_leaderboard_shows_the_usernames_of_players_whose_names_read_the_same(
    user_factory,
):
    for username, display_name, rating in [
        ("marko", "Marko", 2100),
        ("petar", "MARKO", 2000),
        ("nina", "Nina", 1900),
    ]:
        player = user_factory(username=username, display_name=display_name)
        Rating.objects.create(
            user=player, rules="serbian", mu=25, sigma=4.0, rating=rating, games=30
        )

    page = Client().get("/accounts/leaderboard/", {"rules": "serbian"}).content.decode()

    assert '>Marko</a> <span class="muted">@marko</span>' in page
    assert '>MARKO</a> <span class="muted">@petar</span>' in page
    assert ">Nina</a>" in page and "@nina" not in page
