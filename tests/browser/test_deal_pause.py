"""The pause between two live deals in a real browser: the deal's summary, once closed,
opens again from the button beside the prompt, and "Ready" still deals on; the summary
and the keyboard's list are dialogs axe-core finds nothing serious in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.axe import describe
from tests.browser.deal_end import DryDeal, go_out

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]


def test_a_closed_deal_summary_opens_again_from_the_prompt_and_ready_deals_on(
    player_factory: Callable[..., Any],
    dry_deal: DryDeal,
    axe_violations: Callable[[Any], list[dict[str, Any]]],
) -> None:
    mover, other = dry_deal.seat_players(player_factory)
    players = (mover, other)
    for player in players:
        expect(player.page.locator("#pause-summary")).to_be_hidden()

    go_out(mover)

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
