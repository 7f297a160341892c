"""What the browser tests do to a page's traffic: hold its requests to an address at the
network until the test lets them go (to make an answer late, or older than a push), and
record every websocket frame the page receives."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Page, Route

from tests.browser.player_kit import TIMEOUT_MS

# Every frame the page's websockets receive, kept in window.__frames from before the
# page's own scripts run (``page.add_init_script``).
RECORD_FRAMES = """window.__frames = [];
const NativeWebSocket = window.WebSocket;
window.WebSocket = class extends NativeWebSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (message) => {
      try { window.__frames.push(JSON.parse(message.data)); } catch { /* not JSON */ }
    });
  }
};"""


def record_frames(page: Page) -> None:
    """Keep the frames of every page ``page`` loads from now on in window.__frames."""
    page.add_init_script(RECORD_FRAMES)


class Held:
    """The page's requests to ``pattern`` (of ``method`` only, if given), held until the
    test continues or answers them; the others go through."""

    def __init__(self, page: Page, pattern: str, *, method: str | None = None) -> None:
        self.page = page
        self.pattern = pattern
        self.method = method
        self.routes: list[Route] = []
        page.route(pattern, self._hold)

    def _hold(self, route: Route) -> None:
        if self.method and route.request.method != self.method:
            route.continue_()
        else:
            self.routes.append(route)

    def first(self) -> Route:
        """The first request held, once the page has sent it."""
        deadline = time.monotonic() + TIMEOUT_MS / 1000
        while not self.routes:  # Playwright runs the route's handler while it waits
            assert time.monotonic() < deadline, f"no request to {self.pattern} was sent"
            self.page.wait_for_timeout(20)
        return self.routes[0]

    def played_late(self) -> tuple[Route, Any]:
        """The first request sent on to the server, which acts on it now; its answer is
        kept from the page until ``route.fulfill(response=answer)``."""
        route = self.first()
        return route, route.fetch()

    def release(self) -> None:
        """Let every held request through, and hold no more."""
        for route in self.routes:
            route.continue_()
        self.stop()

    def stop(self) -> None:
        self.page.unroute(self.pattern)
