"""/settings/vacation/: the days left, starting a vacation and ending it early on the
web (the same writes as /api/v1/me/vacation), linked from /settings/; the profile
then says "on vacation until …"."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import PlayerSettings

pytestmark = pytest.mark.django_db

PAGE = "/settings/vacation/"


def signed_in(person: Any) -> Client:
    client = Client()
    client.force_login(person)
    return client


def test_the_settings_page_links_every_settings_page(user: Any) -> None:
    page = signed_in(user).get(reverse("me:settings")).content.decode()

    for link in (
        'href="/settings/vacation/"',
        'href="/settings/notifications/"',
        'href="/settings/notifications/#reminders"',
        'href="/settings/notifications/#zone"',
        'href="/settings/notifications/#push"',
    ):
        assert link in page


def test_a_player_starts_a_vacation_and_ends_it_early(user: Any) -> None:
    browser = signed_in(user)
    page = browser.get(PAGE)
    assert page.status_code == 200
    text = page.content.decode()
    assert "Days left: <strong>14.0</strong>" in text and "You are not on vacation." in text

    started = browser.post(PAGE, {"action": "start", "days": "3"}, follow=True)

    assert started.status_code == 200
    text = started.content.decode()
    assert "Enjoy your vacation." in text and "On vacation from" in text
    assert "Days left: <strong>11.0</strong>" in text
    row = PlayerSettings.objects.get(user=user)
    assert row.vacation_until is not None
    profile = Client().get(reverse("accounts:player", args=[user.username])).content.decode()
    assert 'id="vacation-badge"' in profile and "on vacation until" in profile

    ended = browser.post(PAGE, {"action": "end"}, follow=True)

    text = ended.content.decode()
    assert "your vacation is over" in text and "You are not on vacation." in text
    assert "Days left: <strong>14.0</strong>" in text
    profile = Client().get(reverse("accounts:player", args=[user.username])).content.decode()
    assert 'id="vacation-badge"' not in profile


@pytest.mark.parametrize(
    ("days", "message"),
    [("20", "Only 14.0 vacation days are left."), ("0", "greater than or equal to 0.5")],
)
def test_a_vacation_the_player_cannot_take_is_refused_with_the_reason(
    user: Any, days: str, message: str
) -> None:
    refused = signed_in(user).post(PAGE, {"action": "start", "days": days})

    assert refused.status_code == 400
    assert message in refused.content.decode()
    assert PlayerSettings.objects.filter(user=user, vacation_until__isnull=False).count() == 0


def test_ending_a_vacation_one_is_not_on_says_so(user: Any) -> None:
    refused = signed_in(user).post(PAGE, {"action": "end"})

    assert refused.status_code == 400 and "You are not on vacation." in refused.content.decode()


def test_the_vacation_page_is_for_signed_in_players() -> None:
    page = Client().get(PAGE)

    assert page.status_code == 302 and "login" in page["Location"]
