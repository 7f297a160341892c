"""A player's public page and the leaderboard in the browser: reachable from the menu
and from each other, readable on a phone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.models import Rating
from games.models import Game
from tests.browser.deal_end import PASSWORD
from tests.browser.table_kit import emil_resigns


@pytest.fixture
def dana_beat_emil() -> tuple[Game, list[Any]]:
    """A finished rated polish51 game: emil resigned, dana won. (game, [dana, emil])"""
    return emil_resigns(after_moves=True)


def test_from_the_leaderboard_to_a_players_page(
    dana_beat_emil: tuple[Game, list[Any]], player_factory: Callable[..., Any]
) -> None:
    _game, users = dana_beat_emil
    Rating.objects.filter(user=users[0]).update(sigma=3)  # established, so listed
    visitor = player_factory("visitor", width=390, height=844)

    visitor.goto("/")
    visitor.page.get_by_role("link", name="Leaderboard").first.click()
    visitor.page.get_by_role("link", name="Polish Remik 51").click()
    expect(visitor.page.locator("main table")).to_contain_text("dana")
    visitor.screenshot("leaderboard-phone")
    visitor.page.get_by_role("link", name="dana").click()

    expect(visitor.page.locator("h1")).to_contain_text("@dana")
    expect(visitor.page.locator("#recent-title ~ div table")).to_contain_text("won")
    expect(visitor.page.locator(".stats-table")).to_contain_text("Polish Remik 51")
    visitor.screenshot("player-page-phone")


def test_a_finished_rated_game_shows_the_rating_changes_at_the_table(
    dana_beat_emil: tuple[Game, list[Any]], player_factory: Callable[..., Any]
) -> None:
    game, _users = dana_beat_emil
    dana = player_factory("dana")
    dana.log_in("dana", PASSWORD)

    dana.goto(f"/games/{game.public_id}/")

    expect(dana.page.locator("#game-meta")).to_contain_text("rated")
    expect(dana.page.locator("#waiting")).to_contain_text("emil resigned.")
    standings = dana.page.locator("#waiting .standings")
    # The ratings and their changes as English writes numbers, with CLDR's signs.
    expect(standings).to_contain_text("1500 → 1658? (+158)")
    expect(standings).to_contain_text("1500 → 1342? (-158)")
    standings.get_by_role("link", name="emil").click()
    expect(dana.page.locator("h1")).to_contain_text("@emil")


def test_a_rated_game_left_before_a_first_move_says_it_was_not_rated(
    player_factory: Callable[..., Any],
) -> None:
    game, _users = emil_resigns(after_moves=False)
    dana = player_factory("dana")
    dana.log_in("dana", PASSWORD)

    dana.goto(f"/games/{game.public_id}/")

    summary = dana.page.locator("#waiting")
    expect(summary).to_contain_text("You won the game!")
    expect(summary).to_contain_text("Not rated: the game was left before every player")
    expect(summary.locator(".standings th", has_text="Rating")).to_have_count(0)
    expect(summary.locator(".standings td")).to_have_text(["1", "You", "0", "2", "emil", "0"])
    expect(summary).to_contain_text("emil resigned.")


def test_the_player_who_resigned_reads_that_they_did(player_factory: Callable[..., Any]) -> None:
    game, _users = emil_resigns(after_moves=True)
    emil = player_factory("emil")
    emil.log_in("emil", PASSWORD)

    emil.goto(f"/games/{game.public_id}/")

    expect(emil.page.locator("#waiting")).to_contain_text("You resigned.")
    expect(emil.page.locator("#waiting")).not_to_contain_text("The other players resigned")
