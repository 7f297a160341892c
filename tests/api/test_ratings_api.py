"""Ratings through the API: /me, /users/{username}, /leaderboard, a finished rated
game's rating changes, and creating rated games; every answer against the schema."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from accounts.models import Rating, RatingChange
from games import ratings
from tests.gamekit import SchemaChecker, error_of, everyone_moves, quick_actions, table_create

pytestmark = pytest.mark.django_db

ME = "/api/v1/me"
LEADERBOARD = "/api/v1/leaderboard"
USER = "/api/v1/users/{username}"
GAME = "/api/v1/games/{game_id}"


def rated_table(clients):
    """A rated serbian game of one (quick) deal: seat 0 starts and goes out."""
    response = clients[0].post(
        "/api/v1/games",
        {"preset": "serbian", "players": 2, "rated": True, "overrides": {"match_deals": [1, 1, 1]}},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["time_control"]["rated"] is True
    game_id = response.json()["id"]
    assert clients[1].post(f"/api/v1/games/{game_id}/join", {}, format="json").status_code == 200
    assert clients[0].post(f"/api/v1/games/{game_id}/start").status_code == 200
    return game_id


def rating(user, rules, mu, sigma, games=20):
    return Rating.objects.create(
        user=user, rules=rules, mu=mu, sigma=sigma, rating=ratings.displayed(mu), games=games
    )


# ------------------------------------------------------------------ a rated game


def test_a_finished_rated_game_shows_each_seats_rating_change(players, quick_deals):
    clients = players(2)
    game_id = rated_table(clients)
    ply = 0
    for action in quick_actions():
        response = clients[0].post(
            f"/api/v1/games/{game_id}/actions", {"action": action.to_dict(), "ply": ply}
        )
        assert response.status_code == 200, response.json()
        ply = response.json()["game"]["ply"]

    response = clients[1].get(f"/api/v1/games/{game_id}")

    body = response.json()
    assert body["status"] == "finished" and body["winners"] == [0]
    won, lost = body["rating_changes"]
    assert (won["position"], won["rank"], lost["position"], lost["rank"]) == (0, 1, 1, 2)
    assert won["rating_before"] == lost["rating_before"] == 1500
    assert won["rating_after"] > 1500 > lost["rating_after"]
    assert won["change"] == won["rating_after"] - 1500 and won["provisional"] is True
    SchemaChecker(clients[1]).check("GET", GAME, 200, body)
    me = clients[0].get(ME).json()
    serbian = next(entry for entry in me["ratings"] if entry["rules"] == "serbian")
    assert (serbian["rating"], serbian["games"]) == (won["rating_after"], 1)


def test_a_rated_game_left_before_a_first_move_shows_no_rating_change(players, quick_deals):
    clients = players(2)
    game_id = rated_table(clients)

    response = clients[0].post(f"/api/v1/games/{game_id}/resign")  # seat 0 never moved
    assert response.status_code == 200, response.json()

    body = clients[1].get(f"/api/v1/games/{game_id}").json()
    assert body["status"] == "finished" and body["winners"] == [1]
    assert body["rating_changes"] == []
    SchemaChecker(clients[1]).check("GET", GAME, 200, body)
    me = clients[1].get(ME).json()
    assert all(entry["games"] == 0 for entry in me["ratings"])


def test_running_and_casual_games_show_no_rating_changes(players, deals_seeded):
    table = table_create(players(2), preset="polish51")

    running = table.view(0)
    table.clients[0].post(table.url("/resign"))
    finished = table.view(1)

    assert running["rating_changes"] is None and finished["rating_changes"] is None
    SchemaChecker(table.clients[1]).check("GET", GAME, 200, finished)


def test_a_rated_game_with_built_in_bots_is_refused(auth_client, bots):
    response = auth_client.post(
        "/api/v1/games",
        {"preset": "serbian", "players": 2, "rated": True, "bots": [bots[0].username]},
        format="json",
    )

    assert response.status_code == 400
    assert error_of(response)["code"] == "rated_with_bots"
    SchemaChecker(auth_client).check("POST", "/api/v1/games", 400, response.json())


def test_play_now_games_are_casual(auth_client, bots):
    response = auth_client.post("/api/v1/games/play-now", {"preset": "polish51"}, format="json")

    assert response.status_code == 201
    assert response.json()["time_control"]["rated"] is False


# ------------------------------------------------------------------ /me and /users


def test_me_shows_a_rating_per_rule_family(auth_client, user):
    rating(user, "polish51", mu=30.0, sigma=5.0, games=14)

    body = auth_client.get(ME).json()

    assert body["ratings"] == [
        {"rules": "macedonian", "rating": 1500, "deviation": 500, "provisional": True, "games": 0},
        {"rules": "serbian", "rating": 1500, "deviation": 500, "provisional": True, "games": 0},
        {
            "rules": "serbian_old_remi",
            "rating": 1500,
            "deviation": 500,
            "provisional": True,
            "games": 0,
        },
        {"rules": "polish51", "rating": 1800, "deviation": 300, "provisional": False, "games": 14},
    ]
    SchemaChecker(auth_client).check("GET", ME, 200, body)


def test_a_public_profile_shows_ratings_and_recent_changes(api_client, started):
    game, users = started(players=2, preset="polish51", rated=True)
    from games.play.resign import game_resign

    everyone_moves(game, users)
    game_resign(game=game, user=users[1])

    response = api_client.get(USER.format(username=users[0].username.upper()))

    assert response.status_code == 200
    body = response.json()
    assert body["username"] == users[0].username and body["is_bot"] is False
    (change,) = body["recent_rating_changes"]
    assert change["game"] == game.public_id and change["rank"] == 1 and change["change"] > 0
    polish = next(entry for entry in body["ratings"] if entry["rules"] == "polish51")
    assert polish["games"] == 1 and polish["rating"] == change["rating_after"]
    SchemaChecker(api_client).check("GET", USER, 200, body)


def test_an_unknown_player_is_not_found(api_client, db):
    response = api_client.get(USER.format(username="nobody"))

    assert response.status_code == 404 and error_of(response)["code"] == "not_found"
    SchemaChecker(api_client).check("GET", USER, 404, response.json())


# ------------------------------------------------------------------ the leaderboard


def test_the_leaderboard_lists_established_ratings_best_first(api_client, user_factory):
    strong, middle, weak, newcomer = (user_factory() for _ in range(4))
    rating(middle, "serbian", mu=28.0, sigma=4.0)
    rating(strong, "serbian", mu=33.0, sigma=3.0)
    rating(weak, "serbian", mu=20.0, sigma=5.0)
    rating(newcomer, "serbian", mu=40.0, sigma=7.5, games=2)  # provisional: left out
    rating(weak, "macedonian", mu=45.0, sigma=3.0)  # another family

    response = api_client.get(LEADERBOARD, {"rules": "serbian"})

    assert response.status_code == 200
    body = response.json()
    assert body["rules"] == "serbian"
    assert [(p["rank"], p["username"]) for p in body["results"]] == [
        (1, strong.username),
        (2, middle.username),
        (3, weak.username),
    ]
    assert body["results"][0]["rating"] == 1980 and body["results"][0]["deviation"] == 180
    SchemaChecker(api_client).check("GET", LEADERBOARD, 200, body)
    top = api_client.get(LEADERBOARD, {"rules": "serbian", "page_size": 2}).json()
    assert [(p["rank"], p["username"]) for p in top["results"]] == [
        (1, strong.username),
        (2, middle.username),
    ]
    rest = api_client.get(top["next"]).json()
    assert [(p["rank"], p["username"]) for p in rest["results"]] == [(3, weak.username)]
    assert rest["next"] is None and rest["rules"] == "serbian"
    assert api_client.get(rest["previous"]).json()["results"] == top["results"]


def test_the_leaderboard_needs_a_known_rule_family(api_client, db):
    missing = api_client.get(LEADERBOARD)
    unknown = api_client.get(LEADERBOARD, {"rules": "canasta"})
    too_many = api_client.get(LEADERBOARD, {"rules": "serbian", "page_size": 1000})

    for response, field in ((missing, "rules"), (unknown, "rules"), (too_many, "page_size")):
        assert response.status_code == 400
        assert field in error_of(response)["details"]["fields"]
        SchemaChecker(api_client).check("GET", LEADERBOARD, 400, response.json())


def test_the_leaderboard_leaves_out_inactive_accounts(api_client, user_factory):
    gone = user_factory()
    rating(gone, "serbian", mu=30.0, sigma=3.0)
    get_user_model().objects.filter(pk=gone.pk).update(is_active=False)

    assert api_client.get(LEADERBOARD, {"rules": "serbian"}).json()["results"] == []
    assert not RatingChange.objects.exists()
