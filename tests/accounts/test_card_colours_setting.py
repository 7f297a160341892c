"""The deck's colours are an account setting: /me/settings, the settings page, and the
attribute every page gives the scripts that draw cards."""

from __future__ import annotations

import pytest

from tests.accounts.account_kit import web_client

pytestmark = pytest.mark.django_db

SETTINGS_API = "/api/v1/me/settings"


def test_a_new_account_has_the_two_colour_deck(auth_client):
    assert auth_client.get(SETTINGS_API).json()["card_colours"] == "two"


def test_the_api_switches_to_the_four_colour_deck_and_back(auth_client, user):
    four = auth_client.patch(SETTINGS_API, {"card_colours": "four"}, format="json")
    user.profile.refresh_from_db()
    stored = user.profile.card_colours
    two = auth_client.patch(SETTINGS_API, {"card_colours": "two"}, format="json")

    assert four.status_code == 200 and four.json()["card_colours"] == "four"
    assert stored == "four"
    assert two.json()["card_colours"] == "two"


@pytest.mark.parametrize("value", ["three", "", None, 4])
def test_the_api_refuses_a_deck_that_is_not_on_the_list(auth_client, user, value):
    response = auth_client.patch(SETTINGS_API, {"card_colours": value}, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"
    assert "card_colours" in response.json()["error"]["details"]["fields"]
    user.profile.refresh_from_db()
    assert user.profile.card_colours == "two"


def test_the_settings_page_offers_and_saves_the_deck(user):
    client = web_client(user)
    page = client.get("/settings/").content.decode()
    response = client.post(
        "/settings/",
        {"display_name": "Ana", "language": "en", "email_turns": "each", "card_colours": "four"},
    )

    assert 'name="card_colours"' in page and 'value="four"' in page
    assert response.status_code == 302
    user.profile.refresh_from_db()
    assert user.profile.card_colours == "four"


def test_a_settings_form_without_the_deck_leaves_it_as_it_is(user):
    user.profile.card_colours = "four"
    user.profile.save(update_fields=["card_colours"])

    web_client(user).post(
        "/settings/", {"display_name": "Ana", "language": "en", "email_turns": "each"}
    )

    user.profile.refresh_from_db()
    assert user.profile.card_colours == "four"


def test_every_page_tells_the_scripts_the_accounts_deck(user, client):
    user.profile.card_colours = "four"
    user.profile.save(update_fields=["card_colours"])

    assert 'data-card-colours="four"' in web_client(user).get("/").content.decode()
    assert "data-card-colours" not in client.get("/").content.decode()
