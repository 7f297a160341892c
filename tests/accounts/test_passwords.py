"""Changing one's password, and resetting a forgotten one by email."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

from tests.accounts.account_kit import link_path, mails_to, web_client

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-new-and-longer-passphrase"
PASSWORD_API = "/api/v1/me/password"


def logs_in(username: str, password: str) -> bool:
    response = Client().post("/accounts/login/", {"username": username, "password": password})
    return response.status_code == 302


@pytest.fixture
def verified(user):
    user.email = "ana@example.com"
    user.save()
    return user


# ------------------------------------------------------------------ change


def test_the_password_page_changes_the_password_and_ends_the_other_sessions(user, password):
    here, elsewhere = web_client(user), web_client(user)

    response = here.post(
        "/settings/password/",
        {"old_password": password, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert response.status_code == 302 and response["Location"] == "/settings/"
    assert here.get("/settings/").status_code == 200
    assert elsewhere.get("/settings/").status_code == 302  # sent to the login page
    assert logs_in("ana", NEW_PASSWORD) and not logs_in("ana", password)


def test_the_password_page_wants_the_old_password(user):
    response = web_client(user).post(
        "/settings/password/",
        {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert response.status_code == 200
    assert "Your old password was entered incorrectly" in response.content.decode()


def test_the_api_changes_the_password(auth_client, user, password):
    def change(old: str, new: str):
        return auth_client.post(PASSWORD_API, {"old_password": old, "new_password": new})

    wrong = change("x", NEW_PASSWORD)
    weak = change(password, "12345678")
    changed = change(password, NEW_PASSWORD)

    assert wrong.status_code == 400 and wrong.json()["error"]["code"] == "wrong_password"
    assert weak.status_code == 400 and weak.json()["error"]["details"]["fields"]["new_password"]
    assert changed.status_code == 204
    assert auth_client.get("/api/v1/me").status_code == 200  # the token still works
    assert logs_in("ana", NEW_PASSWORD)


# ------------------------------------------------------------------ reset


def test_a_password_reset_link_sets_a_new_password(client, verified, password):
    asked = client.post("/accounts/password-reset/", {"email": "ana@example.com"})
    [message] = mails_to("ana@example.com")
    path = link_path(message)

    form = client.get(path, follow=True)
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert asked.status_code == 302 and asked["Location"] == "/accounts/password-reset/sent/"
    assert "Choose a new password" in form.content.decode()
    assert done.status_code == 302 and done["Location"] == "/accounts/reset/done/"
    assert logs_in("ana", NEW_PASSWORD) and not logs_in("ana", password)
    assert "Choose a new password" in message.subject
    reused = client.get(path, follow=True)
    assert "This link does not work" in reused.content.decode()


def test_a_reset_for_an_unknown_address_looks_the_same_and_sends_nothing(client, verified):
    response = client.post("/accounts/password-reset/", {"email": "nobody@example.com"})

    assert response.status_code == 302 and response["Location"] == "/accounts/password-reset/sent/"
    assert mail.outbox == []


def test_an_address_not_yet_verified_gets_no_reset_email(client, user):
    user.profile.pending_email = "ana@example.com"
    user.profile.save()

    client.post("/accounts/password-reset/", {"email": "ana@example.com"})

    assert mail.outbox == []


def test_a_reset_lifts_a_lockout(client, verified, settings):
    settings.AXES_FAILURE_LIMIT = 2
    for _ in range(2):
        client.post("/accounts/login/", {"username": "ana", "password": "wrong"})
    assert not logs_in("ana", "correct-horse-battery-staple")

    client.post("/accounts/password-reset/", {"email": "ana@example.com"})
    form = client.get(link_path(mail.outbox[0]), follow=True)
    client.post(
        form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )

    assert logs_in("ana", NEW_PASSWORD)


def test_the_login_page_links_to_the_reset(client):
    assert "/accounts/password-reset/" in client.get("/accounts/login/").content.decode()
