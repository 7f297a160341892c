"""The table on a phone at the moment that matters: 15 cards in the hand. At 360×640,
390×844, 640×360 and 844×390, in every rule set, at two seats and at the most the rule
set seats, in English, Macedonian and Polish, every card's rank and suit show on a strip
a finger can tap, and the stock, the discard pile, the turn and the actions share the
first screen with the hand. One deal per rule set and table size; the same page is
resized and read again in each language."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from accounts.models import Profile
from tests import pseudo_locale_kit as pseudo
from tests.browser.boxes import first_box
from tests.browser.deal_end import PASSWORD
from tests.browser.phone_hand_kit import one_screen_problems, phone_table
from tests.browser.player_kit import ROOT

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

SCREENSHOTS = ROOT / "artifacts" / "screenshots"
SIZES = [(360, 640), (390, 844), (640, 360), (844, 390)]
LANGUAGES = ["en", "mk", "pl"]
# (rule set, seats, house rules): every rule set at two seats and at the most it seats.
# Polish Remik deals 13 and draws to 14: a house rule deals 15, the hand under test.
TABLES = [
    ("macedonian", 2, {}),
    ("macedonian", 6, {"max_players": 6}),
    ("serbian", 2, {}),
    ("serbian", 4, {}),
    ("serbian_old_remi", 2, {}),
    ("serbian_old_remi", 4, {}),
    ("polish51", 2, {"hand_size": 15}),
    ("polish51", 6, {"hand_size": 15, "max_players": 6}),
]

# The empty discard pile's words: each on one line of the card (never broken inside a
# word; two words may take two lines), and all of it inside the card.
EMPTY_PILE = """() => {
  const word = document.querySelector('#discard .discard-empty');
  if (!word) return null;
  const text = word.firstChild;
  const broken = [];
  for (const match of word.textContent.matchAll(/\\S+/g)) {
    const range = document.createRange();
    range.setStart(text, match.index);
    range.setEnd(text, match.index + match[0].length);
    if (range.getClientRects().length !== 1) broken.push(match[0]);
  }
  return {
    text: word.textContent, broken,
    whole: word.scrollHeight <= word.clientHeight + 1 && word.scrollWidth <= word.clientWidth + 1,
  };
}"""


def empty_pile_problems(page: Page, where: str) -> list[str]:
    word = page.evaluate(EMPTY_PILE)
    if word is None or (not word["broken"] and word["whole"]):
        return []
    return [f"{where}: the empty discard pile's {word['text']!r} is broken or cut ({word})"]


def selecting_moves_nothing(page: Page, where: str) -> list[str]:
    """Select the last card and put it down again: the line that says what is selected
    changes, the hand does not move."""
    before = first_box(page, "#hand")
    first = first_box(page, "#hand .hand-card")
    page.locator("#hand .hand-card").last.tap(position={"x": 8, "y": 20})
    expect(page.locator("#hand .hand-card.selected")).to_have_count(1)
    expect(page.locator("#selection-info")).to_contain_text("1 selected")
    after = first_box(page, "#hand")
    first_after = first_box(page, "#hand .hand-card")
    page.locator("#hand .hand-card").last.tap(position={"x": 8, "y": 20})
    expect(page.locator("#hand .hand-card.selected")).to_have_count(0)
    if before != after or first != first_after:
        return [f"{where}: selecting a card moved the hand from {before} to {after}"]
    return []


def screenshot(page: Page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


@pytest.mark.parametrize(("preset", "seats", "rules"), TABLES, ids=lambda v: str(v or ""))
def test_fifteen_cards_and_the_whole_turn_fit_one_phone_screen(
    preset: str,
    seats: int,
    rules: dict[str, Any],
    starter_hand: Callable[[str], None],
    player_factory: Callable[..., Any],
    settings: Any,
) -> None:
    # And the pseudo-locale: every message about 40 % longer than in English.
    languages = [*LANGUAGES, pseudo.enable(settings)]
    game, starter = phone_table(starter_hand, preset, seats, rules)
    phone = player_factory(starter, *SIZES[0], has_touch=True, is_mobile=True)
    phone.log_in(starter, PASSWORD)
    page = phone.page
    problems: list[str] = []
    for language in languages:
        Profile.objects.filter(user__username=starter).update(language=language)
        phone.goto(f"/games/{game.public_id}/")
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("#hand .hand-card")).to_have_count(15)
        expect(page.locator("#me")).to_have_class("me me-to-move")
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            where = f"{preset}, {seats} seats, {language}, {width}×{height}"
            page.evaluate("() => new Promise(requestAnimationFrame)")
            # A photograph per size and table in English, and the narrowest in the others.
            if language == "en" or width == SIZES[0][0]:
                screenshot(page, f"phone-{preset}-{seats}-{language}-{width}x{height}")
            problems += one_screen_problems(page, width, height, where)
            problems += empty_pile_problems(page, where)
            if language == "en":
                problems += selecting_moves_nothing(page, where)
    assert not problems, "\n".join(problems)
