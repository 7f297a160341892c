"""``GET /api/v1/games/{id}/deals/{n}/review`` and its page: made in the background when
a deal ends, a player's own turns while the game runs (never a card they did not hold
or see on the table), everyone's once it is over; the one error shape for a deal not
over, a review not made yet (queued again: a lost task only delays it), a spectator
of a running game and a deal that does not exist; a deleted player's turns stay."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.models import DealReview, Game
from tests.gamekit import (
    SchemaChecker,
    assert_review_hides_secrets,
    current_engine_deal,
    greedy_action,
    table_create,
)

# Transactional: the review is queued after the deal's commit, as on the site.
pytestmark = pytest.mark.django_db(transaction=True)

TWO_DEALS = {"match_deals": [2, 2, 2, 2, 2]}
REVIEW_PATH = "/api/v1/games/{game_id}/deals/{number}/review"


def review_url(game_id: str, number: int) -> str:
    return f"/api/v1/games/{game_id}/deals/{number}/review"


def play_until(table: Any, done: Any) -> None:
    """Greedy moves through the API until ``done(game)``."""
    for _ in range(3000):
        game = table.game
        if done(game):
            return
        deal = current_engine_deal(game)
        response = table.act(deal.to_move, greedy_action(deal), game.ply)
        assert response.status_code == 200, response.json()
    raise AssertionError("the game did not get there")


def first_deal_over(game: Game) -> bool:
    return game.deal_number > 1 or game.status != Game.Status.ACTIVE


def game_over(game: Game) -> bool:
    return game.status != Game.Status.ACTIVE


def test_a_player_sees_only_their_own_turns_and_cards_while_the_game_runs(
    players: Any, spectator: Any, deals_seeded: Any
) -> None:
    table = table_create(players(3), preset="serbian", overrides=TWO_DEALS, spectator=spectator)
    play_until(table, first_deal_over)
    game = table.game
    assert game.status == Game.Status.ACTIVE, "the match ended after one deal"
    schema = SchemaChecker(table.clients[0])

    for seat, client in enumerate(table.clients):
        response = client.get(review_url(game.public_id, 1))
        assert response.status_code == 200, response.json()
        schema.check("GET", REVIEW_PATH, 200, response.json())
        review = response.json()
        assert review["complete"] is False and review["seat"] == seat
        assert review["turns"], "a player with no turn in a whole deal"
        assert {turn["seat"] for turn in review["turns"]} == {seat}
        assert_review_hides_secrets(review, seat, game)

    watched = spectator.get(review_url(game.public_id, 1))
    assert watched.status_code == 403
    assert watched.json()["error"]["code"] == "review_players_only"
    schema.check("GET", REVIEW_PATH, 403, watched.json())
    running = table.clients[0].get(review_url(game.public_id, 2))
    assert running.status_code == 409 and running.json()["error"]["code"] == "deal_not_over"
    schema.check("GET", REVIEW_PATH, 409, running.json())
    missing = table.clients[0].get(review_url(game.public_id, 9))
    assert missing.status_code == 404
    schema.check("GET", REVIEW_PATH, 404, missing.json())


def test_once_the_game_is_over_everyone_sees_every_turn(
    players: Any, spectator: Any, deals_seeded: Any
) -> None:
    table = table_create(players(2), preset="serbian", overrides=TWO_DEALS, spectator=spectator)
    play_until(table, game_over)

    for number in (1, 2):
        review = spectator.get(review_url(table.game.public_id, number))
        assert review.status_code == 200, review.json()
        assert review.json()["complete"] is True
        assert {turn["seat"] for turn in review.json()["turns"]} == {0, 1}


def test_a_review_whose_task_was_lost_is_queued_again_when_asked_for(
    players: Any, deals_seeded: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.core.cache import cache

    from games import tasks

    table = table_create(players(2), preset="serbian", overrides=TWO_DEALS)

    def broker_down(*args: Any, **kwargs: Any) -> None:
        raise ConnectionError("the broker is gone")

    monkeypatch.setattr(tasks.deal_review, "delay", broker_down)
    play_until(table, first_deal_over)
    assert not DealReview.objects.exists()  # the publisher's queueing failed, logged
    cache.clear()

    lost = table.clients[0].get(review_url(table.game.public_id, 1))
    assert lost.status_code == 409 and lost.json()["error"]["code"] == "review_not_ready"

    monkeypatch.undo()  # the broker is back: the next request queues it (eager here)
    again = table.clients[0].get(review_url(table.game.public_id, 1))
    assert again.status_code == 409 and again.json()["error"]["code"] == "review_not_ready"
    ready = table.clients[0].get(review_url(table.game.public_id, 1))
    assert ready.status_code == 200


def test_the_page_shows_the_players_turns_and_being_prepared_until_made(
    players: Any, spectator: Any, deals_seeded: Any
) -> None:
    table = table_create(players(2), preset="serbian", overrides=TWO_DEALS, spectator=spectator)
    play_until(table, first_deal_over)
    browser = Client()
    browser.force_login(table.clients[1].user)
    path = f"/games/{table.game.public_id}/deals/1/review/"

    page = browser.get(path, HTTP_ACCEPT_LANGUAGE="en")
    html = page.content.decode()
    assert page.status_code == 200
    assert 'data-seat="1"' in html and 'data-seat="0"' not in html

    DealReview.objects.all().delete()
    from django.core.cache import cache

    cache.set(f"remi:review-queued:{table.game.pk}:1", 1)  # its task is on its way
    waiting = browser.get(path, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "being prepared" in waiting

    watcher = Client()
    watcher.force_login(spectator.user)
    assert watcher.get(path).status_code == 403


def test_a_deleted_players_turns_stay_in_the_review_under_their_new_name(
    players: Any, spectator: Any, deals_seeded: Any, password: str
) -> None:
    from accounts.deletion import account_delete

    table = table_create(players(2), preset="serbian", overrides=TWO_DEALS, spectator=spectator)
    play_until(table, game_over)
    gone = table.clients[0].user
    account_delete(user=gone, password=password)

    review = spectator.get(review_url(table.game.public_id, 1)).json()
    assert {turn["seat"] for turn in review["turns"]} == {0, 1}
    names = {seat["position"]: seat["user"]["username"] for seat in review["seats"]}
    assert names[0].startswith("deleted-")
