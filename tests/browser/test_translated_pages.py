"""Every page in Macedonian and in Serbian Cyrillic, and the table through a whole live
deal (the deal, its summary, the score sheet, the pause, the keyboard's list): no
English text that the catalogues translate is left in what a person sees or hears."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.models import Profile
from tests.browser.deal_end import LAST_CARD, DryDeal, stage_the_dry_hand
from tests.browser.english_left import english_in_page
from tests.browser.site_pages import PAGES, SIZES, People, make_site_data, open_page

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]

LANGUAGES = ["mk", "sr-cyrl"]
# What the browser asks for (Accept-Language, navigator.language) in each language.
BROWSER_LOCALE = {"mk": "mk", "sr-cyrl": "sr-Cyrl"}


def speak(language: str) -> frozenset[str]:
    """Every account reads the site in ``language``; their names, which no catalogue
    translates."""
    Profile.objects.update(language=language)
    names = Profile.objects.values_list("user__username", "display_name")
    return frozenset(name for pair in names for name in pair if name)


def report(found: dict[str, list[str]], language: str) -> str:
    lines = [f"English left in {language}:"]
    lines += [f"  {where}: {texts}" for where, texts in found.items()]
    return "\n".join(lines)


SIZE_FOR = {"mk": "desktop", "sr-cyrl": "phone"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_speaks_the_language_without_english_left(
    language: str, player_factory: Callable[..., Any]
) -> None:
    data = make_site_data()
    names = speak(language)
    locale = BROWSER_LOCALE[language]
    people = People(player_factory, locale=locale, **SIZES["desktop"])

    found: dict[str, list[str]] = {}
    for site_page in PAGES:
        person = people[site_page]
        # One size a language (the two languages cover both): the suit of pages twice
        # over would double the test's time for little news.
        for size_name in (SIZE_FOR[language],):
            person.page.set_viewport_size(SIZES[size_name])
            response = open_page(person.page, person.base_url, site_page, data)
            assert response is not None and response.ok, site_page.name
            expect(person.page.locator("html")).to_have_attribute("lang", language)
            left = english_in_page(person.page, language, names)
            if left:
                found[f"{site_page.name} ({size_name})"] = left

    # The table's list of keys, opened as a person opens it.
    table = next(site_page for site_page in PAGES if site_page.name == "table")
    member = people[table]
    member.page.set_viewport_size(SIZES["desktop"])
    open_page(member.page, member.base_url, table, data)
    member.page.click("#keyboard-button")
    expect(member.page.locator("#keyboard-help")).to_be_visible()
    left = english_in_page(member.page, language, names)
    if left:
        found["keyboard help"] = left

    assert not found, report(found, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_whole_live_deal_speaks_the_language_without_english_left(
    language: str,
    player_factory: Callable[..., Any],
    dry_deal: DryDeal,
) -> None:
    names = speak(language) | set(dry_deal.names)
    mover, other = dry_deal.seat_players(player_factory, locale=BROWSER_LOCALE[language])

    found: dict[str, list[str]] = {}

    def look(where: str, player: Any) -> None:
        left = english_in_page(player.page, language, names)
        if left:
            found[where] = left

    look("the table, to move", mover)
    look("the table, waiting", other)
    # Mid-deal: an opening staged, then laid down.
    stage_the_dry_hand(mover)
    look("the table, an opening staged", mover)
    mover.page.click("#open-button")
    expect(mover.page.locator("#melds .meld")).to_have_count(4)
    look("the table, melds down", mover)
    mover.select(LAST_CARD)
    mover.page.click("#discard")

    for where, player in (("mover", mover), ("other", other)):
        expect(player.page.locator("#summary")).to_be_visible()
        look(f"the deal's summary ({where})", player)
    # On a phone the summary, every hand in it, stays on the screen.
    other.page.set_viewport_size(SIZES["phone"])
    dialog = other.page.locator("#summary").bounding_box()
    assert dialog is not None and dialog["x"] >= 0
    assert dialog["x"] + dialog["width"] <= SIZES["phone"]["width"], dialog
    other.screenshot(f"deal-summary-{language}-phone", full_page=False)
    other.page.set_viewport_size(SIZES["desktop"])
    # The pause with the summary closed: the prompt, the score sheet beside it.
    other.page.locator("#summary-actions button[value=close]").click()
    expect(other.page.locator("#summary")).to_be_hidden()
    expect(other.page.locator("#score-sheet tr.sheet-line")).to_have_count(1)
    look("the pause, summary closed", other)
    other.page.click("#keyboard-button")
    look("keyboard help", other)

    assert not found, report(found, language)
