"""What the browser tests share at the browser: a person at their own browser
(``Player``), how long a step may wait, and the photographs of a scenario's steps (with
``REMI_SCREENSHOTS=1``, in var/screens/)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

ROOT = Path(__file__).resolve().parents[2]
SCREENS = ROOT / "var" / "screens"
TIMEOUT_MS = 15_000
SCREENSHOTS = os.environ.get("REMI_SCREENSHOTS", "") not in ("", "0")


def save_screenshot(page: Page, name: str, *, full_page: bool = True) -> None:
    """A step of a scenario, photographed for a person to look at when asked for: each
    costs a third of a second, and the suite passes the scenarios' steps some fifty
    times (the photographs of every page are test_screenshots.py's, always taken)."""
    if not SCREENSHOTS:
        return
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=full_page)


class Player:
    """One person at their own browser (a separate context: their own cookies)."""

    def __init__(self, page: Page, base_url: str, name: str) -> None:
        self.page = page
        self.base_url = base_url
        self.name = name
        self.errors: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on(
            "console",
            lambda message: (
                self.errors.append(message.text)
                if message.type == "error" and not _expected_console_error(message.text)
                else None
            ),
        )

    def goto(self, path: str) -> None:
        self.page.goto(self.base_url + path)

    def sign_up(self, username: str, password: str, display_name: str = "") -> None:
        self.goto("/accounts/signup/")
        self.page.fill("#id_username", username)
        if display_name:
            self.page.fill("#id_display_name", display_name)
        self.page.fill("#id_password1", password)
        self.page.fill("#id_password2", password)
        self.page.click("form button[type=submit]")
        self.page.wait_for_url(re.compile(r".*/$"))

    def log_in(self, username: str, password: str) -> None:
        self.goto("/accounts/login/")
        self.page.fill("#id_username", username)
        self.page.fill("#id_password", password)
        self.page.click("form button[type=submit]")
        self.page.wait_for_url(re.compile(r".*/$"))

    def screenshot(self, name: str, *, full_page: bool = True) -> None:
        save_screenshot(self.page, name, full_page=full_page)

    # the table
    def card(self, text: str) -> Any:
        return self.page.locator(f'#hand .pcard[data-card="{text}"]').first

    def select(self, *cards: str) -> None:
        """Click each card where a finger would: its visible left edge (cards overlap)."""
        for text in cards:
            self.card(text).click(position={"x": 6, "y": 40})

    def open_with_the_staged_melds(self) -> None:
        """Click "Open" and wait until the melds are down: a card selected while the
        lay is still on its way is unselected when the answer redraws the hand."""
        self.page.click("#open-button")
        expect(self.page.locator("#staging-melds .meld")).to_have_count(0)
        expect(self.page.locator("#me .badge-opened")).to_be_visible()

    def draw_and_discard_the_drawn_card(self) -> None:
        """A whole turn at the table: draw from the stock, throw that card away."""
        self.page.click("#stock")
        expect(self.page.locator("#hand .card-fresh")).to_have_count(1)
        drawn = self.page.locator("#hand .card-fresh").get_attribute("data-card")
        assert drawn is not None
        self.select(drawn)
        self.page.click("#discard")

    def hand(self) -> list[str]:
        return self.page.locator("#hand .pcard").evaluate_all("els => els.map(e => e.dataset.card)")


def _expected_console_error(text: str) -> bool:
    # A refused action is answered 4xx (shown as a toast); the WSGI test server has
    # no websocket endpoint, so the page falls back to polling.
    return "status of 4" in text or "WebSocket" in text or "/ws/v1/" in text
