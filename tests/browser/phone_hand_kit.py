"""What the browser tests of the hand on a phone share: a started game whose starter
holds fifteen cards, and what keeps that hand and the turn from fitting the first screen
(measured in the page)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from games.models import Game, Seat
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from tests.browser.boxes import first_box
from tests.browser.deal_end import PASSWORD
from tests.gamekit import current_engine_deal

# Four tens (the widest rank), court cards and jokers: the corners that clip first.
HAND = "10H 10S 10D 10C QH KS JD AS 2D 3C 4H 5S 6D 7C JK"
# Below this a strip is too thin for a fingertip and for "10♥" (the floor).
MIN_STRIP_PX = 24

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
        try:
            box = first_box(page, selector)
        except PlaywrightTimeoutError:
            problems.append(f"{where}: {what} is not shown")
            continue
        if not inside(box, width, height):
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
