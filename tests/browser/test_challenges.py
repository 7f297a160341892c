"""Challenges in the browser: the "Challenge" button of a player's page, and "My games"
where the challenge waits, is accepted, and the table opens."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.models import Challenge, Game
from tests.browser.deal_end import PASSWORD


def test_a_challenge_from_a_players_page_is_accepted_under_my_games(
    player_factory: Callable[..., Any], transactional_db: None
) -> None:
    for name in ("vera", "mila"):
        get_user_model().objects.create_user(username=name, password=PASSWORD)
    vera = player_factory("vera")
    vera.log_in("vera", PASSWORD)
    vera.goto("/accounts/players/mila/")

    vera.page.locator("#challenge-box summary").click()
    vera.page.get_by_label("Polish Remik 51").check()
    vera.page.get_by_role("button", name="Send the challenge").click()

    expect(vera.page.locator("#challenge-status")).to_contain_text("Challenge sent")
    vera.screenshot("challenge-sent")
    vera.goto("/games/")
    expect(vera.page.locator("#challenges-out")).to_contain_text("You challenged mila")

    mila = player_factory("mila", width=390, height=844)
    mila.log_in("mila", PASSWORD)
    mila.goto("/games/")
    row = mila.page.locator("#challenges-in li").first
    expect(row).to_contain_text("vera challenges you")
    expect(row).to_contain_text("Polish Remik 51")  # the rules' name, not their id
    expect(row).not_to_contain_text("polish51")
    mila.screenshot("challenge-incoming-phone")
    row.get_by_role("button", name="Accept").click()

    mila.page.wait_for_url(re.compile(r".*/games/[a-z0-9]+/$"))
    challenge = Challenge.objects.get()
    assert challenge.status == Challenge.Status.ACCEPTED and challenge.game is not None
    assert challenge.game.status == Game.Status.ACTIVE
    assert mila.page.url.endswith(f"/games/{challenge.game.public_id}/")
