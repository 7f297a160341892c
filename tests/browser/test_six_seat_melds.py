"""A table of six with many melds down, at a phone's, a tablet's, a laptop's and a wide
screen's width: no meld lies over another, over a seat or over the piles, and none
leaves the screen sideways."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from itertools import combinations
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from games.engine import Discard, Ruleset, full_pack, parse_cards
from games.engine.cards import Card
from games.engine.seating import SeatingDraw
from games.models import Game
from games.play import shuffle
from games.play.act import game_act
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from tests.browser.player_kit import TIMEOUT_MS
from tests.browser.six_seats_kit import DRAWS, overlap
from tests.gamekit import current_engine_deal, greedy_action, scripted_deal_source

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]

PASSWORD = "correct-horse-battery-staple"
NAMES = ["ana", "bob", "cvetan", "dragana", "emil", "fikret"]
WIDTHS = [360, 768, 1280, 1920]
# The boxes of the nodes given, measured at one moment (a redraw between two
# measurements would replace the nodes).
BOXES = """nodes => nodes.map((node) => {
  const box = node.getBoundingClientRect();
  return { x: box.x, y: box.y, width: box.width, height: box.height };
})"""
# The part of each meld one sees: clipped to the melds' box only where that box scrolls
# (a phone); elsewhere the melds overflow nothing, and the box's own height says
# nothing of what shows.
SHOWN_MELD_BOXES = """nodes => nodes.map((node) => {
  const box = node.getBoundingClientRect();
  const melds = document.querySelector('#melds');
  const scrolls = melds.scrollHeight > melds.clientHeight + 1
    && ['auto', 'scroll'].includes(getComputedStyle(melds).overflowY);
  const clip = scrolls ? melds.getBoundingClientRect()
    : { left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity };
  const x = Math.max(box.left, clip.left), y = Math.max(box.top, clip.top);
  const right = Math.min(box.right, clip.right), bottom = Math.min(box.bottom, clip.bottom);
  return { x, y, width: Math.max(0, right - x), height: Math.max(0, bottom - y) };
}).filter((box) => box.width > 0 && box.height > 0)"""
# Two sets of each rank (two decks: ♥♠♦, then ♣♥♠), three sets a seat, the highest
# first: every seat can open (51) on its first turn.
SET_RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6"]
SET_SUITS = [("H", "S", "D"), ("C", "H", "S")]


def meld_rich_deck(ruleset: Ruleset, players: int, dealer: int) -> list[Card]:
    """A deck (top first) that deals each seat three sets and four other cards."""
    sets = [
        parse_cards(" ".join(rank + suit for suit in suits))
        for rank in SET_RANKS
        for suits in SET_SUITS
    ]
    rest = full_pack(ruleset.jokers)
    for meld in sets:
        for card in meld:
            rest.remove(card)
    # Low cards first to fill the hands (few melds of their own), jokers kept back.
    random.Random(3).shuffle(rest)
    rest.sort(key=lambda card: card.is_joker)
    starter = (dealer + 1) % players
    hands: dict[int, list[Card]] = {}
    for k in range(players):
        seat = (starter + k) % players
        hands[seat] = [card for meld in sets[3 * k : 3 * k + 3] for card in meld]
    others = iter(rest)
    for seat in hands:
        while len(hands[seat]) < ruleset.hand_size:
            hands[seat].append(next(others))
    order = [(starter + k) % players for k in range(players)] * ruleset.hand_size
    dealt = {seat: iter(hand) for seat, hand in hands.items()}
    deck = [next(dealt[seat]) for seat in order]
    deck.extend(others)
    return deck


def six_at_a_table_with_melds(monkeypatch: pytest.MonkeyPatch) -> Game:
    """Six people at a Polish table (six seats: a house rule), one round played by the
    greedy policy: every seat has laid its sets down."""
    monkeypatch.setattr(shuffle, "deal_source", scripted_deal_source(meld_rich_deck))
    drawn = SeatingDraw.from_draws([parse_cards(card) for card in DRAWS])
    monkeypatch.setattr(shuffle, "seating_source", lambda players: drawn)
    users = [
        get_user_model().objects.create_user(username=name, password=PASSWORD) for name in NAMES
    ]
    game = game_create(owner=users[0], preset="polish51", overrides={"max_players": 6}, players=6)
    for user in users[1:]:
        game_join(game=game, user=user)
    game = game_start(game=game, user=users[0])
    discards = 0
    while discards < len(NAMES):
        game.refresh_from_db()
        deal = current_engine_deal(game)
        action = greedy_action(deal)
        game_act(game=game, user=users[deal.to_move], action=action, expected_ply=game.ply)
        discards += isinstance(action, Discard)
    game.refresh_from_db()
    assert game.deal_number == 1 and game.status == Game.Status.ACTIVE
    return game


def test_many_melds_at_a_table_of_six_never_overlap_at_any_width(
    player_factory: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = six_at_a_table_with_melds(monkeypatch)
    melds_down = len(current_engine_deal(game).table)
    assert melds_down >= 18
    ana = player_factory("ana")
    ana.log_in("ana", PASSWORD)

    problems: list[str] = []
    for width in WIDTHS:
        ana.page.set_viewport_size({"width": width, "height": 900})
        ana.goto(f"/games/{game.public_id}/")
        expect(ana.page.locator("#melds .meld")).to_have_count(melds_down)
        expect(ana.page.locator("#opponents .seat[data-seat]")).to_have_count(5)
        # Each measurement finds its nodes and measures them in one script: the table
        # redraws its melds when the live connection brings news, and a locator's nodes
        # found before such a redraw measure as empty boxes (detached) after it. Drawn is
        # not yet laid out: wait (with the browser tests' deadline) for them to show.
        melds: list[dict[str, float]] = []
        with contextlib.suppress(PlaywrightTimeout):
            melds = ana.page.wait_for_function(
                f"() => {{ const boxes = ({SHOWN_MELD_BOXES})"
                "([...document.querySelectorAll('#melds .meld')]);"
                " return boxes.length ? boxes : null; }",
                timeout=TIMEOUT_MS,
            ).json_value()
        if not melds:
            problems.append(f"{width}px: no meld shows")
        for a, b in combinations(melds, 2):
            if overlap(a, b):
                problems.append(f"{width}px: melds overlap {a} {b}")
        others = ana.page.evaluate(
            f"() => ({BOXES})"
            "([...document.querySelectorAll('#opponents .seat[data-seat], #me, .pile')])"
        )
        for meld in melds:
            if meld["x"] < 0 or meld["x"] + meld["width"] > width + 0.5:
                problems.append(f"{width}px: a meld leaves the screen {meld}")
            problems += [f"{width}px: a meld over {box}" for box in others if overlap(meld, box)]
        page_width = ana.page.evaluate("() => document.documentElement.scrollWidth")
        if page_width > width:
            problems.append(f"{width}px: the page is {page_width}px wide")
        ana.screenshot(f"six-seat-melds-{width}")

    assert not problems, "\n".join(problems)
