"""A forgotten password, in a browser: sign up with an address, confirm it from the
email, then reset the password through the link the reset email carries."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

from tests.accounts.account_kit import LINK

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

OLD_PASSWORD = "correct-horse-battery-staple"
NEW_PASSWORD = "a-new-and-longer-passphrase"


def link_to(address: str, subject: str) -> str:
    [message] = [m for m in mail.outbox if m.to == [address] and subject in m.subject]
    [link] = LINK.findall(message.body)
    return link


def test_a_forgotten_password_is_reset_through_the_emailed_link(player_factory):
    vesna = player_factory("vesna")
    page = vesna.page
    vesna.goto("/accounts/signup/")
    page.fill("#id_username", "vesna")
    page.fill("#id_email", "vesna@example.com")
    page.fill("#id_password1", OLD_PASSWORD)
    page.fill("#id_password2", OLD_PASSWORD)
    page.click("form button[type=submit]")
    expect(page.locator(".messages")).to_contain_text("We sent a link to vesna@example.com")

    page.goto(link_to("vesna@example.com", "Confirm your email address"))
    expect(page.locator("h1")).to_have_text("Address confirmed")
    page.click("header button:has-text('Log out')")
    page.wait_for_url(re.compile(r".*/$"))

    vesna.goto("/accounts/login/")
    page.click("text=Forgot your password?")
    page.fill("#id_email", "vesna@example.com")
    page.click("form button[type=submit]")
    expect(page.locator("h1")).to_have_text("Check your email")

    page.goto(link_to("vesna@example.com", "Choose a new password"))
    expect(page.locator("h1")).to_have_text("Choose a new password")
    page.fill("#id_new_password1", NEW_PASSWORD)
    page.fill("#id_new_password2", NEW_PASSWORD)
    page.click("form button[type=submit]")
    expect(page.locator("h1")).to_have_text("Password changed")
    vesna.screenshot("password-reset-complete")

    page.click("main a:has-text('Log in')")
    vesna.log_in("vesna", NEW_PASSWORD)
    vesna.goto("/settings/")
    expect(page.locator("#current-email")).to_have_text("vesna@example.com")
