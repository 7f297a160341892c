"""Signup, login (session and token), logout, lockout and the profile (/me)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from accounts.models import ApiToken

pytestmark = pytest.mark.django_db

SIGNUP = "/api/v1/auth/signup"
LOGIN = "/api/v1/auth/login"
LOGOUT = "/api/v1/auth/logout"
ME = "/api/v1/me"


def test_signup_creates_account_with_profile_and_session(api_client, password):
    response = api_client.post(
        SIGNUP,
        {"username": "marko", "password": password, "display_name": "Marko P."},
        format="json",
    )

    assert response.status_code == 201
    body = response.json()
    assert body["username"] == "marko"
    assert body["display_name"] == "Marko P."
    assert body["is_bot"] is False
    user = get_user_model().objects.get(username="marko")
    assert user.check_password(password)
    assert user.profile.display_name == "Marko P."
    assert api_client.get(ME).json()["username"] == "marko"  # signed in by session


def test_signup_display_name_defaults_to_username(api_client, password):
    body = api_client.post(SIGNUP, {"username": "jelena", "password": password}).json()

    assert body["display_name"] == "jelena"


def test_signup_rejects_a_weak_password(api_client):
    response = api_client.post(SIGNUP, {"username": "marko", "password": "123"}, format="json")

    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid"
    assert error["details"]["fields"]["password"]
    assert not get_user_model().objects.filter(username="marko").exists()


def test_signup_rejects_a_taken_username_whatever_its_case(api_client, user, password):
    response = api_client.post(SIGNUP, {"username": "ANA", "password": password}, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "username_taken"


def test_login_with_token_name_returns_a_working_token(api_client, user, password):
    response = api_client.post(
        LOGIN,
        {"username": "ana", "password": password, "token_name": "cli"},
        format="json",
    )

    assert response.status_code == 200
    body = response.json()
    assert body["user"]["username"] == "ana"
    assert body["token"]["name"] == "cli"
    assert ApiToken.objects.filter(user=user, name="cli").count() == 1
    api_client.logout()
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {body['token']['token']}")
    assert api_client.get(ME).json()["username"] == "ana"


def test_login_without_token_name_starts_a_session_only(api_client, user, password):
    response = api_client.post(LOGIN, {"username": "ana", "password": password}, format="json")

    assert response.status_code == 200
    assert response.json()["token"] is None
    assert not ApiToken.objects.exists()
    assert api_client.get(ME).status_code == 200


def test_login_with_a_wrong_password_is_refused(api_client, user):
    response = api_client.post(LOGIN, {"username": "ana", "password": "nope"}, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_credentials"
    assert api_client.get(ME).status_code == 401


def test_repeated_failed_logins_lock_the_account_for_that_address(
    api_client, user, password, settings
):
    settings.AXES_FAILURE_LIMIT = 3
    for _ in range(2):
        response = api_client.post(LOGIN, {"username": "ana", "password": "x"}, format="json")
        assert response.status_code == 400

    third = api_client.post(LOGIN, {"username": "ana", "password": "x"}, format="json")
    with_right_password = api_client.post(
        LOGIN, {"username": "ana", "password": password}, format="json"
    )

    for response in (third, with_right_password):
        assert response.status_code == 429
        assert response.json()["error"]["code"] == "locked_out"
        assert int(response["Retry-After"]) == settings.AXES_COOLOFF_TIME.total_seconds()
    assert api_client.get(ME).status_code == 401


def test_a_lockout_does_not_spread_to_other_accounts(
    api_client, user, user_factory, password, settings
):
    settings.AXES_FAILURE_LIMIT = 2
    user_factory(username="boris")
    for _ in range(2):
        api_client.post(LOGIN, {"username": "ana", "password": "x"}, format="json")

    response = api_client.post(LOGIN, {"username": "boris", "password": password}, format="json")

    assert response.status_code == 200


def test_logout_ends_the_session(api_client, user, password):
    api_client.post(LOGIN, {"username": "ana", "password": password}, format="json")

    assert api_client.post(LOGOUT).status_code == 204
    assert api_client.get(ME).status_code == 401


def test_logout_leaves_api_tokens_valid(auth_client):
    assert auth_client.post(LOGOUT).status_code == 204

    assert auth_client.get(ME).status_code == 200


def test_me_shows_the_profile(auth_client):
    body = auth_client.get(ME).json()

    assert body["username"] == "ana"
    assert body["display_name"] == "Ana"
    assert set(body) >= {"id", "bio", "country", "avatar", "is_bot", "bot_level", "date_joined"}


def test_me_patch_changes_the_profile(auth_client, user):
    response = auth_client.patch(
        ME, {"display_name": "Ana K.", "country": "RS", "avatar": "🃏", "bio": "Hi"}, format="json"
    )

    assert response.status_code == 200
    assert response.json()["display_name"] == "Ana K."
    assert response.json()["country"] == "RS"
    user.profile.refresh_from_db()
    assert (user.profile.display_name, user.profile.avatar, user.profile.bio) == (
        "Ana K.",
        "🃏",
        "Hi",
    )


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("country", "Serbia"),
        ("country", "ZZ"),  # two letters, but CLDR's "unknown region"
        ("country", "EU"),  # a union of countries
        ("avatar", "http://insecure.example/a.png"),
        ("display_name", ""),
    ],
)
def test_me_patch_validates(auth_client, field, value):
    response = auth_client.patch(ME, {field: value}, format="json")

    assert response.status_code == 400
    assert field in response.json()["error"]["details"]["fields"]


def test_me_patch_cannot_make_a_bot(auth_client, user):
    auth_client.patch(ME, {"is_bot": True, "bot_level": 4}, format="json")

    user.profile.refresh_from_db()
    assert user.profile.is_bot is False


def test_every_user_gets_a_profile(db):
    user = get_user_model().objects.create_superuser("root", password="x")

    assert user.profile.display_name == "root"
    assert user.profile.is_bot is False


def test_ensure_bots_creates_the_builtin_bots_once(db):
    call_command("ensure_bots", verbosity=0)
    call_command("ensure_bots", verbosity=0)

    bots = get_user_model().objects.filter(profile__is_bot=True).order_by("profile__bot_level")
    assert [(b.profile.display_name, b.profile.bot_level) for b in bots] == [
        ("Random Rita", 1),
        ("Greedy Goran", 2),
        ("Careful Katarina", 3),
        ("Expert Emil", 4),
    ]
    assert not any(bot.has_usable_password() for bot in bots)


def test_bots_cannot_log_in(api_client, bots):
    response = api_client.post(LOGIN, {"username": bots[0].username, "password": ""}, format="json")

    assert response.status_code == 400


def test_behind_proxies_lockouts_follow_the_forwarded_address(api_client, user, settings):
    settings.PROXY_COUNT = 1
    settings.AXES_FAILURE_LIMIT = 2
    for _ in range(2):
        api_client.post(
            LOGIN, {"username": "ana", "password": "x"}, HTTP_X_FORWARDED_FOR="203.0.113.7"
        )

    elsewhere = api_client.post(
        LOGIN, {"username": "ana", "password": "x"}, HTTP_X_FORWARDED_FOR="198.51.100.2"
    )

    assert elsewhere.status_code == 400  # a wrong password, not a lockout
