"""A draw queued for the next turn in correspondence games: applied by the server when
the turn arrives, as the player's own move, unless the discard pile's top is one of
the cards named; private to the player; cancelled at any time."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engine import Discard
from games.models import Move, PreMove
from games.play.act import game_act
from tests.gamekit import current_engine_deal, error_of, keys_in

pytestmark = pytest.mark.django_db


def _discard_something(game: Any, mover: Any) -> Any:
    """The player to move (the starter, who holds the extra card) discards."""
    deal = current_engine_deal(game)
    card = next(card for card in deal.hand(deal.to_move) if not card.is_joker)
    game_act(game=game, user=mover, action=Discard(card), expected_ply=game.ply)
    return card


def test_the_queued_draw_is_applied_when_the_turn_arrives(
    started: Any, client_for: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game, users = started(2)
    mover, waiting = users[game.to_move], users[1 - game.to_move]
    queued = client_for(waiting).put(f"/api/v1/games/{game.public_id}/premove", {})
    assert queued.status_code == 200 and queued.json()["queued"] is True

    with django_capture_on_commit_callbacks(execute=True):
        _discard_something(game, mover)

    game.refresh_from_db()
    last = Move.objects.filter(game=game).latest("ply")
    assert (last.kind, last.user_id) == ("draw", waiting.pk)  # the player's own move
    assert game.seats.get(position=game.to_move).user_id == waiting.pk
    assert current_engine_deal(game).drawn
    assert not PreMove.objects.filter(game=game).exists()  # one turn only


def _statements_of_a_move_passing_the_turn(started: Any, on_commit: Any) -> list[str]:
    game, users = started(2)
    with CaptureQueriesContext(connection) as statements, on_commit(execute=True):
        _discard_something(game, users[game.to_move])
    return [query["sql"] for query in statements.captured_queries]


def test_a_move_knows_from_its_own_read_that_no_draw_is_queued(
    started: Any, django_capture_on_commit_callbacks: Any
) -> None:
    # (Nested in the test's transaction, the after-commit work reads the seats again.)
    statements = _statements_of_a_move_passing_the_turn(started, django_capture_on_commit_callbacks)

    # The queued draws are joined to the seats read: none is asked for apart.
    assert not any('FROM "games_premove"' in sql for sql in statements)
    assert any('JOIN "games_premove"' in sql for sql in statements)


@pytest.mark.django_db(transaction=True)
def test_a_move_of_its_own_transaction_hands_its_read_to_the_after_commit_work(
    started: Any, django_capture_on_commit_callbacks: Any
) -> None:
    statements = _statements_of_a_move_passing_the_turn(started, django_capture_on_commit_callbacks)

    assert not any('FROM "games_premove"' in sql for sql in statements)
    assert sum('JOIN "games_premove"' in sql for sql in statements) == 1  # the move's read


def test_the_queued_draw_waits_when_the_discard_is_one_of_the_named_cards(
    started: Any, client_for: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game, users = started(2)
    mover, waiting = users[game.to_move], users[1 - game.to_move]
    deal = current_engine_deal(game)
    card = next(card for card in deal.hand(deal.to_move) if not card.is_joker)
    client_for(waiting).put(
        f"/api/v1/games/{game.public_id}/premove", {"unless": [str(card), "JK"]}
    )

    with django_capture_on_commit_callbacks(execute=True):
        game_act(game=game, user=mover, action=Discard(card), expected_ply=game.ply)

    game.refresh_from_db()
    assert Move.objects.filter(game=game).latest("ply").kind == "discard"
    assert not current_engine_deal(game).drawn  # the turn waits for the player
    assert not PreMove.objects.filter(game=game).exists()


def test_a_draw_queued_during_your_own_turn_waits_for_the_next(
    started: Any, client_for: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game, users = started(2)
    mover = users[game.to_move]
    client_for(mover).put(f"/api/v1/games/{game.public_id}/premove", {})

    with django_capture_on_commit_callbacks(execute=True):
        _discard_something(game, mover)

    assert PreMove.objects.filter(game=game).exists()  # still queued for the next turn


def test_it_is_private_and_cancelled_at_any_time(
    started: Any, client_for: Any, spectator: Any
) -> None:
    game, users = started(2)
    owner, other = client_for(users[0]), client_for(users[1])
    url = f"/api/v1/games/{game.public_id}/premove"
    owner.put(url, {"unless": ["7h", "10D"]})

    assert owner.get(url).json()["unless"] == ["7H", "10D"]
    assert other.get(url).json()["queued"] is False
    assert error_of(spectator.get(url))["code"] == "not_a_player"
    for client in (other, spectator):
        view = client.get(f"/api/v1/games/{game.public_id}").json()
        assert not {"premove", "unless"} & keys_in(view)

    assert owner.delete(url).status_code == 204
    assert owner.get(url).json() == {"queued": False, "unless": [], "created_at": None}


def test_live_games_queue_no_draw(started: Any, client_for: Any) -> None:
    game, users = started(2, time_control="live")

    response = client_for(users[0]).put(f"/api/v1/games/{game.public_id}/premove", {})

    assert response.status_code == 409
    assert error_of(response)["code"] == "not_correspondence"


@pytest.mark.parametrize("unless", [["ZZ"], "7H", [7], ["AS"] * 11])
def test_bad_cards_are_a_400(started: Any, client_for: Any, unless: Any) -> None:
    game, users = started(2)

    response = client_for(users[0]).put(
        f"/api/v1/games/{game.public_id}/premove", {"unless": unless}
    )

    assert response.status_code == 400
    assert not PreMove.objects.exists()
