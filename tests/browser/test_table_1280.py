"""The table on a 1280×800 screen: a click on the discard pile that cannot act says
why, the signed-in header keeps to one row, home and footer agree on the seats."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from accounts.models import Profile
from games.engine import Discard, parse_cards
from games.engine.rulesets import MAX_SEATS, PRESETS
from games.models import Game, Seat
from games.play.act import game_act
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from tests import pseudo_locale_kit as pseudo
from tests.browser.deal_end import DRY_HAND, PASSWORD, go_out, live_game
from tests.browser.layout_kit import layout_problems
from tests.browser.phone_hand_kit import HAND
from tests.browser.site_pages import DESKTOP
from tests.browser.table_kit import emil_resigns, started_game
from tests.gamekit import current_engine_deal

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


def macedonian_pair(starter_hand: Callable[[str], None]) -> tuple[Game, Any, Any]:
    """A started two-player Macedonian game whose starter holds HAND (15 cards, and
    only a discard to make). (game, the starter, the other player)"""
    starter_hand(HAND)
    game, users = started_game("macedonian", ("zora", "vlado"))
    starter = Seat.objects.get(game=game, position=current_engine_deal(game).to_move).user
    other = next(user for user in users if user != starter)
    return game, starter, other


# Every toast's text as it is shown: an "info" toast leaves after four seconds, which a
# loaded machine can let pass before a locator looks for it.
KEEP_TOASTS = """() => {
  window.toastsShown = [];
  new MutationObserver((changes) => changes.forEach((change) => change.addedNodes.forEach(
    (node) => window.toastsShown.push(node.textContent)))).observe(
    document.getElementById("toasts"), { childList: true });
}"""


def toast_shown(page: Any, text: str) -> None:
    """Wait until a toast holding ``text`` has been shown (KEEP_TOASTS, since the page loaded)."""
    page.wait_for_function("(text) => window.toastsShown.some((t) => t.includes(text))", arg=text)


def test_a_click_on_the_discard_pile_that_cannot_act_says_why(
    starter_hand: Callable[[str], None], player_factory: Callable[..., Any]
) -> None:
    game, starter, other = macedonian_pair(starter_hand)
    player = player_factory(starter.username, **DESKTOP)
    player.log_in(starter.username, PASSWORD)
    player.goto(f"/games/{game.public_id}/")
    page = player.page
    expect(page.locator("#me")).to_have_class("me me-to-move")
    page.evaluate(KEEP_TOASTS)

    page.locator("#discard").click()
    toast_shown(page, "Select the one card")
    player.select("10H", "10S")
    page.locator("#discard").click()
    toast_shown(page, "2 cards are selected: only one card is discarded.")
    # Nothing was thrown away.
    expect(page.locator("#hand .hand-card")).to_have_count(15)

    # The other player, who has not opened, may not take the Macedonian discard.
    game.refresh_from_db()
    game_act(game=game, user=starter, action=Discard(parse_cards("5S")[0]), expected_ply=game.ply)
    watcher = player_factory(other.username, **DESKTOP)
    watcher.log_in(other.username, PASSWORD)
    watcher.goto(f"/games/{game.public_id}/")
    expect(watcher.page.locator("#me")).to_have_class("me me-to-move")
    watcher.page.evaluate(KEEP_TOASTS)
    watcher.page.locator("#discard").click()
    toast_shown(watcher.page, "Only a player who has opened may take from the discard pile")
    expect(watcher.page.locator("#hand .hand-card")).to_have_count(14)
    # And the starter, whose turn is over, hears that it is not theirs.
    page.locator("#discard").click()
    toast_shown(page, "It is not your turn yet.")


# Each mini card of the deal's summary: what a point at the middle of its rank shows.
RANKS_SHOWN = """() => [...document.querySelectorAll('#summary .deal-hand .pcard:not(.card-joker)')]
  .map((card) => {
    const rank = card.querySelector('.corner-rank').getBoundingClientRect();
    const hit = document.elementFromPoint(rank.left + rank.width / 2, rank.top + rank.height / 2);
    return { card: card.dataset.card, shown: hit !== null && hit.closest('.corner-rank') !== null };
  })"""


def test_the_deal_summary_mini_cards_show_every_rank_uncovered(
    starter_hand: Callable[[str], None], player_factory: Callable[..., Any]
) -> None:
    starter_hand(DRY_HAND)
    names = ["mila", "goran"]
    game = live_game(names)
    starter = current_engine_deal(game).to_move
    mover = player_factory(names[starter], **DESKTOP)
    mover.log_in(names[starter], PASSWORD)
    mover.goto(f"/games/{game.public_id}/")
    expect(mover.page.locator("#me")).to_have_class("me me-to-move")
    go_out(mover)

    summary = mover.page.locator("#summary")
    expect(summary).to_be_visible()
    expect(summary.locator(".deal-hand .pcard").first).to_be_visible()
    ranks = mover.page.evaluate(RANKS_SHOWN)
    assert len(ranks) >= 10, ranks
    assert all(rank["shown"] for rank in ranks), [r["card"] for r in ranks if not r["shown"]]
    mover.screenshot("deal-summary-mini-cards", full_page=False)


# The bots' names, the longest a table of six shows (home names them).
SIX_NAMES = [
    "Careful Katarina",
    "Greedy Goran",
    "Expert Emil",
    "Random Rita",
    "Cautious Cvetanka",
    "Daring Dragoljub",
]

# Each text of a selector that its box cuts short (an ellipsis or a clip), by its text.
CUT_TEXTS = """(selector) => [...document.querySelectorAll(selector)]
  .filter((node) => node.scrollWidth > node.clientWidth + 1)
  .map((node) => node.textContent)"""


def six_named_players(preset: str, overrides: dict[str, Any]) -> tuple[Game, list[Any]]:
    """A started game of six whose players go by SIX_NAMES. (game, the users)"""
    users = []
    for index, display_name in enumerate(SIX_NAMES):
        user = get_user_model().objects.create_user(username=f"six{index}", password=PASSWORD)
        Profile.objects.filter(user=user).update(display_name=display_name)
        users.append(user)
    game = game_create(owner=users[0], preset=preset, overrides=overrides, players=6)
    for user in users[1:]:
        game_join(game=game, user=user)
    return game_start(game=game, user=users[0]), users


def sheet_problems(page: Any) -> list[str]:
    """What of the score sheet or the seats' names is cut short at this size."""
    problems = [
        f"seat name cut: {text}" for text in page.evaluate(CUT_TEXTS, "#opponents .seat-label")
    ]
    problems += [
        f"sheet cell cut: {text}"
        for text in page.evaluate(CUT_TEXTS, "#score-sheet th, #score-sheet td")
    ]
    wrap = page.evaluate(
        "() => { const w = document.querySelector('#score-sheet .sheet-wrap');"
        " return [w.scrollWidth, w.clientWidth]; }"
    )
    if wrap[0] > wrap[1]:
        problems.append(f"the sheet is {wrap[0]} px wide in a {wrap[1]} px panel")
    return problems


def test_six_seats_at_1280_show_every_name_whole_in_the_seats_and_the_score_sheet(
    player_factory: Callable[..., Any], settings: Any
) -> None:
    game, users = six_named_players("macedonian", {"max_players": 6})
    player = player_factory("six0", **DESKTOP)
    player.log_in("six0", PASSWORD)
    page = player.page
    # In English, and in the pseudo-locale's longer words.
    for language in ("en", pseudo.enable(settings)):
        Profile.objects.filter(user=users[0]).update(language=language)
        player.goto(f"/games/{game.public_id}/")
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("#opponents .seat[data-seat]")).to_have_count(5)
        expect(page.locator("#score-sheet thead th")).to_have_count(7)
        player.screenshot(f"six-seats-1280-{language}", full_page=False)

        assert sheet_problems(page) == [], language
        assert layout_problems(page, language, tables_as_cards=False) == []
        # One row of menu in English; the pseudo-locale's longer words may take two,
        # every link in view (the languages' own one row: the menu's test below).
        header = page.locator(".site-header .nav").bounding_box()
        rows = 1 if language == "en" else 2
        assert header is not None and header["height"] < 10 + 60 * rows, (language, header)


# Polish Remik 51 in one turn: four melds (103) after the draw, then the drawn card.
REMIK_HAND = "7H 8H 9H 10H QS QD QC KS KD KC 2D 3D 4D"


def test_a_finished_deal_of_six_shows_its_whole_score_sheet_line_at_1280(
    starter_hand: Callable[[str], None], player_factory: Callable[..., Any]
) -> None:
    starter_hand(REMIK_HAND)
    game, _users = six_named_players("polish51", {"max_players": 6})
    starter = Seat.objects.get(game=game, position=current_engine_deal(game).to_move).user
    player = player_factory(starter.username, **DESKTOP)
    player.log_in(starter.username, PASSWORD)
    player.goto(f"/games/{game.public_id}/")
    page = player.page
    expect(page.locator("#me")).to_have_class("me me-to-move")
    page.click("#stock")
    expect(page.locator("#hand .card-fresh")).to_have_count(1)
    drawn = page.locator("#hand .card-fresh").get_attribute("data-card")
    assert drawn is not None
    for meld in ("7H 8H 9H 10H", "QS QD QC", "KS KD KC", "2D 3D 4D"):
        player.select(*meld.split())
        page.click("#lay-group")
    player.open_with_the_staged_melds()
    player.select(drawn)
    page.click("#discard")

    expect(page.locator("#score-sheet .sheet-line")).to_have_count(1)
    expect(page.locator("#score-sheet .sheet-line td")).to_have_count(6)
    page.locator("#score-sheet-panel").scroll_into_view_if_needed()
    player.screenshot("six-seats-1280-sheet", full_page=False)
    assert sheet_problems(page) == []

    # Beside the sheet, the deal's review: the starter's one turn, within the panel.
    review = page.locator('#review-body[data-state="ready"]')
    expect(review.locator(".review-turn")).to_have_count(1)
    page.locator("#review-panel").scroll_into_view_if_needed()
    player.screenshot("six-seats-1280-review", full_page=False)
    assert review_problems(page) == []


def review_problems(page: Any) -> list[str]:
    """What of the review panel is wider than the panel or cut short at this size."""
    widths = page.evaluate(
        "() => [...document.querySelectorAll('#review-panel, #review-panel *')]"
        ".filter((node) => node.scrollWidth > node.clientWidth + 1"
        " && getComputedStyle(node).overflowX !== 'auto')"
        ".map((node) => `${node.tagName}.${node.className}: ${node.scrollWidth}px`"
        " + ` in ${node.clientWidth}px`)"
    )
    return [f"wider than its box: {text}" for text in widths] + [
        f"cut: {text}" for text in page.evaluate(CUT_TEXTS, "#review-panel p, #review-panel label")
    ]


# Whether the menu's items share one row: each starts above where every other ends.
MENU_ROWS = """() => {
  const boxes = [...document.querySelectorAll('.site-header .nav-links > li')]
    .map((item) => item.getBoundingClientRect());
  const lowestTop = Math.max(...boxes.map((box) => box.top));
  return boxes.every((box) => lowestTop < box.bottom) ? 1 : 2;
}"""


@pytest.mark.parametrize("path", ["/", "/play/"])
def test_the_signed_in_menu_keeps_to_one_row_at_1280_in_every_language(
    path: str, player_factory: Callable[..., Any]
) -> None:
    user = get_user_model().objects.create_user(username="longname", password=PASSWORD)
    # The longest display name an account may have.
    Profile.objects.filter(user=user).update(display_name="Aleksandra Konstantinovska-Petrovska")
    player = player_factory("longname", **DESKTOP)
    player.log_in("longname", PASSWORD)
    for language in ("en", "mk", "sr-latn", "pl"):
        Profile.objects.filter(user=user).update(language=language)
        player.goto(path)
        expect(player.page.locator("html")).to_have_attribute("lang", language)
        assert player.page.evaluate(MENU_ROWS) == 1, f"{language}: the menu wraps"
        width = player.page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= DESKTOP["width"], f"{language}: the page is {width} px wide"
    player.screenshot("menu-1280-pl", full_page=False)


def test_a_rated_game_resigned_before_every_player_moved_says_why_it_moved_no_rating(
    player_factory: Callable[..., Any],
) -> None:
    game, _users = emil_resigns(after_moves=False)
    dana = player_factory("dana", **DESKTOP)
    dana.log_in("dana", PASSWORD)
    dana.goto(f"/games/{game.public_id}/")
    expect(dana.page.locator("#game-meta")).to_contain_text(
        "rated, but not counted: the game ended before every player had moved"
    )
    expect(dana.page.locator("#waiting")).to_contain_text("Not rated:")


def test_home_and_footer_give_the_seats_the_engine_allows(
    player_factory: Callable[..., Any],
) -> None:
    visitor = player_factory("visitor", **DESKTOP)
    visitor.goto("/")
    seats = f"2 to {MAX_SEATS} players"
    expect(visitor.page.locator("main .card h2", has_text="players")).to_have_text(seats)
    expect(visitor.page.locator(".site-footer")).to_contain_text(f"2–{MAX_SEATS} players")
    # The house rule that seats five or six is named where it applies.
    assert max(PRESETS[name].seat_limit for name in ("macedonian", "polish51")) == MAX_SEATS
    assert PRESETS["serbian"].seat_limit == 4
