"""The correspondence player's corner of the table: more time asked in the reader's
words (a choice of whole days, each written with CLDR's plural), and the move log that
says it is empty until the first move."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.models import Profile
from games.models import EXTRA_TIME_MAX_DAYS, ExtraTimeRequest
from tests.browser.deal_end import PASSWORD
from tests.browser.table_kit import SERBIAN_HAND, started_game
from tests.gamekit import current_engine_deal

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

DEADLINE_S = 10


def _asked(days: int) -> bool:
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline:
        if ExtraTimeRequest.objects.filter(days=days).exists():
            return True
        time.sleep(0.05)
    return False


def test_the_player_to_move_asks_for_days_named_in_their_language(
    starter_hand: Callable[[str], None], player_factory: Callable[..., Any]
) -> None:
    starter_hand(SERBIAN_HAND)
    game, users = started_game("serbian", ("olga", "pero"), days_per_move=3)
    mover = users[current_engine_deal(game).to_move]
    Profile.objects.filter(user=mover).update(language="pl")
    player = player_factory(mover.username, locale="pl")
    player.log_in(mover.username, PASSWORD)
    player.goto(f"/games/{game.public_id}/")

    days = player.page.locator("#extra-days")
    expect(days).to_be_visible()
    # Polish has three plural forms for whole numbers: "1 dzień", "2 dni", "5 dni".
    labels = days.locator("option").all_inner_texts()
    assert labels[:5] == ["1 dzień", "2 dni", "3 dni", "4 dni", "5 dni"], labels
    assert len(labels) == EXTRA_TIME_MAX_DAYS
    expect(player.page.locator("#log + .log-none")).to_be_visible()

    days.select_option("5")
    player.page.click("#extra-ask")
    assert _asked(5), "no request for 5 more days reached the server"

    player.select("5D")
    player.page.click("#discard")
    expect(player.page.locator("#log .log-move").first).to_be_visible()
    expect(player.page.locator("#log + .log-none")).to_be_hidden()
