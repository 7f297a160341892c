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
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from accounts.models import Profile
from games.models import Game, Seat
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from tests import pseudo_locale_kit as pseudo
from tests.browser.conftest import ROOT
from tests.browser.deal_end import PASSWORD
from tests.gamekit import current_engine_deal

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

SCREENSHOTS = ROOT / "artifacts" / "screenshots"
SIZES = [(360, 640), (390, 844), (640, 360), (844, 390)]
LANGUAGES = ["en", "mk", "pl"]
# Four tens (the widest rank), court cards and jokers: the corners that clip first.
HAND = "10H 10S 10D 10C QH KS JD AS 2D 3C 4H 5S 6D 7C JK"
# Below this a strip is too thin for a fingertip and for "10♥" (the floor).
MIN_STRIP_PX = 24
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

# Every card's own strip (its box less the next card's where that lies on top), the
# widest strip its corner index needs, and what a tap at the strip's middle would hit.
MEASURE_HAND = """() => {
  const cards = [...document.querySelectorAll('#hand .hand-card')];
  return cards.map((card, index) => {
    const box = card.getBoundingClientRect();
    const next = cards[index + 1] && cards[index + 1].getBoundingClientRect();
    const sameRow = next && next.top < box.bottom - 4 && next.left > box.left;
    const right = sameRow ? next.left : box.right;
    const corner = card.querySelector('.corner-top').getBoundingClientRect();
    const x = (box.left + right) / 2, y = box.top + Math.min(box.height / 2, 30);
    const hit = document.elementFromPoint(x, y);
    return {
      card: card.dataset.card, left: box.left, top: box.top, right: box.right,
      bottom: box.bottom, strip: right - box.left, cornerRight: corner.right,
      cornerBottom: corner.bottom, tapped: hit !== null && hit.closest('.hand-card') === card,
    };
  });
}"""

# The page's scroll position and how far it reaches to the right.
PAGE_EXTENT = """() => ({
  scroll: [window.scrollX, window.scrollY],
  width: document.documentElement.scrollWidth,
})"""

# What the player needs besides the hand: every one whole on the screen.
ON_SCREEN = {
    "the stock": "#stock",
    "the discard pile": "#discard",
    "the turn": "#me .turn-tag",
    "what to do now": "#prompt",
    "sort by suit": "#sort-suit",
    "sort by rank": "#sort-rank",
    "lay a group": "#lay-group",
    "discard": "#discard-button",
    "deselect": "#deselect",
}


def phone_table(
    starter_hand: Callable[[str], None], preset: str, seats: int, rules: dict[str, Any]
) -> tuple[Game, str]:
    """A started game of ``preset`` at ``seats`` seats whose starter holds HAND.
    (game, the starter's username)"""
    starter_hand(HAND)
    users = [
        get_user_model().objects.create_user(username=f"p{n}{preset[:3]}", password=PASSWORD)
        for n in range(seats)
    ]
    game = game_create(owner=users[0], preset=preset, overrides=rules, players=seats)
    for user in users[1:]:
        game_join(game=game, user=user)
    game = game_start(game=game, user=users[0])
    starter = Seat.objects.get(game=game, position=current_engine_deal(game).to_move).user
    return game, starter.username


def inside(box: dict[str, float], width: int, height: int) -> bool:
    # Half a pixel of slack for subpixel layout.
    return (
        box["x"] >= -0.5
        and box["y"] >= -0.5
        and box["x"] + box["width"] <= width + 0.5
        and box["y"] + box["height"] <= height + 0.5
    )


def one_screen_problems(page: Page, width: int, height: int, where: str) -> list[str]:
    """What keeps the hand's every card from being readable and tappable, or the piles,
    the turn and the actions from sharing the first screen of a page that does not
    scroll (all of it, so that one run names every size that fails)."""
    problems = []
    extent = page.evaluate(PAGE_EXTENT)
    if extent["scroll"] != [0, 0]:
        problems.append(f"{where}: the page scrolled to {extent['scroll']}")
    if extent["width"] > width:
        problems.append(f"{where}: the page is {extent['width']} px wide")
    for what, selector in ON_SCREEN.items():
        box = page.locator(selector).first.bounding_box()
        if box is None or not inside(box, width, height):
            problems.append(f"{where}: {what} is not on the screen ({box})")
    cards = page.evaluate(MEASURE_HAND)
    if len(cards) != 15:
        problems.append(f"{where}: {len(cards)} cards")
    for card in cards:
        what = f"{where}: {card['card']}"
        if card["strip"] < MIN_STRIP_PX:
            problems.append(f"{what} shows {card['strip']:.1f} px")
        # The whole corner ("10" and its suit) lies on the card's own strip.
        if card["cornerRight"] > card["left"] + card["strip"] + 0.5:
            problems.append(f"{what}: its corner is cut")
        if not (card["left"] >= -0.5 and card["right"] <= width + 0.5):
            problems.append(f"{what} is off the side")
        if not (card["top"] >= -0.5 and card["bottom"] <= height + 0.5):
            problems.append(f"{what} is off the screen")
        if not card["tapped"]:
            problems.append(f"{what}: a tap on its strip lands on something else")
    return problems


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
    hand = page.locator("#hand")
    before = hand.bounding_box()
    first = page.locator("#hand .hand-card").first.bounding_box()
    page.locator("#hand .hand-card").last.tap(position={"x": 8, "y": 20})
    expect(page.locator("#hand .hand-card.selected")).to_have_count(1)
    expect(page.locator("#selection-info")).to_contain_text("1 selected")
    after = hand.bounding_box()
    first_after = page.locator("#hand .hand-card").first.bounding_box()
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
