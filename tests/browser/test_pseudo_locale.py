"""Every page, dialog and table state read in the pseudo-locale (every message wrapped in
"⟦…⟧", docs/translations.md): no visible text, aria-label, title or placeholder stands
outside the markers, other than names, numbers and card symbols. Text found there was
never marked for translation, or was put together from pieces. One browser context
walks everything, signed out, then in."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import Profile, Sanction
from games.models import Challenge, Game
from tests import pseudo_locale_kit as pseudo
from tests.browser.deal_end import (
    DRY_HAND,
    LAST_CARD,
    PASSWORD,
    stage_the_dry_hand,
    start_live_game,
)
from tests.browser.layout_kit import layout_problems
from tests.browser.live_clock_kit import timeout_step
from tests.browser.site_pages import (
    DESKTOP,
    MORE_PAGES,
    PAGES,
    PHONE,
    PLAYER,
    VISITOR,
    WRITTEN,
    People,
    SitePage,
    make_site_data,
    open_page,
)
from tests.gamekit import current_engine_deal

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]

# Texts a page may show unmarked for now, each with why. Each is taken out of the page
# before the check, and each must still be seen: when one is marked, the test says
# so, and it comes off this list. None is left.
KNOWN_LEAKS: tuple[str, ...] = ()

# What a person sees or hears: the rendered text (an open dialog's too), the title, and
# the labels, titles, placeholders and alt texts of what is shown.
PAGE_TEXTS = """() => {
  const texts = [document.title, document.body.innerText];
  for (const element of document.body.querySelectorAll("*")) {
    if (!element.checkVisibility({ visibilityProperty: true })) continue;
    for (const name of ["aria-label", "title", "placeholder", "alt", "aria-valuetext"]) {
      const value = element.getAttribute(name);
      if (value) texts.push(value);
    }
    if (element.matches("input[type=submit], input[type=button]") && element.value) {
      texts.push(element.value);
    }
  }
  return texts;
}"""


class Check:
    """The unmarked text found, by where it was seen; the known leaks seen; what the
    longer words push out of shape at a desktop's and a phone's width."""

    def __init__(self, names: frozenset[str]) -> None:
        self.names = set(names) | set(KNOWN_LEAKS)
        self.found: dict[str, list[str]] = {}
        self.leaks_seen: set[str] = set()
        self.misshapen: list[str] = []

    def look_at_widths(self, where: str, page: Page) -> None:
        """The page as a desktop and a phone lay it out (no load: the same page made
        narrower)."""
        size = page.viewport_size
        for width in (DESKTOP, PHONE):
            page.set_viewport_size(width)
            page.evaluate("() => new Promise(requestAnimationFrame)")
            self.misshapen += layout_problems(
                page, f"{where} at {width['width']} px", tables_as_cards=False
            )
        page.set_viewport_size(size)

    def look(self, where: str, page: Page) -> None:
        texts = page.evaluate(PAGE_TEXTS)
        unmarked = [" ".join(pseudo.outside_markers(text).split()) for text in texts]
        self.leaks_seen |= {leak for leak in KNOWN_LEAKS if any(leak in t for t in unmarked)}
        lines = pseudo.unmarked_lines(texts, self.names)
        if lines:
            self.found[where] = lines
        self.look_at_widths(where, page)

    def report(self) -> str:
        lines = ["Text outside the pseudo-locale's markers (not marked for translation):"]
        for where, found in self.found.items():
            lines.append(f"  {where}:")
            lines += [f"    {line}" for line in found]
        return "\n".join(lines)

    def verify(self) -> None:
        assert not self.found, self.report()
        assert not self.misshapen, "In the pseudo-locale:\n" + "\n".join(self.misshapen)
        gone = sorted(set(KNOWN_LEAKS) - self.leaks_seen)
        assert not gone, f"marked now, take them off KNOWN_LEAKS: {gone}"


def _look(check: Check, person: Any, site_page: SitePage, data: Any, language: str) -> None:
    page = person.page
    open_page(page, person.base_url, site_page, data)
    expect(page.locator("html")).to_have_attribute("lang", language)
    # Every folded part opened (the house rules, the how-to-play panel, a moderator's
    # forms): what it shows counts as much as the page's first view.
    page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    check.look(site_page.name, page)


def _names() -> frozenset[str]:
    """The accounts' names, the games' ids and the languages' own names (the switcher):
    no catalogue translates them."""
    people = Profile.objects.values_list("user__username", "display_name")
    games = set(Game.objects.values_list("public_id", flat=True))
    games |= set(Challenge.objects.values_list("public_id", flat=True))
    languages = {name for _code, name in django_settings.LANGUAGES}
    return frozenset(name for pair in people for name in pair if name) | games | languages


def test_every_page_and_table_state_in_the_pseudo_locale_is_marked(
    live_table: tuple[Game, Any, Any, Any],
    player_factory: Callable[..., Any],
    starter_hand: Callable[[str], None],
    settings: Any,
) -> None:
    language = pseudo.enable(settings)
    absent_game, host, _, _ = live_table
    settings.REMI_DEAL_PAUSE_SECONDS = 600
    data = make_site_data()
    starter_hand(DRY_HAND)
    # A live serbian game of dana and goran, started: the starter holds DRY_HAND.
    goran = get_user_model().objects.create_user(username="goran", password=PASSWORD)
    game = start_live_game([data.finished.owner, goran])
    Profile.objects.update(language=language)
    check = Check(_names() | frozenset(WRITTEN.values()))
    person = player_factory("dana", locale="en-XA")
    page = person.page

    pages = PAGES + MORE_PAGES
    # The moderator's and the sanctioned player's pages, each in a browser of its own.
    others = People(player_factory, locale="en-XA")
    for site_page in (p for p in pages if p.who not in (VISITOR, PLAYER)):
        _look(check, others[site_page], site_page, data, language)
    for signed_in in (False, True):
        if signed_in:
            person.log_in("dana", PASSWORD)
        for site_page in (p for p in pages if p.who == (PLAYER if signed_in else VISITOR)):
            _look(check, person, site_page, data, language)
        if not signed_in:
            # A form's errors: a wrong password.
            person.goto("/accounts/login/")
            page.fill("#id_username", "dana")
            page.fill("#id_password", "not-the-password")
            page.click("form button[type=submit]")
            expect(page.locator(".errorlist, .form-error, [role=alert]").first).to_be_visible()
            check.look("login, refused", page)

    # The table of a live deal: its key list, an error shown, the deal to its end.
    starter_name = ["dana", "goran"][current_engine_deal(game).to_move]
    if starter_name != "dana":
        page.context.clear_cookies()
        person.log_in(starter_name, PASSWORD)
    person.goto(f"/games/{game.public_id}/")
    expect(page.locator("#hand .pcard").first).to_be_visible()
    check.look("the table, to move", page)
    page.click("#keyboard-button")
    expect(page.locator("#keyboard-help")).to_be_visible()
    check.look("the table's key list", page)
    page.keyboard.press("Escape")
    page.locator("details.keys summary").click()
    check.look("the table's how to play", page)

    # A staged meld that is none: the table says why, and what the opening lacks.
    person.select("7H", "QS", "2D")
    page.click("#lay-group")
    expect(page.locator("#staging-melds .meld-invalid")).to_have_count(1)
    expect(page.locator("#staging-note")).not_to_be_empty()
    check.look("the table, not a meld", page)
    page.locator("#staging-melds .meld-remove").click()
    expect(page.locator("#staging-melds .meld")).to_have_count(0)

    stage_the_dry_hand(person)
    check.look("the table, an opening staged", page)
    page.click("#open-button")
    expect(page.locator("#melds .meld")).to_have_count(4)
    check.look("the table, melds down", page)
    person.select(LAST_CARD)
    page.click("#discard")
    expect(page.locator("#summary")).to_be_visible()
    check.look("the deal's summary", page)
    page.locator("#summary-actions button[value=close]").click()
    expect(page.locator("#score-sheet tr.sheet-line")).to_have_count(1)
    check.look("the pause and the score sheet", page)
    # The same deal's summary as the player who lost it sees it.
    page.context.clear_cookies()
    person.log_in(next(name for name in ("dana", "goran") if name != starter_name), PASSWORD)
    person.goto(f"/games/{game.public_id}/")
    summary = page.locator("#summary")
    page.locator("#pause-summary, #summary[open]").first.wait_for()
    if not summary.is_visible():
        page.click("#pause-summary")
    expect(summary).to_be_visible()
    check.look("the deal's summary, the loser's", page)

    # A player away: the table waits for them, then the host chooses.
    page.context.clear_cookies()
    person.log_in(host.username, PASSWORD)
    person.goto(f"/games/{absent_game.public_id}/")
    expect(page.locator("#hand .pcard").first).to_be_visible()
    check.look("the table, a bank running", page)
    assert timeout_step(absent_game) == "waiting"
    expect(page.locator("#absent .absent-clock")).to_be_visible()
    check.look("the table, waiting for a player away", page)
    assert timeout_step(absent_game) == "choice"
    expect(page.locator("#absent-dialog")).to_be_visible()
    expect(page.locator("#absent-dialog .absent-choice")).to_have_count(3)
    check.look("the host's choice", page)

    # Banned meanwhile: the next page says why (the moderator's words are a name here:
    # no catalogue translates them) and until when.
    reason = "Insults in the chat"
    Sanction.objects.create(
        user=host, kind=Sanction.Kind.BAN, reason=reason, ends_at=timezone.now() + timedelta(days=3)
    )
    check.names |= {reason}
    person.goto("/games/")
    expect(page.locator("#banned")).to_be_visible()
    check.look("banned", page)

    check.verify()
