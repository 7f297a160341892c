"""Challenges (/api/v1/challenges) and bot accounts done properly: challenge a person, a
bot account, a built-in bot or anyone; accept (the game starts), decline with a reason,
cancel; the per-account limit; a bot account is marked, signs in with tokens only, and
plays rated games against people only where the site allows it; the web pages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Challenge, Game
from tests.gamekit import SchemaChecker, error_of

pytestmark = pytest.mark.django_db

CHALLENGES = "/api/v1/challenges"
ONE = "/api/v1/challenges/{challenge_id}"


def path(challenge: dict[str, Any], action: str = "") -> str:
    return f"{CHALLENGES}/{challenge['id']}" + (f"/{action}" if action else "")


@pytest.fixture
def alice(client_for: Callable[[Any], APIClient], user_factory: Callable[..., Any]) -> APIClient:
    return client_for(user_factory(username="alice", display_name="Alice"))


@pytest.fixture
def bob(client_for: Callable[[Any], APIClient], user_factory: Callable[..., Any]) -> APIClient:
    return client_for(user_factory(username="bob", display_name="Bob"))


@pytest.fixture
def robo(client_for: Callable[[Any], APIClient], user_factory: Callable[..., Any]) -> APIClient:
    """A bot account (upgraded through the API with its token)."""
    client = client_for(user_factory(username="robo"))
    assert client.post("/api/v1/me/bot").status_code == 200
    return client


def challenge(client: APIClient, **terms: Any) -> Any:
    terms.setdefault("preset", "serbian")
    return client.post(CHALLENGES, terms, format="json")


# ------------------------------------------------------------------ a named person


def test_a_person_challenges_another_who_accepts_and_the_game_starts(
    alice: APIClient, bob: APIClient, deals_seeded: Any
) -> None:
    made = challenge(alice, to="bob", preset="macedonian")

    assert made.status_code == 201, made.json()
    body = made.json()
    assert body["status"] == "pending" and body["open"] is False and body["game"] is None
    assert body["challenger"]["username"] == "alice"
    assert body["destination"]["username"] == "bob" and body["players"] == 2
    SchemaChecker(alice).check("POST", CHALLENGES, 201, body)
    incoming = bob.get(CHALLENGES, {"direction": "in"}).json()
    assert [c["id"] for c in incoming["results"]] == [body["id"]]
    assert alice.get(CHALLENGES, {"direction": "in"}).json()["results"] == []
    SchemaChecker(bob).check("GET", CHALLENGES, 200, incoming)

    accepted = bob.post(path(body, "accept"))

    assert accepted.status_code == 200, accepted.json()
    SchemaChecker(bob).check("POST", ONE + "/accept", 200, accepted.json())
    game_id = accepted.json()["game"]
    assert accepted.json()["status"] == "accepted"
    assert accepted.json()["accepted_by"]["username"] == "bob"
    view = bob.get(f"/api/v1/games/{game_id}").json()
    assert view["status"] == "active" and view["preset"] == "macedonian"
    assert [seat["user"]["username"] for seat in view["seats"]] == ["alice", "bob"]
    assert view["owner"] == "alice" and view["you"] == 1
    assert bob.get(CHALLENGES).json()["results"] == []  # answered: no longer pending


def test_the_terms_are_the_games_extra_bots_house_rules_and_time_control(
    alice: APIClient, bob: APIClient, bots: list[Any], deals_seeded: Any
) -> None:
    made = challenge(
        alice,
        to="bob",
        bots=["greedy-goran"],
        overrides={"opening_minimum": 41},
        time_control="live",
        seconds_per_turn=45,
        time_bank_s=30,
        visibility="private",
    ).json()
    assert made["players"] == 3 and made["bots"] == ["greedy-goran"]

    game_id = bob.post(path(made, "accept")).json()["game"]

    game = Game.objects.get(public_id=game_id)
    assert game.status == Game.Status.ACTIVE and game.players == 3
    assert [s.user.username for s in game.seats.order_by("position")] == [
        "alice",
        "greedy-goran",
        "bob",
    ]
    assert game.ruleset["opening_minimum"] == 41
    assert (game.time_control, game.seconds_per_turn, game.time_bank_s) == ("live", 45, 30)
    assert game.visibility == "private" and not game.rated


def test_terms_no_game_could_be_made_with_are_refused_at_once_and_leave_nothing(
    alice: APIClient, bob: APIClient, bots: list[Any]
) -> None:
    cases = [
        ({"overrides": {"opening_minimum": "lots"}}, "invalid_ruleset"),
        ({"time_control": "live", "seconds_per_turn": 5}, "invalid_time_control"),
        ({"rated": True, "bots": ["random-rita"]}, "rated_with_bots"),
        ({"bots": ["nobody"]}, "unknown_bot"),
        ({"bots": ["random-rita", "random-rita"]}, "invalid_players"),
    ]
    for terms, code in cases:
        response = challenge(alice, to="bob", **terms)
        assert response.status_code == 400, (terms, response.json())
        assert error_of(response)["code"] == code
        SchemaChecker(alice).check("POST", CHALLENGES, 400, response.json())
    assert not Challenge.objects.exists()
    assert not Game.objects.exists()  # the check's trial game is rolled back


def test_the_time_control_is_stored_as_the_game_would_settle_it(
    alice: APIClient, bob: APIClient
) -> None:
    correspondence = challenge(alice, to="bob", seconds_per_turn=-5, time_bank_s=30)
    live = challenge(alice, to="bob", time_control="live")

    assert correspondence.status_code == 400  # a time bank is for live games
    assert error_of(correspondence)["code"] == "invalid_time_control"
    stray = challenge(alice, to="bob", seconds_per_turn=-5).json()
    assert stray["time_control"] == {
        "kind": "correspondence",
        "seconds_per_turn": None,
        "days_per_move": 3,
        "time_bank_s": None,
    }
    assert live.json()["time_control"] == {
        "kind": "live",
        "seconds_per_turn": 60,
        "days_per_move": None,
        "time_bank_s": 0,
    }


def test_nobody_challenges_themselves_or_an_unknown_account(alice: APIClient) -> None:
    itself = challenge(alice, to="alice")
    unknown = challenge(alice, to="ghost")

    assert itself.status_code == 400 and error_of(itself)["code"] == "challenge_self"
    assert unknown.status_code == 404 and error_of(unknown)["code"] == "not_found"
    SchemaChecker(alice).check("POST", CHALLENGES, 404, unknown.json())


# ------------------------------------------------------------------ declining and cancelling


def test_the_account_challenged_declines_with_a_reason_from_the_list(
    alice: APIClient, bob: APIClient
) -> None:
    made = challenge(alice, to="bob").json()

    wrong = bob.post(path(made, "decline"), {"reason": "busy"}, format="json")
    by_challenger = alice.post(path(made, "decline"), {}, format="json")
    declined = bob.post(path(made, "decline"), {"reason": "too_slow"}, format="json")

    assert wrong.status_code == 400 and "reason" in error_of(wrong)["details"]["fields"]
    assert by_challenger.status_code == 403
    assert error_of(by_challenger)["code"] == "not_challenged"
    assert declined.status_code == 200
    assert declined.json()["status"] == "declined"
    assert declined.json()["decline_reason"] == "too_slow"
    SchemaChecker(bob).check("POST", ONE + "/decline", 200, declined.json())
    again = bob.post(path(made, "accept"))
    assert again.status_code == 409 and error_of(again)["code"] == "challenge_not_pending"
    assert error_of(again)["details"] == {"status": "declined"}


def test_the_challenger_cancels_and_the_other_cannot(alice: APIClient, bob: APIClient) -> None:
    made = challenge(alice, to="bob").json()

    refused = bob.post(path(made, "cancel"))
    cancelled = alice.post(path(made, "cancel"))

    assert refused.status_code == 403 and error_of(refused)["code"] == "not_challenger"
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert bob.post(path(made, "accept")).status_code == 409


def test_a_named_challenge_is_nobody_elses_business(
    alice: APIClient, bob: APIClient, client_for: Callable[[Any], APIClient], user_factory: Any
) -> None:
    made = challenge(alice, to="bob").json()
    stranger = client_for(user_factory())

    for response in (
        stranger.get(path(made)),
        stranger.post(path(made, "accept")),
        stranger.post(path(made, "decline"), {}, format="json"),
        stranger.post(path(made, "cancel")),
    ):
        assert response.status_code == 404
        assert error_of(response)["code"] == "not_found"
    assert bob.get(path(made)).json()["id"] == made["id"]
    SchemaChecker(bob).check("GET", ONE, 200, bob.get(path(made)).json())


# ------------------------------------------------------------------ open challenges


def test_anyone_but_the_challenger_accepts_an_open_challenge_once(
    alice: APIClient, bob: APIClient, client_for: Callable[[Any], APIClient], user_factory: Any
) -> None:
    made = challenge(alice, preset="macedonian").json()
    carol = client_for(user_factory(username="carol"))
    assert made["open"] is True and made["destination"] is None

    listed = bob.get(f"{CHALLENGES}/open").json()
    own = alice.get(f"{CHALLENGES}/open").json()
    mine = alice.post(path(made, "accept"))
    first = bob.post(path(made, "accept"))
    second = carol.post(path(made, "accept"))
    cannot_decline = carol.post(path(made, "decline"), {}, format="json")

    assert [c["id"] for c in listed["results"]] == [made["id"]] and own["results"] == []
    SchemaChecker(bob).check("GET", f"{CHALLENGES}/open", 200, listed)
    assert mine.status_code == 403 and error_of(mine)["code"] == "own_challenge"
    assert first.status_code == 200 and first.json()["accepted_by"]["username"] == "bob"
    assert second.status_code == 409
    assert cannot_decline.status_code == 403
    assert Game.objects.count() == 1


def test_the_number_of_challenges_waiting_is_limited_per_account(
    alice: APIClient, user_factory: Callable[..., Any], settings: Any
) -> None:
    settings.CHALLENGES_PER_USER = 2
    first = challenge(alice, to=user_factory().username).json()
    challenge(alice)

    refused = challenge(alice, to=user_factory().username)
    alice.post(path(first, "cancel"))
    after_cancel = challenge(alice)

    assert refused.status_code == 409
    assert error_of(refused)["code"] == "too_many_challenges"
    assert error_of(refused)["details"] == {"limit": 2}
    SchemaChecker(alice).check("POST", CHALLENGES, 409, refused.json())
    assert after_cancel.status_code == 201


# ------------------------------------------------------------------ bots


def test_a_built_in_bot_accepts_at_once_and_the_game_is_under_way(
    alice: APIClient, bots: list[Any], deals_seeded: Any
) -> None:
    made = challenge(alice, to="expert-emil", bots=["random-rita"])

    assert made.status_code == 201, made.json()
    body = made.json()
    assert body["status"] == "accepted" and body["accepted_by"]["title"] == "BOT"
    view = alice.get(f"/api/v1/games/{body['game']}").json()
    assert view["status"] == "active"
    assert [seat["user"]["username"] for seat in view["seats"]] == [
        "alice",
        "expert-emil",
        "random-rita",
    ]
    rated = challenge(alice, to="expert-emil", rated=True)
    assert rated.status_code == 400 and error_of(rated)["code"] == "rated_with_bots"


def test_a_bot_account_is_challenged_and_accepts_through_the_api(
    alice: APIClient, robo: APIClient, deals_seeded: Any
) -> None:
    made = challenge(alice, to="robo").json()
    assert made["destination"] == {
        "username": "robo",
        "display_name": "robo",
        "is_bot": True,
        "bot_level": None,
        "title": "BOT",
    }

    accepted = robo.post(path(made, "accept")).json()

    seats = alice.get(f"/api/v1/games/{accepted['game']}").json()["seats"]
    assert [(s["user"]["username"], s["user"]["title"]) for s in seats] == [
        ("alice", None),
        ("robo", "BOT"),
    ]


def test_a_bot_account_plays_rated_against_people_only_where_the_site_allows_it(
    alice: APIClient,
    robo: APIClient,
    client_for: Callable[[Any], APIClient],
    user_factory: Callable[..., Any],
    settings: Any,
) -> None:
    other_bot = client_for(user_factory(username="robo2"))
    assert other_bot.post("/api/v1/me/bot").status_code == 200
    assert settings.REMI_BOTS_RATED_VS_HUMANS is False  # the default

    named = challenge(alice, to="robo", rated=True)
    open_by_person = challenge(alice, rated=True).json()
    by_bot = robo.post(path(open_by_person, "accept"))
    lobby = alice.post("/api/v1/games", {"preset": "serbian", "players": 2, "rated": True})
    join = robo.post(f"/api/v1/games/{lobby.json()['id']}/join", {}, format="json")
    among_bots = challenge(robo, to="robo2", rated=True)

    for refused in (named, by_bot, join):
        assert refused.status_code == 403, refused.json()
        assert error_of(refused)["code"] == "bots_rated_vs_humans"
    SchemaChecker(alice).check("POST", CHALLENGES, 403, named.json())
    assert among_bots.status_code == 201
    settings.REMI_BOTS_RATED_VS_HUMANS = True
    assert challenge(alice, to="robo", rated=True).status_code == 201
    joined = robo.post(f"/api/v1/games/{lobby.json()['id']}/join", {}, format="json")
    assert joined.status_code == 200


def test_a_bot_account_never_signs_in_with_a_password(
    robo: APIClient, password: str, api_client: APIClient
) -> None:
    by_api = api_client.post(
        "/api/v1/auth/login",
        {"username": "robo", "password": password, "token_name": "more"},
        format="json",
    )
    browser = Client()
    by_form = browser.post("/accounts/login/", {"username": "robo", "password": password})

    assert by_api.status_code == 403 and error_of(by_api)["code"] == "bot_account"
    assert "_auth_user_id" not in browser.session
    assert by_form.status_code == 200  # the login form again, with its error
    assert robo.get("/api/v1/me").json()["is_bot"] is True  # its tokens still work


def test_a_web_session_cannot_make_its_account_a_bot(
    user_factory: Callable[..., Any], password: str
) -> None:
    person = user_factory(username="sam")
    client = APIClient()
    client.force_login(person)

    response = client.post("/api/v1/me/bot")

    assert response.status_code == 403 and error_of(response)["code"] == "token_required"
    person.profile.refresh_from_db()
    assert person.profile.is_bot is False


def test_a_bot_account_cannot_be_turned_back_into_a_person(robo: APIClient) -> None:
    assert robo.delete("/api/v1/me/bot").status_code == 405
    assert robo.patch("/api/v1/me", {"is_bot": False}, format="json").status_code == 200
    assert robo.get("/api/v1/me").json()["is_bot"] is True


# ------------------------------------------------------------------ the web pages


def test_a_players_page_offers_a_challenge_to_others_only(
    user_factory: Callable[..., Any], password: str
) -> None:
    viewer = user_factory(username="vera")
    user_factory(username="mila", display_name="Mila")
    browser = Client()
    browser.force_login(viewer)

    other = browser.get("/accounts/players/mila/").content.decode()
    own = browser.get("/accounts/players/vera/").content.decode()
    anonymous = Client().get("/accounts/players/mila/").content.decode()

    assert 'id="challenge-form"' in other and 'data-username="mila"' in other
    assert "js/challenges.js" in other
    assert 'id="challenge-form"' not in own and 'id="challenge-form"' not in anonymous


def test_my_games_lists_the_challenges_and_marks_bots(
    alice: APIClient, bots: list[Any], deals_seeded: Any
) -> None:
    body = challenge(alice, to="random-rita", preset="polish51").json()
    browser = Client()
    browser.force_login(alice.user)  # type: ignore[attr-defined]

    page = browser.get("/games/").content.decode()

    assert 'id="challenges"' in page and "js/challenges.js" in page
    assert body["game"] is not None
    assert "Random Rita" in page and '<span class="badge badge-bot">BOT</span>' in page
