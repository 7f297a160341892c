"""Every page under the site's Content-Security-Policy in a real browser: it works (the
table plays a turn against a bot over its websocket, the API docs and the admin run
their scripts) and the browser reports no violation. A hostile display name and chat
line render as text and run nothing."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from accounts.models import Profile
from games.models import Game
from tests.browser.deal_end import PASSWORD
from tests.browser.site_pages import PAGES, PLAYER, VISITOR, People, make_site_data, open_page
from tests.browser.table_kit import OPENING_HAND, bot_cards

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    # whitenoise's static files under ASGI (settings.py hides it outside pytest)
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]

# Reports each violation the page's document sees, also those of a page left at once.
VIOLATION_LISTENER = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.__reportCspViolation(
    `${event.effectiveDirective} refused ${event.blockedURI || "inline"}`
    + ` at ${event.sourceFile}:${event.lineNumber} (${event.sample})`
  );
});
"""
SCRIPT_TAG = "<script>alert(1)</script>"
IMG_TAG = "<img src=x onerror=alert(2)>"


class PolicyWatch:
    """What one person's browser says about the policies: violation events, console
    lines about them, and any dialog a script opened (each dismissed)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.violations: list[str] = []
        self.dialogs: list[str] = []
        page.context.expose_binding(
            "__reportCspViolation",
            lambda source, text: self.violations.append(f"{source['frame'].url}: {text}"),
        )
        page.context.add_init_script(VIOLATION_LISTENER)
        page.on("console", self._console)
        page.on("dialog", self._dialog)

    def _console(self, message: Any) -> None:
        if re.search(r"Content.Security.Policy|Permissions.Policy", message.text, re.I):
            self.violations.append(f"{self.page.url}: console: {message.text}")

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    def assert_clean(self) -> None:
        # A round trip to the page: a report it sent before this has arrived.
        self.page.evaluate("() => 0")
        assert not self.violations, f"policy violations: {self.violations}"
        assert not self.dialogs, f"a script opened dialogs: {self.dialogs}"


def watched(player: Any) -> PolicyWatch:
    return PolicyWatch(player.page)


def visit(player: Any, watch: PolicyWatch, path: str, heading: str | re.Pattern[str]) -> None:
    """Open a page, see it rendered, and find no violation on it."""
    player.goto(path)
    expect(player.page.locator("h1, h2").filter(has_text=heading).first).to_be_visible()
    watch.assert_clean()


def test_every_page_works_under_the_policy_and_reports_no_violation(
    asgi_player_factory: Callable[..., Any],
    starter_hand: Callable[[str], None],
    bots: list[Any],
) -> None:
    starter_hand(OPENING_HAND)
    get_user_model().objects.create_superuser(username="moda", password=PASSWORD)
    vera = asgi_player_factory("vera")
    watch = watched(vera)
    page = vera.page

    # Anonymous pages; sign up, log out through the header's form, log in again.
    visit(vera, watch, "/", "Balkan rummy")
    vera.sign_up("vera", PASSWORD, display_name="Vera")
    watch.assert_clean()
    page.get_by_role("button", name=re.compile("Log out")).click()
    expect(page.get_by_role("navigation").get_by_role("link", name="Log in")).to_be_visible()
    vera.log_in("vera", PASSWORD)
    watch.assert_clean()

    # The lobby starts a live game against a bot; the table plays a turn through the
    # API, the bot answers, and the websocket is open.
    visit(vera, watch, "/play/", "Play Remi")
    page.locator("label.choice", has_text="Polish Remik 51").click()
    page.locator(".segmented label", has_text="Bots").click()
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/games/[a-z0-9]+/$"))
    page.wait_for_function("() => window.__remiLive && window.__remiLive.connected")
    expect(page.locator(".seat .badge-bot")).to_be_visible()
    expect(page.locator("#me.me-to-move")).to_be_visible()
    vera.draw_and_discard_the_drawn_card()
    expect(page.locator("#log")).to_contain_text("Greedy Goran discarded")
    expect(page.locator("#prompt")).to_contain_text("Your turn: draw")
    expect(page.locator(".seat .fan-count")).to_have_text(str(bot_cards()))
    assert page.evaluate("() => window.__remiLive.connected") is True
    watch.assert_clean()

    # The other pages of the site, a missing one and the API docs (Swagger UI renders
    # the schema with its own scripts).
    visit(vera, watch, "/games/", "My games")
    visit(vera, watch, "/accounts/profile/", "Vera")
    visit(vera, watch, "/accounts/players/vera/", "Vera")
    visit(vera, watch, "/accounts/leaderboard/", "Leaderboard")
    visit(vera, watch, "/no-such-page/", "Not found")
    vera.goto("/api/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Remi online API")
    page.locator(".opblock-tag", has_text="games").first.click()
    expect(page.locator(".opblock-summary-path").first).to_be_visible()
    watch.assert_clean()

    # The admin, as staff: its login page, its index, a change list whose action
    # checkboxes run the admin's scripts, and a change form.
    moda = asgi_player_factory("moda")
    staff = watched(moda)
    moda.goto("/admin/login/")
    moda.page.fill("#id_username", "moda")
    moda.page.fill("#id_password", PASSWORD)
    moda.page.click("input[type=submit]")
    expect(moda.page.locator("#site-name")).to_be_visible()
    expect(moda.page.locator("#content h1")).to_have_text("Site administration")
    staff.assert_clean()
    visit(moda, staff, "/admin/games/game/", "Select game to")
    moda.page.click("#action-toggle")
    expect(moda.page.locator(".action-counter")).to_contain_text("1 of 1 selected")
    staff.assert_clean()
    visit(
        moda,
        staff,
        f"/admin/games/game/{Game.objects.get().pk}/change/",
        re.compile("(Change|View) game"),
    )


def test_a_hostile_name_and_chat_line_show_as_text_and_run_nothing(
    serbian_game: tuple[Game, list[Any]],
    asgi_player_factory: Callable[..., Any],
) -> None:
    game, users = serbian_game
    names = {users[0].username: SCRIPT_TAG, users[1].username: IMG_TAG}
    for username, name in names.items():
        Profile.objects.filter(user__username=username).update(display_name=name)
    people = [asgi_player_factory(user.username) for user in users]
    watches = [watched(person) for person in people]
    for person in people:
        person.log_in(person.name, PASSWORD)
        person.goto(f"/games/{game.public_id}/")
        person.page.wait_for_function("() => window.__remiLive && window.__remiLive.connected")
    mila, nina = people

    line = f"hello {SCRIPT_TAG} and {IMG_TAG}"
    mila.page.fill("#chat-input", line)
    mila.page.keyboard.press("Enter")

    for person, watch in zip(people, watches, strict=True):
        page = person.page
        expect(page.locator("#chat-log li").last).to_contain_text(line)
        expect(page.locator("#chat-log li").last).to_contain_text(names[mila.name])
        other = next(username for username in names if username != person.name)
        expect(page.locator("#opponents")).to_contain_text(names[other])
        expect(page.locator("img[src='x']")).to_have_count(0)
        watch.assert_clean()
        # The pages that show the other player's name.
        person.goto("/games/")
        expect(page.locator(".game-list").last).to_contain_text(names[other])
        person.goto(f"/accounts/players/{other}/")
        expect(page.locator("h1")).to_contain_text(names[other])
        expect(page.locator("img[src='x']")).to_have_count(0)
        watch.assert_clean()


def test_the_moderators_and_the_sanctioned_players_pages_run_under_the_policy(
    asgi_player_factory: Callable[..., Any],
) -> None:
    """The page walk's moderator pages (the table's chat controls and seat menus among
    them) and the warning and appeal pages: nothing the policy refuses."""
    data = make_site_data()
    people = People(asgi_player_factory)
    watches: dict[str, PolicyWatch] = {}
    for site_page in (p for p in PAGES if p.who not in (VISITOR, PLAYER)):
        person = people[site_page]
        if site_page.who not in watches:
            watches[site_page.who] = watched(person)
        watch = watches[site_page.who]
        response = open_page(person.page, person.base_url, site_page, data)
        assert response is not None and response.ok, site_page.name
        watch.assert_clean()
