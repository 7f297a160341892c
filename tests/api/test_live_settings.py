"""/me/vacation (status, start, end) and /me/notifications (email and reminder
preferences): answers, errors in the one shape, and the OpenAPI schema."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from games.models import Game, PlayerSettings
from games.read.selectors import current_deal
from tests.gamekit import SchemaChecker, error_of

pytestmark = pytest.mark.django_db

VACATION = "/api/v1/me/vacation"
NOTIFICATIONS = "/api/v1/me/notifications"


def test_the_vacation_status_of_a_new_player(auth_client):
    response = auth_client.get(VACATION)

    assert response.status_code == 200
    body = response.json()
    assert body["active"] is False and body["until"] is None and body["started_at"] is None
    assert body["days_left"] == pytest.approx(14, abs=0.01)
    assert body["cap_days"] == 30 and body["days_per_year"] == 30
    SchemaChecker(auth_client).check("GET", VACATION, 200, body)


def test_a_vacation_starts_pushes_my_deadlines_and_ends_early(started, client_for):
    game, users = started(players=2, preset="serbian", days_per_move=2)
    mover = users[current_deal(game).to_move]
    client = client_for(mover)
    game.refresh_from_db()
    before = game.deadline_at

    started_response = client.post(f"{VACATION}/start", {"days": 3}, format="json")

    assert started_response.status_code == 200, started_response.json()
    body = started_response.json()
    assert body["active"] is True
    assert body["days_left"] == pytest.approx(11, abs=0.01)
    until = timezone.now() + timedelta(days=3)
    assert abs(datetime.fromisoformat(body["until"]) - until) < timedelta(minutes=1)
    SchemaChecker(client).check("POST", f"{VACATION}/start", 200, body)
    game.refresh_from_db()
    assert game.deadline_at == before + timedelta(days=3)
    assert client.get(VACATION).json()["active"] is True

    again = client.post(f"{VACATION}/start", {"days": 1}, format="json")
    assert again.status_code == 409 and error_of(again)["code"] == "already_on_vacation"
    SchemaChecker(client).check("POST", f"{VACATION}/start", 409, again.json())

    ended = client.post(f"{VACATION}/end")

    assert ended.status_code == 200
    assert ended.json()["active"] is False and ended.json()["until"] is None
    assert ended.json()["days_left"] == pytest.approx(14, abs=0.01)
    SchemaChecker(client).check("POST", f"{VACATION}/end", 200, ended.json())
    game.refresh_from_db()
    assert abs(game.deadline_at - before) < timedelta(seconds=5)
    not_on = client.post(f"{VACATION}/end")
    assert not_on.status_code == 409 and error_of(not_on)["code"] == "not_on_vacation"


def test_vacation_errors(auth_client, api_client):
    too_long = auth_client.post(f"{VACATION}/start", {"days": 20}, format="json")
    nothing = auth_client.post(f"{VACATION}/start", {}, format="json")
    negative = auth_client.post(f"{VACATION}/start", {"days": -1}, format="json")
    anonymous = api_client.get(VACATION)

    assert too_long.status_code == 400
    assert error_of(too_long)["code"] == "not_enough_vacation"
    assert error_of(too_long)["details"]["days_left"] == pytest.approx(14, abs=0.01)
    assert nothing.status_code == 400 and "days" in error_of(nothing)["details"]["fields"]
    assert negative.status_code == 400 and error_of(negative)["code"] == "invalid"
    assert anonymous.status_code == 401 and error_of(anonymous)["code"] == "not_authenticated"
    checker = SchemaChecker(auth_client)
    checker.check("POST", f"{VACATION}/start", 400, too_long.json())
    checker.check("GET", VACATION, 401, anonymous.json())


def test_notification_preferences_read_and_change(auth_client, user):
    first = auth_client.get(NOTIFICATIONS)

    assert first.status_code == 200
    assert first.json() | {"email_turns": "each", "reminders": True} == first.json()
    SchemaChecker(auth_client).check("GET", NOTIFICATIONS, 200, first.json())

    digest = auth_client.patch(NOTIFICATIONS, {"email_turns": "daily"}, format="json")
    quiet = auth_client.patch(NOTIFICATIONS, {"reminders": False}, format="json")

    assert (digest.json()["email_turns"], digest.json()["reminders"]) == ("daily", True)
    assert (quiet.json()["email_turns"], quiet.json()["reminders"]) == ("daily", False)
    SchemaChecker(auth_client).check("PATCH", NOTIFICATIONS, 200, quiet.json())
    row = PlayerSettings.objects.get(user=user)
    assert (row.email_turns, row.reminders) == ("daily", False)

    bad = auth_client.patch(NOTIFICATIONS, {"email_turns": "hourly"}, format="json")
    assert bad.status_code == 400 and "email_turns" in error_of(bad)["details"]["fields"]
    SchemaChecker(auth_client).check("PATCH", NOTIFICATIONS, 400, bad.json())


def test_a_game_shows_its_timeout_policy(auth_client, bots):
    created = auth_client.post(
        "/api/v1/games",
        {
            "preset": "serbian",
            "players": 2,
            "time_control": "live",
            "seconds_per_turn": 30,
            "strike_limit": 2,
            "absent_wait_s": 60,
        },
        format="json",
    )
    correspondence = auth_client.post(
        "/api/v1/games", {"preset": "serbian", "players": 2}, format="json"
    )
    bad = auth_client.post(
        "/api/v1/games",
        {"preset": "serbian", "players": 2, "absent_wait_s": 60},
        format="json",
    )

    assert created.status_code == 201, created.json()
    assert created.json()["time_control"]["strike_limit"] == 2
    assert created.json()["time_control"]["absent_wait_s"] == 60
    game = Game.objects.get(public_id=created.json()["id"])
    assert (game.strike_limit, game.absent_wait_s) == (2, 60)
    assert correspondence.json()["time_control"]["strike_limit"] == 3
    assert correspondence.json()["time_control"]["absent_wait_s"] is None
    assert bad.status_code == 400 and error_of(bad)["code"] == "invalid_time_control"
    SchemaChecker(auth_client).check("POST", "/api/v1/games", 201, created.json())
