"""The pause between two live deals in a real browser: the deal's summary, once closed,
opens again from the button beside the prompt, and "Ready" still deals on; the summary
and the keyboard's list are dialogs axe-core finds nothing serious in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.axe import describe
from tests.browser.test_score_sheet import DRY_HAND, PASSWORD, live_game
from tests.gamekit import current_engine_deal

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]


def test_a_closed_deal_summary_opens_again_from_the_prompt_and_ready_deals_on(
    player_factory: Callable[..., Any],
    starter_hand: Callable[[str], None],
    settings: Any,
    axe_violations: Callable[[Any], list[dict[str, Any]]],
) -> None:
    settings.REMI_DEAL_PAUSE_SECONDS = 600
    starter_hand(DRY_HAND)
    names = ["mila", "goran"]
    game = live_game(names)
    starter = current_engine_deal(game).to_move
    players = [player_factory(name) for name in names]
    for player in players:
        player.log_in(player.name, PASSWORD)
        player.goto(f"/games/{game.public_id}/")
        expect(player.page.locator("#hand .pcard").first).to_be_visible()
        expect(player.page.locator("#pause-summary")).to_be_hidden()
    mover, other = players[starter], players[1 - starter]

    for meld in ("7H 8H 9H 10H", "QS QD QC", "KS KD KC", "2D 3D 4D 5D"):
        mover.select(*meld.split())
        mover.page.click("#lay-group")
    mover.open_with_the_staged_melds()
    mover.select("9C")
    mover.page.click("#discard")

    summary = other.page.locator("#summary")
    expect(summary).to_be_visible()
    expect(summary.locator("#deal-ready")).to_be_visible()
    violations = axe_violations(other.page)
    assert not violations, "the deal's summary:\n" + describe(violations)

    # Closed, with Esc as a person would: the prompt's button brings it back.
    other.page.keyboard.press("Escape")
    expect(summary).to_be_hidden()
    reopen = other.page.locator("#pause-summary")
    expect(reopen).to_be_visible()
    reopen.click()
    expect(summary).to_be_visible()
    expect(summary.locator("h2")).to_have_text("Deal 1 is over")
    expect(reopen).to_be_hidden()

    # A page opened during the pause shows no summary by itself: the button opens it.
    mover.page.reload()
    expect(mover.page.locator("#summary")).to_be_hidden()
    mover.page.locator("#pause-summary").click()
    mover.page.locator("#deal-ready").click()
    expect(mover.page.locator("#deal-ready")).to_be_disabled()

    other.page.locator("#deal-ready").click()
    for player in players:
        expect(player.page.locator("#game-meta")).to_contain_text("Deal 2 of 8")
        expect(player.page.locator("#pause-summary")).to_be_hidden()

    other.page.click("#keyboard-button")
    expect(other.page.locator("#keyboard-help")).to_be_visible()
    violations = axe_violations(other.page)
    assert not violations, "the keyboard's list:\n" + describe(violations)
