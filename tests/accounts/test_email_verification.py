"""Email addresses: a new one waits for its signed link, and until then the account gets
no email but that link."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail, signing
from django.test import Client

from games import tasks
from games.models import Game
from games.play.act import game_act
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from games.read.selectors import current_deal
from tests.accounts.account_kit import link_path, mails_to, web_client
from tests.gamekit import greedy_action

pytestmark = pytest.mark.django_db

SIGNUP = "/api/v1/auth/signup"
ME = "/api/v1/me"
EMAIL = "/api/v1/me/email"


def signup_on_the_web(client: Client, password: str, email: str = "vesna@example.com") -> None:
    response = client.post(
        "/accounts/signup/",
        {"username": "vesna", "email": email, "password1": password, "password2": password},
    )
    assert response.status_code == 302


def test_signing_up_with_an_address_sends_a_link_and_the_address_waits_for_it(client, password):
    signup_on_the_web(client, password)

    user = get_user_model().objects.get(username="vesna")
    assert (user.email, user.profile.pending_email) == ("", "vesna@example.com")
    [message] = mail.outbox
    assert message.to == ["vesna@example.com"]
    assert "Confirm your email address" in message.subject
    assert "/accounts/verify-email/" in message.body
    assert "We sent a link to vesna@example.com" in client.get("/").content.decode()


def test_the_link_makes_the_address_the_account_s_and_works_once_more_harmlessly(client, password):
    signup_on_the_web(client, password)
    path = link_path(mail.outbox[0])

    opened = Client().get(path)  # another device, not signed in
    again = Client().get(path)

    user = get_user_model().objects.get(username="vesna")
    assert opened.status_code == 200 and "Address confirmed" in opened.content.decode()
    assert again.status_code == 200
    assert (user.email, user.profile.pending_email) == ("vesna@example.com", "")


def test_signing_up_through_the_api_sends_the_link_too(api_client, password):
    response = api_client.post(
        SIGNUP, {"username": "marko", "password": password, "email": "m@example.com"}
    )

    assert response.status_code == 201
    assert (response.json()["email"], response.json()["pending_email"]) == ("", "m@example.com")
    assert api_client.get(link_path(mails_to("m@example.com")[0])).status_code == 200
    assert api_client.get(ME).json()["email"] == "m@example.com"


def play_until_the_turn_of(game: Game, players: list[Any], user: Any) -> None:
    """Plain moves by whoever is to move, until a new turn of ``user`` begins."""
    start = game.ply
    while True:
        game.refresh_from_db()
        deal = current_deal(game)
        assert deal is not None
        mover = players[deal.to_move]
        if mover == user and game.ply > start and not deal.drawn:
            return
        game_act(game=game, user=mover, action=greedy_action(deal), expected_ply=game.ply)


def test_an_unverified_address_gets_no_your_turn_email_and_a_verified_one_does(
    api_client, password, user_factory, deals_seeded
):
    api_client.post(SIGNUP, {"username": "marko", "password": password, "email": "m@example.com"})
    marko = get_user_model().objects.get(username="marko")
    game = game_create(owner=user_factory(), preset="serbian", players=2)
    game_join(game=game, user=marko)
    game = game_start(game=game, user=game.owner)
    players = [seat.user for seat in game.seats.order_by("position")]
    link = link_path(mail.outbox[0])
    mail.outbox.clear()

    play_until_the_turn_of(game, players, marko)
    unverified = tasks.your_turn_email(game.pk, game.ply, marko.pk)
    api_client.get(link)
    play_until_the_turn_of(game, players, marko)
    verified = tasks.your_turn_email(game.pk, game.ply, marko.pk)

    assert unverified is False
    assert verified is True
    assert [message.to for message in mail.outbox] == [["m@example.com"]]


def test_a_changed_address_takes_effect_only_through_its_link(user, password):
    user.email = "old@example.com"
    user.save()
    client = web_client(user)

    response = client.post("/settings/email/", {"email": "new@example.com", "password": password})

    user.refresh_from_db()
    assert response.status_code == 302
    assert (user.email, user.profile.pending_email) == ("old@example.com", "new@example.com")
    page = client.get("/settings/").content.decode()
    assert "old@example.com" in page and "Waiting for confirmation" in page
    assert mails_to("old@example.com") == []
    client.get(link_path(mails_to("new@example.com")[0]))
    user.refresh_from_db()
    assert (user.email, user.profile.pending_email) == ("new@example.com", "")


def test_changing_the_address_needs_the_password(user):
    client = web_client(user)

    response = client.post("/settings/email/", {"email": "new@example.com", "password": "nope"})

    assert response.status_code == 400
    assert "That is not your password." in response.content.decode()
    user.refresh_from_db()
    assert user.profile.pending_email == "" and mail.outbox == []


def test_asking_for_another_address_voids_the_older_link(user, password):
    client = web_client(user)
    client.post("/settings/email/", {"email": "first@example.com", "password": password})
    client.post("/settings/email/", {"email": "second@example.com", "password": password})

    stale = Client().get(link_path(mails_to("first@example.com")[0]))

    assert stale.status_code == 400
    assert "another address was asked for" in stale.content.decode()
    user.refresh_from_db()
    assert (user.email, user.profile.pending_email) == ("", "second@example.com")


def test_a_link_expires_after_three_days(user, password, monkeypatch):
    client = web_client(user)
    four_days_ago = signing.b62_encode(int(time.time() - timedelta(days=4).total_seconds()))
    with monkeypatch.context() as past:
        # The link is signed as if four days ago.
        past.setattr(signing.TimestampSigner, "timestamp", lambda self: four_days_ago)
        client.post("/settings/email/", {"email": "late@example.com", "password": password})

    expired = Client().get(link_path(mails_to("late@example.com")[0]))

    assert expired.status_code == 400 and "expired" in expired.content.decode()
    user.refresh_from_db()
    assert (user.email, user.profile.pending_email) == ("", "late@example.com")


def test_a_forged_link_is_refused(client):
    response = client.get("/accounts/verify-email/not-a-signed-token/")

    assert response.status_code == 400
    assert "This link is not valid." in response.content.decode()


def test_the_link_can_be_sent_again(user, password):
    client = web_client(user)
    client.post("/settings/email/", {"email": "again@example.com", "password": password})

    client.post("/settings/email/resend/")

    assert len(mails_to("again@example.com")) == 2


def test_an_empty_address_removes_the_address_at_once(user, password):
    user.email = "gone@example.com"
    user.save()

    web_client(user).post("/settings/email/", {"email": "", "password": password})

    user.refresh_from_db()
    assert (user.email, user.profile.pending_email) == ("", "")


def test_the_api_changes_the_address_with_the_password(auth_client, user, password):
    wrong = auth_client.post(EMAIL, {"email": "a@example.com", "password": "wrong"})
    response = auth_client.post(EMAIL, {"email": "a@example.com", "password": password})
    bad = auth_client.post(EMAIL, {"email": "not-an-address", "password": password})

    assert wrong.status_code == 400 and wrong.json()["error"]["code"] == "wrong_password"
    assert response.status_code == 200
    assert response.json() == {"email": "", "pending_email": "a@example.com", "sent": True}
    assert bad.status_code == 400 and "email" in bad.json()["error"]["details"]["fields"]
    assert auth_client.get(ME).json()["pending_email"] == "a@example.com"
    assert len(mails_to("a@example.com")) == 1
    again = auth_client.post(EMAIL, {"email": "a@example.com", "password": password})
    assert again.json()["sent"] is True and len(mails_to("a@example.com")) == 2


def test_nobody_signs_up_with_the_name_deleted_accounts_get(api_client, client, password):
    api = api_client.post(SIGNUP, {"username": "Deleted-7", "password": password})
    web = client.post(
        "/accounts/signup/",
        {"username": "deleted-8", "password1": password, "password2": password},
    )

    assert api.status_code == 400 and api.json()["error"]["code"] == "username_taken"
    assert web.status_code == 200 and "That username is taken." in web.content.decode()
