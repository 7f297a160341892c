"""Counting a moderator's steps in a browser test: each page the browser loads and
each interaction (a click, a field filled, an option chosen), so that a path on the
site can be set against the admin's (about 12 interactions from a report to a ban).
The counts are printed and appended to artifacts/moderation-steps.txt."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Frame, Locator, Page

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"


class Steps:
    """A page whose loads and interactions are counted, from ``start()`` to ``done()``."""

    def __init__(self, page: Page, base_url: str) -> None:
        self.page = page
        self.base_url = base_url
        self.pages = 0
        self.interactions = 0
        page.on("framenavigated", self._navigated)

    def _navigated(self, frame: Frame) -> None:
        # A new document in the tab (a link, a form's answer, a redirect's end).
        if frame == self.page.main_frame:
            self.pages += 1

    def start(self) -> None:
        self.pages = self.interactions = 0

    def goto(self, path: str) -> None:
        """A page typed or opened from a bookmark: one page, no interaction."""
        self.page.goto(self.base_url + path)

    def click(self, locator: Locator, **options: Any) -> None:
        self.interactions += 1
        locator.click(**options)

    def fill(self, locator: Locator, text: str) -> None:
        self.interactions += 1
        locator.fill(text)

    def select(self, locator: Locator, value: str) -> None:
        self.interactions += 1
        locator.select_option(value)

    def done(self, path: str) -> tuple[int, int]:
        """The (pages, interactions) of ``path``, printed and recorded."""
        # Let a navigation the last click started be counted.
        self.page.wait_for_load_state()
        counts = (self.pages, self.interactions)
        line = f"{path}: {counts[0]} pages, {counts[1]} interactions"
        print(line)
        ARTIFACTS.mkdir(exist_ok=True)
        with (ARTIFACTS / "moderation-steps.txt").open("a", encoding="utf-8") as out:
            out.write(line + "\n")
        return counts
