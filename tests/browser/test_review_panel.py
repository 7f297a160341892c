"""The review of a deal beside the score sheet, in a real browser: a live deal is played
to its end, the panel says the review is being prepared while its task has not run,
asks again by itself, and then shows each player their own turns (the closer's turn
with what it laid and threw; the other player, who had no turn, none). With the pages'
timers stopped, the websocket's ``review_ready`` alone brings the review in."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from playwright.sync_api import expect

from games import tasks
from games.models import Game
from games.review.compute import deal_review_compute
from tests.browser.deal_end import DryDeal, go_out

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]


def test_a_finished_deal_s_review_shows_beside_the_score_sheet_once_made(
    player_factory: Callable[..., Any], dry_deal: DryDeal, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = dry_deal.game
    mover, other = dry_deal.seat_players(player_factory)
    for player in (mover, other):
        expect(player.page.locator("#review-panel")).to_be_hidden()  # no deal has ended

    # The review's task is lost (a broker down): asked for, it is queued in vain.
    monkeypatch.setattr(tasks.deal_review, "delay", lambda *args, **kwargs: None)
    go_out(mover)

    for player in (mover, other):
        panel = player.page.locator("#review-panel")
        expect(panel).to_be_visible()
        expect(panel.locator("#review-body")).to_have_attribute("data-state", "preparing")
        expect(panel).to_contain_text("The review of this deal is being prepared.")
        expect(panel.locator("#review-deal option")).to_have_text(["Deal 1"])

    # Made now: the panels read it.
    assert review_made(game.public_id, 1)
    assert_own_turns_shown(mover, other)
    assert Game.objects.get().deal_number == 1
    mover.screenshot("review-panel")


def test_the_review_comes_with_its_frame_while_the_pages_timers_stand_still(
    asgi_player_factory: Callable[..., Any], dry_deal: DryDeal, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = dry_deal.game
    mover, other = dry_deal.seat_players(
        asgi_player_factory,
        # time flows until it is paused below
        before_the_table=lambda player: player.page.clock.install(),
    )
    for player in (mover, other):
        player.page.wait_for_function("() => window.__remiLive && window.__remiLive.connected")
    monkeypatch.setattr(tasks.deal_review, "delay", lambda *args, **kwargs: None)
    go_out(mover)
    for player in (mover, other):
        body = player.page.locator("#review-body")
        expect(body).to_have_attribute("data-state", "preparing")
        # From here no timer of the page fires: not the panel's next question (due in 2 s
        # at the soonest), nor the poll. A question a second's jump set off is answered
        # "being prepared" before the review is made.
        now = player.page.evaluate("() => Date.now()")
        player.page.clock.pause_at(now + 1000)
        expect(body).to_have_attribute("data-state", "preparing")

    assert review_made(game.public_id, 1)

    assert_own_turns_shown(mover, other)
    for player in (mover, other):
        assert player.page.evaluate("() => window.__remiLive.connected")


def review_made(game_id: str, number: int) -> bool:
    """Make the deal's review as its task would, in a thread of its own as a worker's (this
    thread runs Playwright's event loop, and the review's frame leaves through the channel
    layer from a synchronous caller)."""
    made: list[bool] = []

    def work() -> None:
        try:
            made.append(deal_review_compute(game_id=game_id, number=number) is not None)
        finally:
            connection.close()

    worker = threading.Thread(target=work)
    worker.start()
    worker.join()
    return made == [True]


def assert_own_turns_shown(mover: Any, other: Any) -> None:
    """Each panel shows its player's own turns: the closer's one, the other's none."""
    mine = mover.page.locator("#review-body")
    expect(mine).to_have_attribute("data-state", "ready")
    turn = mine.locator(".review-turn")
    expect(turn).to_have_count(1)
    expect(turn.locator(".review-played")).to_contain_text("laid")
    expect(turn.locator(".review-played")).to_contain_text("threw 9♣")
    expect(mine).to_contain_text("Your own turns")
    theirs = other.page.locator("#review-body")
    expect(theirs).to_have_attribute("data-state", "ready")
    expect(theirs.locator(".review-turn")).to_have_count(0)
    expect(theirs).to_contain_text("No turns to review.")
