"""The account web pages: signup, login, profile and tokens."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from accounts.models import ApiToken

pytestmark = pytest.mark.django_db


def test_home_page_links_to_signup_and_login(client):
    response = client.get("/")

    assert response.status_code == 200
    assert b"/accounts/signup/" in response.content
    assert b"/accounts/login/" in response.content


def test_signup_page_creates_the_account_and_logs_in(client, password):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "vesna",
            "display_name": "Vesna",
            "password1": password,
            "password2": password,
        },
    )

    assert response.status_code == 302
    assert get_user_model().objects.get(username="vesna").profile.display_name == "Vesna"
    assert b"Vesna" in client.get("/accounts/profile/").content


def test_signup_page_shows_errors(client, password):
    response = client.post(
        "/accounts/signup/",
        {"username": "vesna", "password1": password, "password2": password + "x"},
    )

    assert response.status_code == 200
    assert b"The two passwords differ." in response.content


def test_login_page_logs_in(client, user, password):
    response = client.post("/accounts/login/", {"username": "ana", "password": password})

    assert response.status_code == 302
    assert client.get("/accounts/profile/").status_code == 200


def test_login_page_locks_out_after_repeated_failures(client, user, settings):
    settings.AXES_FAILURE_LIMIT = 2
    client.post("/accounts/login/", {"username": "ana", "password": "x"})

    response = client.post("/accounts/login/", {"username": "ana", "password": "x"})

    assert response.status_code == 429
    assert b"Too many failed logins" in response.content


def test_profile_page_requires_login(client):
    response = client.get("/accounts/profile/")

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_profile_page_saves_the_profile(client, user):
    client.force_login(user)

    response = client.post(
        "/accounts/profile/", {"display_name": "Ana B.", "bio": "", "country": "HR", "avatar": ""}
    )

    assert response.status_code == 302
    user.profile.refresh_from_db()
    assert (user.profile.display_name, user.profile.country) == ("Ana B.", "HR")


def test_profile_page_creates_a_token_and_shows_it_once(client, user):
    client.force_login(user)

    # (The form's scope boxes come ticked: a browser sends them all.)
    scopes = ["read", "play", "challenge", "bot:play", "account"]
    response = client.post("/accounts/tokens/", {"name": "laptop", "scopes": scopes})

    assert response.status_code == 200
    token = ApiToken.objects.get(user=user, name="laptop")
    raw = response.context["new_token"]
    assert raw.startswith("remi_") and raw.encode() in response.content
    assert raw.encode() not in client.get("/accounts/profile/").content
    assert token.token_key == raw[:15]


def test_profile_page_revokes_a_token(client, user, token_factory):
    token, _raw = token_factory(user)
    client.force_login(user)

    response = client.post(f"/accounts/tokens/{token.id}/revoke/")

    assert response.status_code == 302
    assert not ApiToken.objects.filter(pk=token.pk).exists()


def test_logout_is_a_post(client, user):
    client.force_login(user)

    assert client.post("/accounts/logout/").status_code == 302
    assert client.get("/accounts/profile/").status_code == 302


def test_the_profile_page_lists_countries_by_name_in_the_readers_language(client, user):
    user.profile.language = "mk"
    user.profile.save()
    client.force_login(user)

    page = client.get("/accounts/profile/", HTTP_ACCEPT_LANGUAGE="mk").content.decode()

    assert '<option value="RS">Србија</option>' in page
    assert 'value="EU"' not in page


def test_the_profile_page_refuses_a_code_that_is_no_country(client, user):
    client.force_login(user)

    response = client.post(
        "/accounts/profile/", {"display_name": "Ana", "bio": "", "country": "ZZ", "avatar": ""}
    )

    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    user.profile.refresh_from_db()
    assert user.profile.country == ""


def test_the_player_page_names_the_country(client, user):
    user.profile.country = "MK"
    user.profile.save()

    page = client.get(f"/accounts/players/{user.username}/").content.decode()

    assert "North Macedonia ·" in page
