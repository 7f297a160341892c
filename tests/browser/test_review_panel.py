"""The review of a deal beside the score sheet, in a real browser: a live deal is played
to its end, the panel says the review is being prepared while its task has not run,
asks again by itself, and then shows each player their own turns (the closer's turn
with what it laid and threw; the other player, who had no turn, none)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from games import tasks
from games.models import Game
from games.review.compute import deal_review_compute
from tests.browser.test_score_sheet import DRY_HAND, PASSWORD, live_game
from tests.gamekit import current_engine_deal

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]


def test_a_finished_deal_s_review_shows_beside_the_score_sheet_once_made(
    player_factory: Callable[..., Any],
    starter_hand: Callable[[str], None],
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings.REMI_DEAL_PAUSE_SECONDS = 600  # the next deal waits for the players
    starter_hand(DRY_HAND)
    game = live_game(["mila", "goran"])
    starter = current_engine_deal(game).to_move
    names = ["mila", "goran"]
    players = {name: player_factory(name) for name in names}
    for name, player in players.items():
        player.log_in(name, PASSWORD)
        player.goto(f"/games/{game.public_id}/")
        expect(player.page.locator("#hand .pcard").first).to_be_visible()
        expect(player.page.locator("#review-panel")).to_be_hidden()  # no deal has ended
    mover = players[names[starter]]
    other = players[names[1 - starter]]

    # The review's task is lost (a broker down): asked for, it is queued in vain.
    monkeypatch.setattr(tasks.deal_review, "delay", lambda *args, **kwargs: None)
    for meld in ("7H 8H 9H 10H", "QS QD QC", "KS KD KC", "2D 3D 4D 5D"):
        mover.select(*meld.split())
        mover.page.click("#lay-group")
    mover.open_with_the_staged_melds()
    mover.select("9C")
    mover.page.click("#discard")

    for player in (mover, other):
        panel = player.page.locator("#review-panel")
        expect(panel).to_be_visible()
        expect(panel.locator("#review-body")).to_have_attribute("data-state", "preparing")
        expect(panel).to_contain_text("The review of this deal is being prepared.")
        expect(panel.locator("#review-deal option")).to_have_text(["Deal 1"])

    # Made now: the panels ask again by themselves.
    assert deal_review_compute(game_id=game.public_id, number=1) is not None
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
    assert Game.objects.get().deal_number == 1
    mover.screenshot("review-panel")
