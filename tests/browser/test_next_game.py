"""The header's "Next game" and the table's own "next game" button say how many games
wait for the player's move, and neither shows a count when none does: the header is
then a plain link (no gold, no "0") and the table's button is hidden. The table reads
the queue again as the turn moves on (static/js/table/day.js) and keeps the header in
step (static/js/next-game.js)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.models import Game
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from games.play.resign import game_resign
from tests.browser.deal_end import PASSWORD
from tests.browser.table_kit import started_game
from tests.turn_kit import person_draws_and_throws

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _to_move(game: Game) -> Any:
    game.refresh_from_db()
    return game.seats.get(position=game.to_move).user


def _a_game_waiting_for(user: Any) -> Game:
    """A correspondence game of two where ``user`` is to move."""
    other = get_user_model().objects.create_user(username="tomo", password=PASSWORD)
    game = game_create(owner=user, preset="serbian", players=2)
    game_join(game=game, user=other)
    game = game_start(game=game, user=user)
    if _to_move(game) != user:
        person_draws_and_throws(game, other)
    assert _to_move(game) == user
    return game


def test_the_header_and_the_tables_button_show_a_count_only_while_a_game_waits(
    player_factory: Callable[..., Any],
) -> None:
    # Three at the table, ola the third to move: the turn passes once and still is not hers.
    table, users = started_game("serbian", ("ola", "pia", "rik"))
    seats = {seat.position: seat.user for seat in table.seats.all()}
    ola = seats[(table.to_move + 2) % 3]
    elsewhere = _a_game_waiting_for(ola)

    player = player_factory(ola.username)
    player.log_in(ola.username, PASSWORD)
    player.goto(f"/games/{table.public_id}/")
    header = player.page.locator("[data-next-game]")
    button = player.page.locator("#next-game")

    # One game waits for her: the header's gold button and the table's say so.
    expect(button).to_be_visible()
    expect(player.page.locator("#next-count")).to_have_text("1")
    expect(header).to_have_class("next-game button button-small waiting")
    expect(header.locator(".queue-count")).to_have_text("games waiting for your move: 1")
    expect(header.locator(".queue-count .sr-only")).to_have_css("position", "absolute")

    # She resigns it elsewhere; then the turn moves on here, still not to her.
    game_resign(game=elsewhere, user=ola)
    person_draws_and_throws(table, _to_move(table))
    assert _to_move(table) != ola

    # Nothing waits: no count anywhere, and the header is a plain link.
    expect(button).to_be_hidden()
    expect(header).to_have_class("next-game")
    expect(header.locator(".queue-count")).to_be_hidden()
    expect(header).to_have_text("Next game")


def test_with_nothing_waiting_a_page_shows_no_count_and_no_highlight(
    player_factory: Callable[..., Any],
) -> None:
    get_user_model().objects.create_user(username="vera", password=PASSWORD)
    player = player_factory("vera")
    player.log_in("vera", PASSWORD)
    player.goto("/play/")
    header = player.page.locator("[data-next-game]")

    expect(header).to_have_text("Next game")
    expect(header.locator(".queue-count")).to_be_hidden()
    # Drawn as the other links of the menu, not as the gold button.
    colours = header.evaluate(
        """(link) => {
          const links = link.closest("ul").querySelectorAll("a:not([aria-current])");
          const other = [...links].find((each) => each !== link);
          return [link, other].map((each) => getComputedStyle(each).backgroundColor);
        }"""
    )
    assert colours[0] == colours[1]
