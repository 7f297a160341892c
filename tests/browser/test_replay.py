"""The replay of a finished game in a real browser: stepped through with the buttons and
the arrow keys, Home and End, a jump to another deal, and a link to a move that opens
that move after a reload."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.play.act import game_act
from games.play.lobby import game_start
from games.read.replays import game_replay_for
from tests.gamekit import current_engine_deal, greedy_action

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]


def finished_game(lobby: Callable[..., Any]) -> Game:
    """A public two-deal serbian game played to its end by ``greedy_action``."""
    game, users = lobby(2, overrides={"match_deals": [2, 2, 2]})
    game = game_start(game=game, user=users[0])
    by_seat = {seat.position: seat.user for seat in game.seats.all()}
    while game.status == Game.Status.ACTIVE:
        deal = current_engine_deal(game)
        game_act(
            game=game, user=by_seat[deal.to_move], action=greedy_action(deal), expected_ply=game.ply
        )
        game.refresh_from_db()
    return game


def test_a_finished_game_is_stepped_through_move_by_move(
    player_factory: Callable[..., Any], lobby: Callable[..., Any], deals_seeded: Any
) -> None:
    game = finished_game(lobby)
    replay = game_replay_for(game=game)
    first, second = replay["deals"][0], replay["deals"][1]
    watcher = player_factory("watcher")
    page = watcher.page
    root = page.locator("#replay")

    def at(deal: int, move: int) -> None:
        expect(root).to_have_attribute("data-deal", str(deal))
        expect(root).to_have_attribute("data-move", str(move))

    def hand_size(seat: int) -> int:
        return page.locator(f'.replay-seat[data-seat="{seat}"] .replay-hand .pcard').count()

    # The finished game's table links to its replay.
    watcher.goto(f"/games/{game.public_id}/")
    page.locator("#replay-link").click()
    expect(page).to_have_url(re.compile(rf"/games/{game.public_id}/replay/"))
    expect(root).to_have_attribute("data-state", "ready")
    at(1, 0)
    assert [hand_size(seat) for seat in (0, 1)] == [len(h) for h in first["states"][0]["hands"]]
    expect(page.locator("#replay-start")).to_be_disabled()

    # The buttons.
    page.click("#replay-next")
    page.click("#replay-next")
    at(1, 2)
    expect(page).to_have_url(re.compile(r"#deal=1&move=2$"))
    expect(page.locator("#replay-move")).not_to_be_empty()
    assert [hand_size(seat) for seat in (0, 1)] == [len(h) for h in first["states"][2]["hands"]]
    page.click("#replay-prev")
    at(1, 1)

    # The keys: arrows step, End and Home go to the deal's end and start.
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    at(1, 4)
    page.keyboard.press("ArrowLeft")
    at(1, 3)
    page.keyboard.press("End")
    at(1, len(first["moves"]))
    expect(page.locator("#replay-result")).to_be_visible()
    expect(page.locator("#replay-next")).to_be_disabled()
    page.keyboard.press("Home")
    at(1, 0)

    # Jump to the second deal.
    page.click('.replay-deal[data-deal="2"]')
    at(2, 0)
    dealt = second["states"][0]["hands"]
    assert [hand_size(seat) for seat in (0, 1)] == [len(hand) for hand in dealt]
    watcher.screenshot("replay-deal-2")

    # A link to a move opens that move, after a reload too.
    move = min(5, len(second["moves"]))
    watcher.goto(f"/games/{game.public_id}/replay/#deal=2&move={move}")
    page.reload()
    expect(root).to_have_attribute("data-state", "ready")
    at(2, move)
    state = second["states"][move]
    assert [hand_size(seat) for seat in (0, 1)] == [len(hand) for hand in state["hands"]]
    expect(page.locator("#replay-discard .pcard")).to_have_count(1 if state["discard"] else 0)
    expect(page.locator("#replay-position")).to_contain_text(str(move))


def test_the_replay_shows_the_review_beside_the_deal_and_its_note_on_the_turn_of_the_move(
    player_factory: Callable[..., Any], lobby: Callable[..., Any], deals_seeded: Any
) -> None:
    from games.models import DealReview

    game = finished_game(lobby)
    review = DealReview.objects.get(deal__game=game, deal__number=1)
    noted = next((turn for turn in review.turns if turn["better"] or turn["fed"]), None)
    assert noted is not None, "greedy play left the solver nothing to say in a whole deal"
    first_ply = min(turn["plies"][0] for turn in review.turns)
    move = noted["plies"][1] - first_ply + 1  # the replay counts a deal's moves from 1
    watcher = player_factory("watcher")

    watcher.goto(f"/games/{game.public_id}/replay/#deal=1&move={move}")

    note = watcher.page.locator("#replay-review-note")
    expect(note.locator(".review-better, .review-fed").first).to_be_visible()
    expect(watcher.page.locator("#replay-review")).to_have_attribute(
        "href", f"/games/{game.public_id}/deals/1/review/"
    )
    # Beside the deal, every turn of it, the move's own marked.
    panel = watcher.page.locator('#replay-review-body[data-state="ready"]')
    expect(panel.locator(".review-turn")).to_have_count(len(review.turns))
    current = panel.locator('.review-turn[aria-current="step"]')
    expect(current).to_have_count(1)
    expect(current).to_have_attribute("data-plies", "-".join(map(str, noted["plies"])))
    watcher.page.click("#replay-start")
    expect(note.locator(".review-better, .review-fed")).to_have_count(0)
    expect(current).to_have_count(0)
