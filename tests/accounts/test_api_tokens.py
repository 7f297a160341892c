"""Personal API tokens: /api/v1/tokens and Bearer authentication."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import ApiToken

pytestmark = pytest.mark.django_db

TOKENS = "/api/v1/tokens"
ME = "/api/v1/me"


def bearer(raw: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    return client


def test_created_token_is_shown_once_and_works(auth_client):
    response = auth_client.post(TOKENS, {"name": "my-bot"}, format="json")

    assert response.status_code == 201
    body = response.json()
    assert body["name"] == "my-bot"
    assert body["expiry"] is None
    assert body["last_used"] is None
    assert body["token"].startswith("remi_")
    assert bearer(body["token"]).get(ME).json()["username"] == "ana"
    listed = auth_client.get(TOKENS).json()["results"]
    assert all("token" not in item for item in listed)
    assert body["token"] not in str(listed)


def test_token_is_stored_hashed(auth_client):
    raw = auth_client.post(TOKENS, {"name": "hashed"}, format="json").json()["token"]

    stored = ApiToken.objects.get(name="hashed")
    assert raw not in (stored.digest, stored.token_key)
    assert len(stored.digest) == 128  # sha512 hex
    assert raw not in str(list(ApiToken.objects.values()))


def test_list_shows_name_created_last_used_and_expiry(auth_client):
    auth_client.post(TOKENS, {"name": "short", "expires_in_days": 7}, format="json")

    tokens = auth_client.get(TOKENS).json()["results"]

    assert [t["name"] for t in tokens] == ["short", "test"]  # newest first
    short = tokens[0]
    assert set(short) == {"id", "name", "created", "last_used", "expiry", "scopes"}
    assert short["expiry"] is not None
    assert tokens[1]["last_used"] is not None  # "test" is the one this client uses


def test_token_records_last_used(user, token_factory):
    token, raw = token_factory(user)
    assert token.last_used is None

    assert bearer(raw).get(ME).status_code == 200

    token.refresh_from_db()
    assert token.last_used is not None
    assert timezone.now() - token.last_used < timedelta(seconds=10)


def test_last_used_is_written_at_most_once_a_minute(user, token_factory, django_assert_num_queries):
    _token, raw = token_factory(user)
    client = bearer(raw)
    client.get(ME)

    # token+user lookup, profile, ratings: no UPDATE within the minute
    with django_assert_num_queries(3):
        assert client.get(ME).status_code == 200


def test_revoked_token_is_refused(auth_client, user, token_factory):
    token, raw = token_factory(user, name="doomed")

    assert auth_client.delete(f"{TOKENS}/{token.id}").status_code == 204

    response = bearer(raw).get(ME)
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "authentication_failed"
    assert not ApiToken.objects.filter(pk=token.pk).exists()


def test_someone_elses_token_cannot_be_revoked(auth_client, user_factory, token_factory):
    other_token, other_raw = token_factory(user_factory())

    response = auth_client.delete(f"{TOKENS}/{other_token.id}")

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    assert bearer(other_raw).get(ME).status_code == 200


def test_someone_elses_tokens_are_not_listed(auth_client, user_factory, token_factory):
    token_factory(user_factory(), name="theirs")

    assert [t["name"] for t in auth_client.get(TOKENS).json()["results"]] == ["test"]


def test_expired_token_is_refused(user, token_factory):
    _token, raw = token_factory(user, expires_in=timedelta(seconds=-1))

    assert bearer(raw).get(ME).status_code == 401


def test_expired_tokens_are_not_listed(auth_client, user, token_factory):
    token_factory(user, name="old", expires_in=timedelta(seconds=-1))

    assert [t["name"] for t in auth_client.get(TOKENS).json()["results"]] == ["test"]


def test_other_authorization_schemes_are_not_tokens(user, token_factory):
    _token, raw = token_factory(user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {raw}")

    assert client.get(ME).status_code == 401


def test_tokens_require_authentication(api_client):
    response = api_client.get(TOKENS)

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Bearer"
    assert response.json()["error"]["code"] == "not_authenticated"


def test_token_name_is_required(auth_client):
    response = auth_client.post(TOKENS, {}, format="json")

    assert response.status_code == 400
    assert "name" in response.json()["error"]["details"]["fields"]


def test_tokens_per_user_are_limited(auth_client, settings):
    settings.API_TOKENS_PER_USER = 2
    assert auth_client.post(TOKENS, {"name": "second"}, format="json").status_code == 201

    response = auth_client.post(TOKENS, {"name": "third"}, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "too_many_tokens"


def test_session_clients_need_csrf_to_create_tokens(user):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)

    response = client.post(TOKENS, {"name": "csrf"}, format="json")

    assert response.status_code == 403
    assert response.json()["error"]["code"] == "permission_denied"
    assert "CSRF" in response.json()["error"]["message"]
