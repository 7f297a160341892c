"""The settings page and /me/settings: name, language, emails, chat, online status."""

from __future__ import annotations

import pytest
from django.test import Client

from games.live import presence
from games.models import PlayerSettings
from tests.accounts.account_kit import web_client

pytestmark = pytest.mark.django_db

SETTINGS_API = "/api/v1/me/settings"
DEFAULTS = {
    "display_name": "Ana",
    "language": "en",
    "email_turns": "each",
    "email_challenges": True,
    "email_report_outcomes": False,
    "chat_enabled": True,
    "show_online": True,
    "card_colours": "two",
}


@pytest.fixture
def connected(user):
    """``user`` has a live websocket connection (as the consumer records it)."""
    presence.presence_touch(user_id=user.pk, channel="test!settings", games=[])
    yield user
    presence.presence_drop(user_id=user.pk, channel="test!settings", games=[])


def test_the_settings_page_needs_a_login(client):
    response = client.get("/settings/")

    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_the_settings_page_shows_the_settings_and_links_to_the_notification_settings(user):
    page = web_client(user).get("/settings/").content.decode()

    assert 'value="Ana"' in page
    assert '<option value="sr-cyrl">Српски (ћирилица)</option>' in page
    assert 'href="/settings/notifications/"' in page
    assert 'href="/settings/password/"' in page and 'href="/settings/delete/"' in page


def test_the_header_links_to_the_settings_when_signed_in(user, client):
    assert 'href="/settings/"' not in client.get("/").content.decode()
    assert 'href="/settings/"' in web_client(user).get("/").content.decode()


def test_the_settings_page_saves_every_setting(user):
    response = web_client(user).post(
        "/settings/",
        {"display_name": "Ana K.", "language": "sr-latn", "email_turns": "daily"},
    )  # unticked boxes are absent from a form: off

    assert response.status_code == 302
    user.profile.refresh_from_db()
    profile = user.profile
    assert (profile.display_name, profile.language) == ("Ana K.", "sr-latn")
    assert (profile.email_challenges, profile.chat_enabled, profile.show_online) == (
        False,
        False,
        False,
    )
    assert PlayerSettings.objects.get(user=user).email_turns == "daily"


def test_the_settings_page_refuses_a_language_not_on_the_list(user):
    response = web_client(user).post(
        "/settings/", {"display_name": "Ana", "language": "de", "email_turns": "each"}
    )

    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    user.profile.refresh_from_db()
    assert user.profile.language == "en"


def test_the_api_reads_and_changes_the_settings(auth_client, user):
    before = auth_client.get(SETTINGS_API)
    changed = auth_client.patch(
        SETTINGS_API, {"language": "mk", "chat_enabled": False, "email_turns": "off"}
    )

    assert before.status_code == 200 and before.json() == DEFAULTS
    assert changed.status_code == 200
    assert changed.json() == {
        **DEFAULTS,
        "language": "mk",
        "chat_enabled": False,
        "email_turns": "off",
    }
    assert auth_client.get(SETTINGS_API).json() == changed.json()
    assert PlayerSettings.objects.get(user=user).email_turns == "off"


@pytest.mark.parametrize(
    ("field", "value"),
    [("language", "sr"), ("show_online", "no"), ("email_turns", "hourly"), ("display_name", "")],
)
def test_the_api_refuses_bad_settings(auth_client, field, value):
    response = auth_client.patch(SETTINGS_API, {field: value})

    assert response.status_code == 400
    assert field in response.json()["error"]["details"]["fields"]
    assert auth_client.get(SETTINGS_API).json() == DEFAULTS


def test_a_player_page_shows_who_is_online(connected, user_factory):
    viewer = web_client(user_factory())

    online = viewer.get("/accounts/players/ana/").content.decode()
    presence.presence_drop(user_id=connected.pk, channel="test!settings", games=[])
    offline = viewer.get("/accounts/players/ana/").content.decode()

    assert "Online now" in online
    assert "Offline" in offline and "Online now" not in offline


def test_online_status_is_hidden_from_others_when_the_player_says_so(
    connected, client_for, user_factory
):
    ana_api = client_for(connected)
    ana_api.patch(SETTINGS_API, {"show_online": False})
    other = client_for(user_factory())

    page = Client().get("/accounts/players/ana/").content.decode()
    api = other.get("/api/v1/users/ana").json()

    assert 'id="online-status"' not in page
    assert api["online"] is None
    # The server's own rules still see the connection (absent players, emails).
    assert presence.is_connected(connected.pk)


def test_the_public_profile_api_says_online_or_not(connected, client_for, user_factory):
    other = client_for(user_factory())

    assert other.get("/api/v1/users/ana").json()["online"] is True
    presence.presence_drop(user_id=connected.pk, channel="test!settings", games=[])
    assert other.get("/api/v1/users/ana").json()["online"] is False
