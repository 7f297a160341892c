"""The notification settings page in a real browser: a player who never chose a time
zone gets their browser's, saved at once; the Web Push part finds its service worker;
the page runs its scripts under the Content-Security-Policy without an error."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, expect

from games.models import PlayerSettings
from tests.browser.player_kit import TIMEOUT_MS, save_screenshot

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]

PASSWORD = "correct-horse-battery-staple"


@pytest.fixture
def browser_zone() -> str:
    """The time zone of the browser's clock (a test may parametrize it)."""
    return "Europe/Belgrade"


@pytest.fixture
def page_in_belgrade(
    browser: Browser, live_server: Any, browser_zone: str
) -> Iterator[tuple[Any, list[str]]]:
    """A logged-in player's page in a browser whose clock is in ``browser_zone``, and
    the errors the page reports (script errors, console errors, CSP violations)."""
    get_user_model().objects.create_user(username="ana", password=PASSWORD)
    context = browser.new_context(viewport={"width": 1200, "height": 900}, timezone_id=browser_zone)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "ana")
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url(re.compile(r".*/$"))
    try:
        yield page, errors
    finally:
        context.close()


@pytest.mark.parametrize(
    ("browser_zone", "saved", "place"),
    [
        ("Europe/Belgrade", "Europe/Belgrade", "Serbia"),
        # Chromium names India's zone by its older id; the page offers CLDR's.
        ("Asia/Calcutta", "Asia/Kolkata", "India"),
    ],
)
def test_the_browsers_time_zone_is_saved_and_the_push_part_is_ready(
    page_in_belgrade, live_server, saved, place
):
    page, errors = page_in_belgrade

    page.goto(f"{live_server.url}/settings/notifications/")

    expect(page.locator("#zone-status")).to_have_text(f"Set to your browser's time zone, {place}.")
    expect(page.locator("#id_time_zone")).to_have_value(saved)
    expect(page.locator("#push-on")).to_be_visible()
    expect(page.locator("#push-off")).to_be_hidden()
    expect(page.locator("#push-status")).to_have_text("This browser receives no notifications.")
    assert PlayerSettings.objects.get(user__username="ana").time_zone == saved
    save_screenshot(page, "notification-settings")
    assert errors == []


def test_a_chosen_zone_is_kept_and_the_form_saves(page_in_belgrade, live_server):
    page, errors = page_in_belgrade
    PlayerSettings.objects.create(user=get_user_model().objects.get(), time_zone="Asia/Tokyo")

    page.goto(f"{live_server.url}/settings/notifications/")
    expect(page.locator("#id_time_zone")).to_have_value("Asia/Tokyo")
    page.check("input[name=email_turns][value=daily]")
    page.check("input[name=reminder_hours][value='8']")
    page.click("#notification-form button[type=submit]")

    expect(page.locator(".message")).to_have_text("Your notification settings are saved.")
    row = PlayerSettings.objects.get()
    assert (row.time_zone, row.email_turns, row.reminder_hours) == (
        "Asia/Tokyo",
        "daily",
        [24, 8, 2],
    )
    assert errors == []
