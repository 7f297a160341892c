"""POST/GET /api/v1/games and GET /api/v1/games/{id}."""

from __future__ import annotations

import pytest

from games.engine import PRESETS
from games.models import Game
from games.play.create import game_create
from games.play.resign import game_resign
from tests.gamekit import SchemaChecker, assert_view_hides_secrets, error_of

pytestmark = pytest.mark.django_db

GAMES = "/api/v1/games"


def create(client, **body):
    body.setdefault("preset", "serbian")
    body.setdefault("players", 2)
    return client.post(GAMES, body, format="json")


def test_it_creates_a_game_with_house_rules(auth_client):
    response = create(
        auth_client, preset="macedonian", players=3, overrides={"opening_minimum": 41}
    )

    assert response.status_code == 201
    view = response.json()
    game = Game.objects.get(public_id=view["id"])
    assert game.ruleset == PRESETS["macedonian"].replace(opening_minimum=41).to_dict()
    assert view["ruleset"]["opening_minimum"] == 41
    assert view["status"] == "lobby" and view["you"] == 0 and view["deal"] is None
    assert view["can"] == {
        "join": False,
        "leave": True,
        "start": False,
        "abort": True,
        "resign": False,
        "act": [],
    }
    SchemaChecker(auth_client).check("POST", GAMES, 201, view)


def test_it_creates_a_private_game_with_an_invite_code(auth_client):
    view = create(auth_client, visibility="private").json()

    assert view["visibility"] == "private" and len(view["invite_code"]) == 10


def test_it_seats_bots(auth_client, bots):
    view = create(auth_client, players=3, bots=[bots[0].username, bots[2].username]).json()

    assert [s["user"]["username"] for s in view["seats"]] == [
        "ana",
        bots[0].username,
        bots[2].username,
    ]
    assert [s["user"]["is_bot"] for s in view["seats"]] == [False, True, True]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"preset": "klondike"}, "invalid"),
        ({"players": 9}, "invalid"),
        ({"overrides": {"hand_size": 99}}, "invalid_ruleset"),
        ({"overrides": {"nope": 1}}, "invalid_ruleset"),
        ({"time_control": "live", "seconds_per_turn": 1}, "invalid_time_control"),
        ({"bots": ["nobody"]}, "unknown_bot"),
        ({"players": 2, "bots": ["a", "b"]}, "unknown_bot"),
    ],
)
def test_it_validates_the_request(auth_client, body, code):
    response = create(auth_client, **body)

    assert response.status_code == 400
    assert error_of(response)["code"] == code
    SchemaChecker(auth_client).check("POST", GAMES, 400, response.json())


def test_it_needs_authentication(api_client):
    response = create(api_client)

    assert response.status_code == 401
    assert error_of(response)["code"] == "not_authenticated"
    assert api_client.get(GAMES).status_code == 401


def test_the_list_shows_public_games_and_your_private_ones(user_factory, client_for, lobby):
    me = user_factory()
    public, _ = lobby(players=2, seated=1)
    theirs, _ = lobby(players=2, seated=1, visibility="private")
    mine = game_create(owner=me, preset="polish51", players=2, visibility="private")

    response = client_for(me).get(GAMES)

    assert response.status_code == 200
    ids = [g["id"] for g in response.json()["results"]]
    assert ids == [mine.public_id, public.public_id]  # newest first
    assert theirs.public_id not in ids
    SchemaChecker(client_for(me)).check("GET", GAMES, 200, response.json())


def test_the_list_filters(user_factory, client_for, lobby, started):
    me = user_factory()
    open_game, _ = lobby(players=2, seated=1, preset="macedonian")
    full, _ = lobby(players=2)
    running, _ = started(players=2, preset="polish51")
    mine = game_create(owner=me, preset="serbian", players=3)
    finished, users = started(players=2)
    game_resign(game=finished, user=users[0])
    client = client_for(me)

    def ids(query):
        response = client.get(f"{GAMES}?{query}")
        assert response.status_code == 200, response.json()
        return {g["id"] for g in response.json()["results"]}

    assert ids("status=open") == {open_game.public_id}
    assert ids("status=lobby") == {open_game.public_id, full.public_id, mine.public_id}
    assert ids("status=active") == {running.public_id}
    assert ids("status=finished") == {finished.public_id}
    assert ids("mine=true") == {mine.public_id}
    assert ids("variant=polish51") == {running.public_id}
    assert ids("variant=serbian&status=lobby") == {full.public_id, mine.public_id}
    bad = client.get(f"{GAMES}?status=sleeping")
    assert bad.status_code == 400 and error_of(bad)["code"] == "invalid"


def test_the_list_is_paginated_with_cursors(auth_client, user):
    made = [game_create(owner=user, preset="serbian", players=2) for _ in range(5)]

    first = auth_client.get(f"{GAMES}?page_size=2").json()
    second = auth_client.get(first["next"]).json()
    third = auth_client.get(second["next"]).json()

    pages = [first, second, third]
    seen = [g["id"] for page in pages for g in page["results"]]
    assert seen == [g.public_id for g in reversed(made)]
    assert first["previous"] is None and third["next"] is None
    assert "cursor=" in first["next"]


def test_a_player_sees_their_hand_and_a_spectator_none(started, client_for, user_factory):
    game, users = started(players=2)
    url = f"{GAMES}/{game.public_id}"

    mine = client_for(users[1]).get(url)
    watcher = client_for(user_factory())
    theirs = watcher.get(url)

    assert mine.status_code == theirs.status_code == 200
    view, spectator = mine.json(), theirs.json()
    assert view["you"] == 1 and len(view["deal"]["hand"]) == 14
    assert view["deal"]["hand_counts"] == [15, 14]
    assert spectator["you"] is None and spectator["deal"]["hand"] is None
    assert spectator["can"]["join"] is False and spectator["can"]["act"] == []
    assert view["to_move"] == 0 and view["ply"] == 0 and view["deadline_at"]
    assert_view_hides_secrets(view, 1, game)
    assert_view_hides_secrets(spectator, None, game)
    checker = SchemaChecker(watcher)
    checker.check("GET", "/api/v1/games/{game_id}", 200, view)
    checker.check("GET", "/api/v1/games/{game_id}", 200, spectator)


def test_what_the_player_to_move_may_do(started, client_for):
    game, users = started(players=2, preset="polish51")

    view = client_for(users[0]).get(f"{GAMES}/{game.public_id}").json()

    assert view["to_move"] == view["you"] == 0 or view["to_move"] == 1
    mover = view["to_move"]
    can = client_for(users[mover]).get(f"{GAMES}/{game.public_id}").json()["can"]
    assert can["act"] == ["draw", "take"] and can["resign"] is True


def test_private_and_unknown_games_are_404(started, client_for, user_factory):
    game, _ = started(players=2, visibility="private")
    outsider = client_for(user_factory())

    for url in (f"{GAMES}/{game.public_id}", f"{GAMES}/nosuchgame00"):
        response = outsider.get(url)
        assert response.status_code == 404
        assert error_of(response)["code"] == "not_found"
        SchemaChecker(outsider).check("GET", "/api/v1/games/{game_id}", 404, response.json())


def test_a_bot_named_twice_for_one_table_is_refused_not_a_server_error(players, bots):
    (host,) = players(1)
    twice = [bots[0].username, bots[0].username]

    made = host.post(
        "/api/v1/games", {"preset": "serbian", "players": 3, "bots": twice}, format="json"
    )
    challenged = host.post(
        "/api/v1/challenges", {"preset": "serbian", "bots": twice}, format="json"
    )

    assert (made.status_code, challenged.status_code) == (400, 400)
    assert error_of(made) == error_of(challenged)
    assert error_of(made)["code"] == "invalid_players"
    assert not Game.objects.exists()
