"""GET/PATCH /me/notifications, POST/DELETE /me/push-subscriptions, POST and DELETE
/games/{id}/mute: every field, the checks (a 400 naming the field, never a 500) and
the schema of every answer."""

from __future__ import annotations

import base64

import pytest
from django.test import override_settings

from games.models import GameMute, PlayerSettings, PushSubscription
from tests.gamekit import SchemaChecker, error_of
from tests.games.push_kit import FCM_ENDPOINT, browser_keys, fake_dns

__all__ = ["fake_dns"]  # a fixture

pytestmark = pytest.mark.django_db

NOTIFICATIONS = "/api/v1/me/notifications"
SUBSCRIPTIONS = "/api/v1/me/push-subscriptions"


def test_it_shows_every_choice_with_its_defaults(auth_client):
    response = auth_client.get(NOTIFICATIONS)

    assert response.status_code == 200
    body = response.json()
    assert {key: value for key, value in body.items() if key not in {"push_public_key"}} == {
        "email_turns": "each",
        "reminders": True,
        "reminder_hours": [24, 2],
        "email_strikes": True,
        "email_game_over": True,
        "time_zone": "",
        "push_turns": False,
        "push_challenges": False,
        "push_game_over": False,
        "push_subscriptions": 0,
        "calendar_url": body["calendar_url"],
        "muted_games": [],
    }
    assert body["calendar_url"].startswith("http://") and body["calendar_url"].endswith(".ics")
    assert len(base64.urlsafe_b64decode(body["push_public_key"] + "=")) == 65
    SchemaChecker(auth_client).check("GET", NOTIFICATIONS, 200, body)


def test_it_changes_only_what_is_sent(auth_client, user):
    changed = auth_client.patch(
        NOTIFICATIONS,
        {
            "reminder_hours": [2, 24, 8, 8],
            "time_zone": "Europe/Belgrade",
            "email_strikes": False,
            "push_turns": True,
            "push_game_over": True,
        },
        format="json",
    )

    assert changed.status_code == 200
    body = changed.json()
    assert body["reminder_hours"] == [24, 8, 2]  # longest first, each once
    assert (body["time_zone"], body["email_strikes"], body["email_game_over"]) == (
        "Europe/Belgrade",
        False,
        True,
    )
    assert (body["push_turns"], body["push_challenges"], body["push_game_over"]) == (
        True,
        False,
        True,
    )
    SchemaChecker(auth_client).check("PATCH", NOTIFICATIONS, 200, body)
    row = PlayerSettings.objects.get(user=user)
    assert (row.reminder_hours, row.time_zone, row.email_turns) == (
        [24, 8, 2],
        "Europe/Belgrade",
        "each",
    )
    cleared = auth_client.patch(
        NOTIFICATIONS, {"time_zone": "", "reminder_hours": []}, format="json"
    )
    assert (cleared.json()["time_zone"], cleared.json()["reminder_hours"]) == ("", [])


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"time_zone": "Mars/Olympus_Mons"}, "time_zone"),
        ({"time_zone": 1}, "time_zone"),
        ({"reminder_hours": [0]}, "reminder_hours"),
        ({"reminder_hours": [169]}, "reminder_hours"),
        ({"reminder_hours": [1, 2, 3, 4, 5, 6]}, "reminder_hours"),
        ({"reminder_hours": ["24"]}, "reminder_hours"),
        ({"reminder_hours": 24}, "reminder_hours"),
        ({"push_turns": "yes"}, "push_turns"),
        ({"email_game_over": None}, "email_game_over"),
        ({"email_turns": "hourly"}, "email_turns"),
    ],
)
def test_it_refuses_a_bad_value_naming_the_field(auth_client, user, change, field):
    refused = auth_client.patch(NOTIFICATIONS, change, format="json")

    assert refused.status_code == 400
    assert field in error_of(refused)["details"]["fields"]
    SchemaChecker(auth_client).check("PATCH", NOTIFICATIONS, 400, refused.json())
    assert not PlayerSettings.objects.filter(user=user, time_zone="Mars/Olympus_Mons").exists()


def test_it_needs_a_login(api_client):
    for response in (
        api_client.get(NOTIFICATIONS),
        api_client.post(SUBSCRIPTIONS, {}, format="json"),
        api_client.post("/api/v1/games/anything/mute"),
    ):
        assert response.status_code == 401
        assert error_of(response)["code"] == "not_authenticated"


# ------------------------------------------------------------------ push subscriptions


def test_a_browser_subscribes_and_unsubscribes(auth_client, user, fake_dns):
    endpoint = f"{FCM_ENDPOINT}abc123"

    created = auth_client.post(
        SUBSCRIPTIONS,
        {"endpoint": endpoint, "expirationTime": None, "keys": browser_keys()},
        format="json",
    )

    assert created.status_code == 201
    assert created.json()["endpoint"] == endpoint
    SchemaChecker(auth_client).check("POST", SUBSCRIPTIONS, 201, created.json())
    assert auth_client.get(NOTIFICATIONS).json()["push_subscriptions"] == 1
    gone = auth_client.delete(SUBSCRIPTIONS, {"endpoint": endpoint}, format="json")
    again = auth_client.delete(SUBSCRIPTIONS, {"endpoint": endpoint}, format="json")
    assert (gone.status_code, again.status_code) == (204, 204)
    assert not PushSubscription.objects.filter(user=user).exists()


def test_an_endpoint_subscribed_again_belongs_to_its_last_user(client_for, user_factory, fake_dns):
    first, second = client_for(user_factory()), client_for(user_factory())
    subscription = {"endpoint": f"{FCM_ENDPOINT}shared", "keys": browser_keys()}

    first.post(SUBSCRIPTIONS, subscription, format="json")
    second.post(SUBSCRIPTIONS, subscription, format="json")
    first.delete(SUBSCRIPTIONS, {"endpoint": subscription["endpoint"]}, format="json")

    assert list(PushSubscription.objects.values_list("user_id", flat=True)) == [
        second.user.pk  # type: ignore[attr-defined]
    ]


@pytest.mark.parametrize(
    ("endpoint", "keys", "field"),
    [
        ("http://fcm.googleapis.com/fcm/send/1", None, "endpoint"),
        ("https://push.example.com/send/1", None, "endpoint"),  # no browser's push service
        ("https://127.0.0.1/send/1", None, "endpoint"),
        ("https://10.1.2.3/send/1", None, "endpoint"),
        ("https://[::1]:8443/send/1", None, "endpoint"),
        ("https://localhost/send/1", None, "endpoint"),
        ("ftp://fcm.googleapis.com/1", None, "endpoint"),
        (f"{FCM_ENDPOINT}1", {"p256dh": "not-a-key", "auth": "x"}, "p256dh"),
        (f"{FCM_ENDPOINT}1", {"p256dh": "AAAA", "auth": "AAAA"}, "auth"),
        (f"{FCM_ENDPOINT}1", {"p256dh": 5, "auth": "AAAA"}, "keys"),
    ],
)
def test_a_bad_subscription_is_refused_naming_the_field(
    auth_client, fake_dns, endpoint, keys, field
):
    refused = auth_client.post(
        SUBSCRIPTIONS, {"endpoint": endpoint, "keys": keys or browser_keys()}, format="json"
    )

    assert refused.status_code == 400, refused.json()
    assert field in error_of(refused)["details"]["fields"]
    SchemaChecker(auth_client).check("POST", SUBSCRIPTIONS, 400, refused.json())
    assert not PushSubscription.objects.exists()


def test_a_local_endpoint_is_accepted_only_when_the_site_allows_it(auth_client):
    subscription = {"endpoint": "http://127.0.0.1:9/push/1", "keys": browser_keys()}

    with override_settings(PUSH_ALLOW_LOCAL_ENDPOINTS=True):
        assert auth_client.post(SUBSCRIPTIONS, subscription, format="json").status_code == 201


# ------------------------------------------------------------------ muted games


def test_a_player_mutes_and_unmutes_a_game(started, client_for):
    game, users = started(players=2)
    client = client_for(users[0])
    path = f"/api/v1/games/{game.public_id}/mute"

    muted = client.post(path)
    again = client.post(path)

    assert (muted.status_code, again.status_code) == (200, 200)
    assert muted.json() == {"muted": True}
    SchemaChecker(client).check("POST", "/api/v1/games/{game_id}/mute", 200, muted.json())
    assert client.get(NOTIFICATIONS).json()["muted_games"] == [game.public_id]
    unmuted = client.delete(path)
    assert unmuted.json() == {"muted": False}
    assert not GameMute.objects.exists()


def test_muting_an_unknown_or_hidden_game_is_not_found(auth_client, lobby):
    private, _ = lobby(players=2, visibility="private")

    for game_id in ("nosuchgame", private.public_id):
        refused = auth_client.post(f"/api/v1/games/{game_id}/mute")
        assert refused.status_code == 404 and error_of(refused)["code"] == "not_found"
