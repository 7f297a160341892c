"""A challenge takes only the fields it knows (a misspelt one is a 400 naming it, never an
open challenge made by mistake), and the private game of an accepted challenge is shown
to nobody but its players: not through the challenge, a list or a player's page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Challenge
from tests.accounts.account_kit import web_client
from tests.gamekit import error_of

pytestmark = pytest.mark.django_db

CHALLENGES = "/api/v1/challenges"


@pytest.fixture
def people(
    client_for: Callable[[Any], APIClient], user_factory: Callable[..., Any]
) -> dict[str, APIClient]:
    return {name: client_for(user_factory(username=name)) for name in ("alice", "bob", "eve")}


def challenge(client: APIClient, **terms: Any) -> Any:
    terms.setdefault("preset", "serbian")
    return client.post(CHALLENGES, terms, format="json")


# ------------------------------------------------------------------ unknown fields


def test_a_misnamed_destination_is_refused_and_makes_no_challenge(
    people: dict[str, APIClient],
) -> None:
    response = challenge(people["alice"], destination="bob", visibility="private")

    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "invalid"
    assert list(error["details"]["fields"]) == ["destination"]
    assert "its fields: to, preset" in error["details"]["fields"]["destination"][0]
    assert not Challenge.objects.exists()
    assert people["eve"].get(f"{CHALLENGES}/open").json()["results"] == []


def test_every_unknown_field_is_named(people: dict[str, APIClient]) -> None:
    response = challenge(people["alice"], to="bob", colour="red", Rated=True)

    assert response.status_code == 400
    assert sorted(error_of(response)["details"]["fields"]) == ["Rated", "colour"]
    assert not Challenge.objects.exists()


def test_the_known_fields_still_make_a_challenge(people: dict[str, APIClient]) -> None:
    response = challenge(
        people["alice"],
        to="bob",
        overrides={},
        bots=[],
        visibility="private",
        time_control="correspondence",
        seconds_per_turn=None,
        days_per_move=2,
        time_bank_s=None,
        rated=False,
    )

    assert response.status_code == 201, response.json()
    assert response.json()["destination"]["username"] == "bob"


# ------------------------------------------------------------------ the private game


def accepted_private_open_challenge(people: dict[str, APIClient]) -> tuple[str, str]:
    """An open challenge with a private game, accepted by bob: (challenge id, game id)."""
    made = challenge(people["alice"], visibility="private").json()
    accepted = people["bob"].post(f"{CHALLENGES}/{made['id']}/accept").json()
    return made["id"], accepted["game"]


def test_an_answered_open_challenge_is_seen_only_by_its_players(
    people: dict[str, APIClient], deals_seeded: Any
) -> None:
    challenge_id, game_id = accepted_private_open_challenge(people)

    seen = {name: client.get(f"{CHALLENGES}/{challenge_id}") for name, client in people.items()}

    assert seen["alice"].json()["game"] == game_id
    assert seen["bob"].json()["game"] == game_id
    assert seen["eve"].status_code == 404
    assert error_of(seen["eve"])["code"] == "not_found"
    assert game_id not in seen["eve"].content.decode()


def test_a_pending_open_challenge_is_still_seen_by_anyone(people: dict[str, APIClient]) -> None:
    made = challenge(people["alice"], visibility="private").json()

    seen = people["eve"].get(f"{CHALLENGES}/{made['id']}")

    assert seen.status_code == 200 and seen.json()["game"] is None


def test_the_private_game_is_in_no_list_or_page_of_anyone_else(
    people: dict[str, APIClient], deals_seeded: Any
) -> None:
    _challenge_id, game_id = accepted_private_open_challenge(people)
    eve = people["eve"]

    answers = [
        eve.get(f"/api/v1/games/{game_id}"),
        eve.get("/api/v1/games"),
        eve.get("/api/v1/games", {"status": "active"}),
        eve.get("/api/v1/games", {"status": "open"}),
        eve.get(f"{CHALLENGES}/open"),
        eve.get(CHALLENGES),
        web_client(eve.user).get("/games/"),
    ]

    assert answers[0].status_code == 404
    assert all(game_id not in answer.content.decode() for answer in answers)
    # Its players have it.
    mine = people["bob"].get("/api/v1/games", {"mine": "true"}).json()["results"]
    assert [game["id"] for game in mine] == [game_id]


def test_a_finished_private_game_is_on_a_player_s_page_only_for_those_who_sat_in_it(
    people: dict[str, APIClient], deals_seeded: Any
) -> None:
    _challenge_id, game_id = accepted_private_open_challenge(people)
    assert people["alice"].post(f"/api/v1/games/{game_id}/resign").status_code == 200

    def recent(client: APIClient | Client) -> list[str]:
        body = client.get("/api/v1/users/alice").json()
        return [game["id"] for game in body["recent_games"]]

    assert recent(people["eve"]) == []
    assert recent(Client()) == []
    assert recent(people["bob"]) == [game_id]
    assert recent(people["alice"]) == [game_id]
    assert (
        game_id
        not in web_client(people["eve"].user).get("/accounts/players/alice/").content.decode()
    )
    assert game_id not in Client().get("/accounts/players/alice/").content.decode()
    assert (
        game_id in web_client(people["bob"].user).get("/accounts/players/alice/").content.decode()
    )
