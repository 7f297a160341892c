"""POST /api/v1/auth/login gives neither a session nor a token to an account that may
not sign in: a banned one (403 ``banned``, why and until when) or a deactivated one
(403 ``account_closed``); a deleted one has no password left."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import deletion
from accounts.models import ApiToken
from accounts.moderation import services as moderation
from accounts.moderation.roles import MODERATOR_GROUP
from tests.gamekit import error_of
from tests.user_kit import PASSWORD

pytestmark = pytest.mark.django_db

LOGIN = "/api/v1/auth/login"


@pytest.fixture
def moderator(user_factory: Callable[..., Any]) -> Any:
    person = user_factory()
    person.is_staff = True
    person.save()
    person.groups.add(Group.objects.get(name=MODERATOR_GROUP))
    return person


def log_in(username: str, password: str = PASSWORD) -> Any:
    return APIClient().post(
        LOGIN, {"username": username, "password": password, "token_name": "bot"}, format="json"
    )


def test_a_banned_account_gets_no_session_and_no_token(user: Any, moderator: Any) -> None:
    ends = timezone.now() + timedelta(days=3)
    moderation.ban_create(user=user, moderator=moderator, reason="cheating", ends_at=ends)

    refused = log_in(user.username)

    assert refused.status_code == 403
    error = error_of(refused)
    assert error["code"] == "banned"
    assert error["details"]["reason"] == "cheating" and error["details"]["until"]
    assert "sessionid" not in refused.cookies
    assert not ApiToken.objects.filter(user=user).exists()


def test_a_banned_account_with_a_wrong_password_learns_nothing(user: Any, moderator: Any) -> None:
    moderation.ban_create(user=user, moderator=moderator, reason="cheating", permanent=True)

    refused = log_in(user.username, "not the password")

    assert refused.status_code == 400 and error_of(refused)["code"] == "invalid_credentials"


def test_a_lifted_ban_lets_the_account_sign_in_again(user: Any, moderator: Any) -> None:
    moderation.ban_create(user=user, moderator=moderator, reason="cheating", permanent=True)
    moderation.ban_lift(user=user, moderator=moderator, reason="appeal")

    signed_in = log_in(user.username)

    assert signed_in.status_code == 200 and signed_in.json()["token"]["token"]


def test_a_deactivated_account_is_told_it_is_closed(user: Any) -> None:
    user.is_active = False
    user.save(update_fields=["is_active"])

    refused = log_in(user.username)
    wrong = log_in(user.username, "not the password")

    assert refused.status_code == 403 and error_of(refused)["code"] == "account_closed"
    assert not ApiToken.objects.filter(user=user).exists()
    assert wrong.status_code == 400 and error_of(wrong)["code"] == "invalid_credentials"


def test_a_deleted_account_cannot_sign_in(user: Any) -> None:
    username = user.username
    deletion.account_delete(user=user, password=PASSWORD)

    for name in (username, user.username):
        refused = log_in(name)
        assert refused.status_code == 400 and error_of(refused)["code"] == "invalid_credentials"
    assert not ApiToken.objects.filter(user=user).exists()
