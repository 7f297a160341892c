"""game_join, game_leave, game_start, game_abort."""

from __future__ import annotations

import pytest

from games.errors import Conflict, GameNotFound, NotAllowed
from games.models import Deal, Game, Seat
from games.play.act import game_act
from games.play.lobby import game_abort, game_join, game_leave, game_start
from tests.gamekit import current_engine_deal, quick_actions


def test_joining_takes_the_lowest_free_seat(lobby, user_factory):
    game, users = lobby(players=4, seated=3)
    game_leave(game=game, user=users[1])

    seat = game_join(game=game, user=user_factory())

    assert seat.position == 1


def test_joining_twice_is_harmless(lobby):
    game, users = lobby(players=3, seated=2)

    again = game_join(game=game, user=users[1])

    assert again.position == 1
    assert Seat.objects.filter(game=game).count() == 2


def test_a_full_game_refuses_joins(lobby, user_factory):
    game, _ = lobby(players=2)

    with pytest.raises(Conflict) as error:
        game_join(game=game, user=user_factory())

    assert error.value.code == "game_full"


def test_a_private_game_needs_its_invite_code(lobby, user_factory):
    game, _ = lobby(players=3, seated=1, visibility="private")

    with pytest.raises(GameNotFound):
        game_join(game=game, user=user_factory())
    with pytest.raises(GameNotFound):
        game_join(game=game, user=user_factory(), invite_code="wrong")
    seat = game_join(game=game, user=user_factory(), invite_code=game.invite_code)

    assert seat.position == 1


def test_a_started_game_refuses_new_players(started, user_factory):
    game, _ = started(players=2)

    with pytest.raises(Conflict) as error:
        game_join(game=game, user=user_factory())

    assert error.value.code == "game_not_in_lobby"


def test_leaving_the_lobby_frees_the_seat(lobby):
    game, users = lobby(players=3)

    game_leave(game=game, user=users[2])

    assert list(Seat.objects.filter(game=game).values_list("position", flat=True)) == [0, 1]


def test_the_host_leaving_the_lobby_aborts_the_game(lobby):
    game, users = lobby(players=3)

    game_leave(game=game, user=users[0])

    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert game.end_reason == "host_left"


def test_leaving_a_running_game_keeps_the_seat_and_its_total(lobby, quick_deals):
    game, users = lobby(players=2)
    game = game_start(game=game, user=users[0])
    for action in quick_actions():  # deal 1: seat 0 goes out, seat 1 scores 400
        game = game_act(game=game, user=users[0], action=action, expected_ply=game.ply).game

    game_leave(game=game, user=users[1])
    left = Seat.objects.get(game=game, position=1)
    game_join(game=game, user=users[1])
    back = Seat.objects.get(game=game, position=1)

    assert (left.status, left.total) == (Seat.Status.LEFT, 400)
    assert (back.status, back.total) == (Seat.Status.ACTIVE, 400)


def test_only_players_may_leave(started, user_factory):
    game, _ = started(players=2)

    with pytest.raises(NotAllowed) as error:
        game_leave(game=game, user=user_factory())

    assert error.value.code == "not_a_player"


def test_starting_deals_the_first_deal(started):
    game, _ = started(players=3, preset="macedonian")

    game.refresh_from_db()
    row = Deal.objects.get(game=game)
    deal = current_engine_deal(game)
    assert game.status == Game.Status.ACTIVE
    assert game.deal_number == 1 and game.ply == 0
    assert game.started_at is not None and game.deadline_at is not None
    # The deck order is stored server-side: it rebuilds the deal exactly.
    assert len(row.deck) == 108 and sorted(row.card_ids) == list(range(108))
    assert row.dealer == 2 and deal.to_move == 0  # macedonian: seat 0 starts


def test_the_first_deal_is_shuffled_with_the_os_randomness(lobby, monkeypatch):
    import secrets

    made = []
    real = secrets.SystemRandom

    class Recording(real):  # type: ignore[misc, valid-type]
        def __init__(self) -> None:
            made.append(self)
            super().__init__()

    monkeypatch.setattr(secrets, "SystemRandom", Recording)
    game, users = lobby(players=2)

    game_start(game=game, user=users[0])

    assert made, "the deal was not shuffled with secrets.SystemRandom"


def test_only_the_host_may_start(lobby):
    game, users = lobby(players=2)

    with pytest.raises(NotAllowed) as error:
        game_start(game=game, user=users[1])

    assert error.value.code == "not_host"


def test_a_game_starts_only_when_full(lobby):
    game, users = lobby(players=3, seated=2)

    with pytest.raises(Conflict) as error:
        game_start(game=game, user=users[0])

    assert error.value.code == "not_enough_players"


def test_a_game_starts_once(started):
    game, users = started(players=2)

    with pytest.raises(Conflict) as error:
        game_start(game=game, user=users[0])

    assert error.value.code == "game_not_in_lobby"
    assert Deal.objects.filter(game=game).count() == 1


def test_the_host_may_abort_the_lobby_only(lobby, started):
    game, users = lobby(players=2)
    game_abort(game=game, user=users[0])
    running, hosts = started(players=2)

    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    with pytest.raises(Conflict):
        game_abort(game=running, user=hosts[0])
    with pytest.raises(NotAllowed):
        game_abort(game=running, user=hosts[1])
    game_abort(game=running)  # the system may
    running.refresh_from_db()
    assert running.status == Game.Status.ABORTED
