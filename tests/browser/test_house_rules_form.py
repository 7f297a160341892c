"""The create-game form offers the Macedonian scoring as house rules (the preset's
values first, the engine's objections shown under them), and the lobby's open games
and the table's waiting room show the house rules before anyone joins."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.engine import Ruleset
from games.models import Game

PASSWORD = "correct-horse-battery-staple"


def test_macedonian_scoring_set_in_the_form_is_shown_to_everyone_before_joining(
    player_factory: Callable[..., Any],
) -> None:
    for name in ("ana", "boris"):
        get_user_model().objects.create_user(username=name, password=PASSWORD)
    host = player_factory("ana")
    host.log_in("ana", PASSWORD)
    host.goto("/play/")
    page = host.page
    expect(page.locator("#presets .choice").first).to_be_visible()
    page.locator("#house-rules summary").click()
    expect(page.locator("#house-rules-scoring")).to_have_count(0)  # serbian by default

    page.locator('label.choice:has(input[value="macedonian"])').click()
    scoring = page.locator("#house-rules-scoring")
    expect(scoring).to_be_visible()
    winner = scoring.get_by_label("Going out scores")
    expect(winner).to_have_value("-20")
    expect(scoring.get_by_label("The others' cards count × (whole hand)")).to_have_value("2")
    expect(scoring.get_by_label("Going out with a joker doubles every score")).to_be_checked()

    # Out of the engine's range: refused, and the reason is under the house rules.
    scoring.get_by_label("The others' cards count × (whole hand)").fill("99")
    page.click("#create-button")
    error = page.locator("#house-rules-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("dry_hand_close.multiplier")
    assert not Game.objects.exists()

    scoring.get_by_label("The others' cards count × (whole hand)").fill("3")
    winner.fill("-30")
    scoring.get_by_label("A player who never opened scores (empty: their cards)").fill("100")
    scoring.get_by_label("Going out with a joker doubles every score").uncheck()
    host.screenshot("lobby-house-rules-scoring")
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/games/[a-z0-9]+/$"))

    game = Game.objects.get()
    rules = Ruleset.from_dict(game.ruleset)
    assert (rules.normal_close.winner, rules.normal_close.unopened) == (-30, 100)
    assert rules.dry_hand_close.multiplier == 3 and rules.joker_close_doubles is False
    waiting = page.locator("#waiting .house-rules-shown")
    expect(waiting).to_be_visible()
    expect(waiting.locator("li")).to_have_count(3)
    expect(waiting.locator('li[data-field="normal_close"]')).to_contain_text(
        "winner -30, others ×1, never opened 100"
    )

    # The host goes by a name of her own: the lobby names her with her username too.
    profile = get_user_model().objects.get(username="ana").profile
    profile.display_name = "Ana B"
    profile.save(update_fields=["display_name"])
    guest = player_factory("boris")
    guest.log_in("boris", PASSWORD)
    guest.goto("/play/")
    row = guest.page.locator("#open-games .game-row").first
    expect(row).to_contain_text("Host Ana B (@ana)")
    expect(row.locator(".house-rules-shown li")).to_have_count(3)
    expect(row.locator('li[data-field="dry_hand_close"]')).to_contain_text("others ×3")
    expect(row.locator('li[data-field="joker_close_doubles"]')).to_contain_text("by the book: yes")
    guest.screenshot("lobby-open-game-house-rules")
