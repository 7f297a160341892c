"""The match deal by deal in a real browser: a live deal is played to its end, then the
deal's summary shows every hand and each seat's score in words with the countdown to
the next deal, the score sheet beside the table has the deal's line, and "Ready" from
both players deals the next deal. With REMI_SCREENSHOTS=1, the steps are photographed
into var/screens/."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.browser.deal_end import DryDeal, go_out
from tests.gamekit import current_engine_deal

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]


def test_a_whole_deal_then_its_summary_the_score_sheet_and_ready(
    player_factory: Callable[..., Any], dry_deal: DryDeal
) -> None:
    starter, names = dry_deal.starter, dry_deal.names
    mover, other = dry_deal.seat_players(player_factory)
    expect(mover.page.locator("#score-sheet")).to_contain_text("No deal has ended yet.")

    # The whole deal: the starter lays everything down and goes out with a dry hand.
    go_out(mover)

    left = list(current_engine_deal(Game.objects.get()).hand_ids(1 - starter))
    for player in (mover, other):
        dialog = player.page.locator("#summary")
        expect(dialog).to_be_visible()
        expect(dialog.locator("h2")).to_have_text("Deal 1 is over")
        closer = dialog.locator(f'tr[data-seat="{starter}"]')
        loser = dialog.locator(f'tr[data-seat="{1 - starter}"]')
        expect(closer).to_contain_text("-280")
        expect(closer).to_contain_text("closed with the whole hand")
        expect(closer.locator(".pcard")).to_have_count(0)
        # Every hand is shown now that the deal is over: the other seat's 14 cards.
        expect(loser.locator(".deal-hand .pcard")).to_have_count(len(left))
        expect(loser).to_contain_text("+400")
        expect(loser).to_contain_text("did not open")
        expect(dialog.locator("#deal-countdown")).to_contain_text("The next deal starts in")
        sheet = player.page.locator("#score-sheet")
        expect(sheet).to_contain_text("until a total reaches 501")
        expect(sheet.locator("tr.sheet-line")).to_have_count(1)
        line = sheet.locator("tr.sheet-line").first
        expect(line.locator("td").nth(starter)).to_contain_text("-280")
        expect(line.locator("td").nth(1 - starter)).to_contain_text("+400")
        expect(sheet.locator("tr.sheet-how")).to_contain_text(
            f"{names[starter]} closed with the whole hand"
        )
    mover.screenshot("deal-summary-pause")

    # One player ready: the table still waits for the other.
    mover.page.locator("#deal-ready").click()
    expect(mover.page.locator("#deal-ready")).to_be_disabled()
    expect(other.page.locator("#summary .deal-waiting")).to_have_text("Waiting for: You")
    expect(mover.page.locator("#summary .deal-waiting")).to_have_text(
        f"Waiting for: {names[1 - starter]}"
    )
    assert Game.objects.get().deal_number == 1

    other.page.locator("#deal-ready").click()
    for player in (mover, other):
        expect(player.page.locator("#summary")).to_be_hidden()
        expect(player.page.locator("#game-meta")).to_contain_text("Deal 2 of 8")
        expect(player.page.locator("#hand .pcard").first).to_be_visible()
    mover.screenshot("score-sheet-deal-2")
