"""A table of six in a real browser: made in the lobby with four bots and a stake, a
second person joins, the seats are drawn for, and the first round is played through
the web table, on a desktop and on a phone; the six seats never overlap."""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import combinations
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from games.engine import parse_cards
from games.engine.seating import SeatingDraw
from games.models import ChipLedger, Game
from games.play import shuffle
from tests.browser.boxes import boxes, first_box, shown_boxes
from tests.browser.six_seats_kit import DRAWS, overlap
from tests.gamekit import current_engine_deal

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]

PASSWORD = "correct-horse-battery-staple"


def assert_six_seats_laid_out(page: Page, width: int) -> None:
    """Five other seats and one's own, none over another, all on the screen, and every
    seat's fan of cards inside its seat."""
    expect(page.locator("#opponents .seat[data-seat]")).to_have_count(5)
    seats = shown_boxes(page, "#opponents .seat[data-seat]")
    me = first_box(page, "#me")
    for a, b in combinations([*seats, me], 2):
        assert not overlap(a, b), (a, b)
    for seat in seats:
        assert seat["x"] >= 0 and seat["x"] + seat["width"] <= width
    for position in range(6):
        selector = f'#opponents .seat[data-seat="{position}"]'
        if not page.locator(selector).count():
            continue
        (seat,) = shown_boxes(page, selector)
        # Names, points, badges and the clock stay in their seat too.
        for part in shown_boxes(page, f"{selector} .seat-info > *"):
            assert (
                part["x"] >= seat["x"] - 1
                and part["x"] + part["width"] <= seat["x"] + seat["width"] + 1
            ), (
                position,
                part,
                seat,
            )
        # On a phone the fan is one card back with the count (table-phone.css).
        for card in filter(None, boxes(page, f"{selector} .fan-card")):
            assert (
                card["x"] >= seat["x"] - 2
                and card["x"] + card["width"] <= seat["x"] + seat["width"] + 2
            )


def test_six_players_four_of_them_bots_play_the_first_round_at_the_web_table(
    player_factory: Callable[..., Any], bots: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = SeatingDraw.from_draws([parse_cards(card) for card in DRAWS])
    monkeypatch.setattr(shuffle, "seating_source", lambda players: drawn)
    for name in ("ana", "bob"):
        get_user_model().objects.create_user(username=name, password=PASSWORD)
    ana = player_factory("ana")
    bob = player_factory("bob", width=390, height=844)

    # Ana makes a public Polish table of six with all four bots and a stake of 50.
    ana.log_in("ana", PASSWORD)
    ana.goto("/play/")
    ana.page.locator("label.choice", has_text="Polish Remik 51").click()
    ana.page.locator("#players-choice label", has_text="6").click()
    expect(ana.page.locator("#players-help")).to_contain_text("house rule")
    for bot in ana.page.locator(".bot-list label.choice").all():
        bot.click()
    ana.page.fill("#stake", "50")
    ana.page.locator(".segmented label", has_text="Correspondence").click()
    ana.screenshot("six-lobby")
    ana.page.click("#create-button")
    ana.page.wait_for_url(re.compile(r"/games/[a-z0-9]+/$"))
    expect(ana.page.locator("#waiting")).to_contain_text("5 of 6 seats taken")
    expect(ana.page.locator("#chips")).to_contain_text("Stake: 50 chips each")
    game_url = ana.page.url.removeprefix(ana.base_url)

    # Bob, on his phone, finds the table among the open ones and takes the last seat.
    bob.log_in("bob", PASSWORD)
    bob.goto("/play/")
    bob.page.get_by_role("button", name=re.compile("Join Polish Remik 51")).click()
    bob.page.wait_for_url(re.compile(re.escape(game_url) + "$"))

    ana.page.get_by_role("button", name="Start the game").first.click()
    expect(ana.page.locator("#hand .pcard")).to_have_count(13)
    expect(bob.page.locator("#hand .pcard")).to_have_count(13)
    game = Game.objects.get()
    assert game.players == 6 and game.get_ruleset().max_players == 6
    assert ChipLedger.objects.filter(game=game, kind="stake").count() == 6

    # The draw is shown: the ace starts, the others follow clockwise.
    seating = ana.page.locator("#seating .seating-row")
    expect(seating).to_have_count(6)
    expect(seating.first).to_contain_text("A♠")
    expect(seating.first).to_contain_text("starts")
    expect(ana.page.locator("#chips")).to_contain_text("pot 300")
    expect(ana.page.locator(".seat .chips-tag")).to_have_count(5)
    expect(ana.page.locator("#me.me-to-move")).to_be_visible()
    assert_six_seats_laid_out(ana.page, 1400)
    assert_six_seats_laid_out(bob.page, 390)
    ana.screenshot("six-table-desktop")
    bob.screenshot("six-table-phone")

    # Ana's turn at the table; the four bots answer at once (Celery runs eagerly in the
    # tests); then it is Bob's turn on his phone, and after his, Ana's again.
    ana.draw_and_discard_the_drawn_card()
    expect(bob.page.locator("#prompt")).to_contain_text("Your turn: draw", timeout=30_000)
    bob.draw_and_discard_the_drawn_card()
    expect(ana.page.locator("#prompt")).to_contain_text("Your turn: draw", timeout=30_000)

    game.refresh_from_db()
    kinds = list(game.moves.order_by("ply").values_list("seat__position", "kind"))
    assert [seat for seat, kind in kinds if kind == "discard"] == [0, 1, 2, 3, 4, 5]
    # Each fan shows what that player holds now (a bot may have laid melds down).
    deal = current_engine_deal(game)
    held = [str(len(deal.hand_ids(position))) for position in range(1, 6)]
    expect(ana.page.locator("#opponents .fan-count")).to_have_text(held)
    assert_six_seats_laid_out(bob.page, 390)
    bob.screenshot("six-table-phone-after-round")
