"""The table on a 360×640 touch screen: the hand, the stock, the discard pile and whose
turn it is show without scrolling, and a whole turn is played with taps."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from games.models import Game, Move, Seat
from tests.browser.axe import describe
from tests.browser.deal_end import PASSWORD
from tests.browser.site_pages import PHONE
from tests.browser.table_kit import OPENING_HAND, started_game
from tests.gamekit import current_engine_deal

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def polish_game(starter_hand: Callable[[str], None]) -> tuple[Game, str]:
    """A started 2-player polish51 game; the starter holds OPENING_HAND and draws
    first. (game, the starter's username)"""
    starter_hand(OPENING_HAND)
    game, _users = started_game("polish51", ("tara", "uros"))
    starter = Seat.objects.get(game=game, position=current_engine_deal(game).to_move).user
    return game, starter.username


def assert_in_viewport(page: Page, locator: Locator, what: str) -> None:
    # A retrying assertion: the table may draw itself again (a poll's answer) between
    # finding the element and measuring it, which a one-off measurement took for absent.
    width, height = PHONE["width"], PHONE["height"]
    expect(locator, f"{what} is not wholly on the {width}×{height} screen").to_be_in_viewport(
        ratio=1
    )
    assert page.evaluate("() => [window.scrollX, window.scrollY]") == [0, 0]


def tap_card(page: Page, card: str) -> None:
    """Tap a card of the hand on its visible left edge (the cards overlap) and see it
    lift: a tap the table lost fails here, naming the card, not at the next button."""
    node = page.locator(f'#hand .pcard[data-card="{card}"]').first
    pressed = node.get_attribute("aria-pressed")
    node.tap(position={"x": 6, "y": 36})
    after = "false" if pressed == "true" else "true"
    expect(
        page.locator(f'#hand .pcard[data-card="{card}"][aria-pressed="{after}"]'),
        f"the tap on {card} did not {'select' if after == 'true' else 'deselect'} it",
    ).not_to_have_count(0)


def test_a_phone_shows_the_table_on_one_screen_and_a_whole_turn_is_played_by_touch(
    polish_game: tuple[Game, str],
    player_factory: Callable[..., Any],
    axe_violations: Callable[[Page], list[dict[str, Any]]],
) -> None:
    game, starter = polish_game
    phone = player_factory(starter, **PHONE, has_touch=True, is_mobile=True)
    phone.log_in(starter, PASSWORD)
    phone.goto(f"/games/{game.public_id}/")
    page = phone.page
    expect(page.locator("#hand .pcard")).to_have_count(13)
    expect(page.locator("#me")).to_have_class("me me-to-move")

    # Everything a turn needs, on the first screen.
    assert_in_viewport(page, page.locator("#stock"), "the stock")
    assert_in_viewport(page, page.locator("#discard"), "the discard pile")
    assert_in_viewport(page, page.locator("#me .turn-tag"), "'Your turn'")
    assert_in_viewport(page, page.locator("#prompt"), "what to do now")
    for index, card in enumerate(page.locator("#hand .pcard").all()):
        assert_in_viewport(page, card, f"card {index + 1} of the hand")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    phone.screenshot("phone-table", full_page=False)

    # Draw from the stock.
    page.locator("#stock").tap()
    expect(page.locator("#hand .card-fresh")).to_have_count(1)
    drawn = page.locator("#hand .card-fresh").get_attribute("data-card")
    assert drawn is not None
    assert_in_viewport(page, page.locator("#hand .card-fresh"), "the card just drawn")

    # Open with two melds: 7-8-9-10♥ (34) and Q♠ Q♦ Q♣ (30).
    for card in ("7H", "8H", "9H", "10H"):
        tap_card(page, card)
    expect(page.locator("#hand .pcard.selected")).to_have_count(4)
    expect(page.locator("#lay-group")).to_be_enabled()
    page.locator("#lay-group").tap()
    expect(page.locator("#hand .pcard.selected")).to_have_count(0)
    for card in ("QS", "QD", "QC"):
        tap_card(page, card)
    expect(page.locator("#hand .pcard.selected")).to_have_count(3)
    expect(page.locator("#lay-group")).to_be_enabled()
    page.locator("#lay-group").tap()
    expect(page.locator("#staging-total")).to_have_text("64 / 51")
    # Mid-turn (cards drawn, an opening staged) the table is as accessible as at rest.
    violations = axe_violations(page)
    assert not violations, describe(violations)
    page.locator("#open-button").tap()
    expect(page.locator("#melds .meld")).to_have_count(2)
    phone.screenshot("phone-table-opened", full_page=False)

    # Throw the drawn card away: the turn passes.
    tap_card(page, drawn)
    page.locator("#discard").tap()
    expect(page.locator("#me")).not_to_have_class("me me-to-move")
    expect(page.locator("#hand .pcard")).to_have_count(13 + 1 - 7 - 1)
    kinds = list(Move.objects.filter(game=game).order_by("ply").values_list("kind", flat=True))
    # The opening is laid in one move or in one move a meld, by the engine's rules.
    assert kinds[0] == "draw" and kinds[-1] == "discard", kinds
    assert kinds[1:-1] and set(kinds[1:-1]) == {"lay"}, kinds
