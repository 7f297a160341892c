"""Tables of five and six through the API: created when the ruleset seats them (a house
rule raises ``max_players``), filled by people and bots, started and dealt."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.gamekit import error_of

pytestmark = pytest.mark.django_db

GAMES = "/api/v1/games"


def create(client, **body):
    return client.post(GAMES, body, format="json")


def test_six_seats_with_four_bots_and_two_people_start_and_deal(players, bots, deals_seeded):
    host, guest = players(2)
    created = create(
        host,
        preset="polish51",
        players=6,
        overrides={"max_players": 6},
        bots=[bot.username for bot in bots],
    )
    assert created.status_code == 201, created.json()
    game_id = created.json()["id"]
    assert [seat["user"]["is_bot"] for seat in created.json()["seats"]] == [False] + [True] * 4

    assert guest.post(f"{GAMES}/{game_id}/join", {}, format="json").status_code == 200
    view = host.post(f"{GAMES}/{game_id}/start").json()

    assert view["status"] == "active" and view["players"] == 6
    assert len(view["seats"]) == 6 and sorted(s["position"] for s in view["seats"]) == list(
        range(6)
    )
    assert view["deal"]["hand_counts"] == [13] * 6
    assert view["deals_in_match"] == 1
    # Six cards drawn for six seats; the highest starts.
    assert len(view["seating"]["cards"]) == 6 and view["to_move"] == view["seating"]["starter"]


def test_five_seats_of_macedonian_make_a_ten_deal_match(players, deals_seeded):
    clients = players(5)
    created = create(clients[0], preset="macedonian", players=5, overrides={"max_players": 5})
    game_id = created.json()["id"]
    for client in clients[1:]:
        client.post(f"{GAMES}/{game_id}/join", {}, format="json")

    view = clients[0].post(f"{GAMES}/{game_id}/start").json()

    assert view["deals_in_match"] == 10
    assert sorted(view["deal"]["hand_counts"]) == [14, 14, 14, 14, 15]
    assert view["seating"] is None  # seats as they were taken


def test_more_seats_than_the_ruleset_allows_are_refused(auth_client):
    response = create(auth_client, preset="polish51", players=6)

    assert response.status_code == 400 and error_of(response)["code"] == "invalid_players"
    # The rules by the name a person knows them by, not the preset's id.
    assert error_of(response)["message"].startswith("Polish Remik 51 is played by 2 to 4")
    assert not Game.objects.exists()


def test_rules_that_seat_four_cannot_be_raised_to_six(auth_client):
    response = create(auth_client, preset="serbian", players=6, overrides={"max_players": 6})

    assert response.status_code == 400 and error_of(response)["code"] == "invalid_ruleset"


def test_seven_seats_are_refused_before_the_rules_are_read(auth_client):
    response = create(auth_client, preset="polish51", players=7, overrides={"max_players": 7})

    assert response.status_code == 400 and error_of(response)["code"] == "invalid"
