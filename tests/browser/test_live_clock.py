"""The live table's clocks in a real browser: each player's time bank and the turn's
countdown switching to the bank, and docs/rules.md §10: everyone sees the table waiting for
an absent player, the host chooses in a dialog (keyboard, phone layout), everyone sees
what was decided. The WSGI test server has no websocket: the pages poll, so nobody
counts as connected and the player to move is absent once their deadline passes."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db.models import F
from playwright.sync_api import expect

from games.models import Game, Seat
from tests.browser.deal_end import PASSWORD
from tests.browser.live_clock_kit import timeout_step, to_move

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]


def test_the_bank_the_wait_for_an_absent_player_and_the_hosts_choice(
    live_table: tuple[Game, Any, Any, Any], player_factory: Callable[..., Any]
) -> None:
    game, host_user, absent, other_user = live_table
    host = player_factory("host", width=390, height=844)  # the host is on a phone
    other = player_factory("other")
    for player, user in ((host, host_user), (other, other_user)):
        player.log_in(user.username, PASSWORD)
        player.goto(f"/games/{game.public_id}/")
        expect(player.page.locator("#hand .pcard").first).to_be_visible()
    page = other.page

    # Everyone's bank is shown; the game's pace says it has one.
    expect(page.locator("#game-meta")).to_contain_text("30 sec a turn + 1 min bank")
    expect(page.locator("[data-bank-of]")).to_have_count(3)
    for chip in page.locator("[data-bank-of]").all():
        expect(chip).to_have_text("bank 1:00")
    clock = page.locator(f'.seat[data-seat="{to_move(game).position}"] .countdown')
    expect(clock).not_to_have_class("countdown countdown-bank")

    # 35 s into a 30 s turn: the countdown runs on the mover's bank, in another colour.
    by = timedelta(seconds=35)
    Game.objects.filter(pk=game.pk).update(
        turn_started_at=F("turn_started_at") - by, deadline_at=F("deadline_at") - by
    )
    expect(clock).to_have_class("countdown countdown-bank")
    expect(clock).to_contain_text("bank 0:")
    mover_chip = page.locator(f'[data-bank-of="{to_move(game).position}"]')
    expect(mover_chip).to_have_class("bank-chip bank-running")
    other.screenshot("table-bank")

    # The deadline (bank included) passes: the table waits for the absent player.
    assert timeout_step(game) == "waiting"
    for player in (host, other):
        expect(player.page.locator("#absent")).to_contain_text(f"Waiting for {absent.username} — ")
        expect(player.page.locator("#absent .absent-clock")).to_have_text(
            re.compile(r"^[12]:\d\d$")
        )
    other.screenshot("table-absent-waiting")
    # A reload shows the same wait (read from GET /absent).
    host.page.reload()
    expect(host.page.locator("#absent")).to_contain_text(f"Waiting for {absent.username}")

    # The wait is over: the host chooses; the others see the host deciding.
    assert timeout_step(game) == "choice"
    dialog = host.page.locator("#absent-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".absent-choice")).to_have_count(3)
    expect(dialog).to_contain_text("Continue without them (default)")
    expect(dialog.locator("#absent-default")).to_contain_text("Without a choice in 0:")
    box = dialog.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    host.screenshot("table-absent-choice-phone", full_page=False)
    expect(page.locator("#absent")).to_contain_text(
        f"{absent.username} has not come back: the host is deciding"
    )
    other.screenshot("table-absent-host-deciding")

    # With the keyboard: Esc closes the dialog, the banner's button opens it again,
    # Tab moves from "Wait longer" to "Continue without them", Enter chooses.
    host.page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    host.page.locator("#absent-open").focus()
    host.page.keyboard.press("Enter")
    expect(dialog).to_be_visible()
    expect(dialog.locator('[data-choice="wait"]')).to_be_focused()
    host.page.keyboard.press("Tab")
    expect(dialog.locator('[data-choice="continue"]')).to_be_focused()
    host.page.keyboard.press("Enter")

    expect(dialog).to_be_hidden()
    expect(host.page.locator("#absent")).to_contain_text(
        f"The host chose to go on without {absent.username}."
    )
    expect(page.locator("#absent")).to_contain_text(
        f"{absent.username} did not come back: the game goes on without them."
    )
    other.screenshot("table-absent-decided")
    seat = Seat.objects.get(game=game, user=absent)
    assert seat.status == Seat.Status.OUT
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    page.get_by_role("button", name="Dismiss this message").click()
    expect(page.locator("#absent")).to_be_hidden()


def test_the_lobby_offers_a_time_bank_for_live_games(
    player_factory: Callable[..., Any],
) -> None:
    get_user_model().objects.create_user(username="hana", password=PASSWORD)
    host = player_factory("hana", width=390, height=844)
    host.log_in("hana", PASSWORD)
    host.goto("/play/")
    page = host.page
    expect(page.locator("#presets .choice")).to_have_count(4)
    expect(page.locator("#time-bank")).to_be_visible()
    expect(page.locator("#time-bank")).to_have_value("60")
    page.locator("label", has_text="Correspondence").click()
    expect(page.locator("#time-bank")).to_be_hidden()
    page.locator("label", has_text="Live").click()
    page.select_option("#time-bank", "120")
    host.screenshot("lobby-bank-phone")
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/games/[a-z0-9]+/$"))
    expect(page.locator("#game-meta")).to_contain_text("60 sec a turn + 2 min bank")
    game = Game.objects.get()
    assert (game.time_control, game.seconds_per_turn, game.time_bank_s) == ("live", 60, 120)
