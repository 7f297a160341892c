"""game_act and game_resign: the move log, the ply guard, idempotency, deals, the match."""

from __future__ import annotations

import pytest

from games.engine import Discard, DrawStock, parse_action
from games.errors import (
    Conflict,
    GameNotFound,
    IdempotencyKeyReused,
    IllegalMove,
    NotAllowed,
    StalePly,
)
from games.models import Deal, Game, Move, Seat
from games.play.act import game_act
from games.play.lobby import game_leave, game_start
from games.play.pause import game_deal_ready
from games.play.resign import game_resign
from tests.gamekit import current_engine_deal, greedy_action, quick_actions


def act(game, user, action, **kwargs):
    game.refresh_from_db()
    kwargs.setdefault("expected_ply", game.ply)
    return game_act(game=game, user=user, action=action, **kwargs)


def mover(game, users):
    return users[current_engine_deal(game).to_move]


def test_a_move_is_logged_and_the_snapshot_saved(started):
    game, users = started(players=2, preset="polish51")
    before = current_engine_deal(game)

    result = act(game, users[before.to_move], DrawStock())

    game.refresh_from_db()
    move = Move.objects.get(game=game)
    after = current_engine_deal(game)
    assert result.move == move and not result.replayed
    assert game.ply == move.ply == 1
    assert move.kind == "draw" and move.payload == {"type": "draw"}
    assert move.seat.position == before.to_move and move.user == users[before.to_move]
    # The public form hides the card drawn; the private form (for the mover) shows it.
    assert "card" not in move.public
    assert move.private["card"]["id"] == after.hand_ids(before.to_move)[-1]
    assert after.to_dict() == before.apply(DrawStock()).to_dict()


def test_a_stale_ply_is_refused_with_the_current_one(started):
    game, users = started(players=2, preset="polish51")
    act(game, mover(game, users), DrawStock())

    with pytest.raises(StalePly) as error:
        act(game, mover(game, users), Discard(current_engine_deal(game).hand(0)[0]), expected_ply=0)

    assert error.value.details == {"current_ply": 1}
    assert error.value.code == "stale_ply"
    assert Move.objects.filter(game=game).count() == 1


def test_it_is_not_your_turn(started):
    game, users = started(players=2)
    waiting = users[1 - current_engine_deal(game).to_move]

    with pytest.raises(NotAllowed) as error:
        act(game, waiting, DrawStock())

    assert error.value.code == "not_your_turn"


def test_outsiders_cannot_act(started, user_factory):
    game, _ = started(players=2)
    private, _ = started(players=2, visibility="private")

    with pytest.raises(NotAllowed) as error:
        act(game, user_factory(), DrawStock())
    with pytest.raises(GameNotFound):
        act(private, user_factory(), DrawStock())

    assert error.value.code == "not_a_player"


def test_an_illegal_action_is_refused_with_the_engine_code(started):
    game, users = started(players=2, preset="serbian")  # the starter was dealt 15: no draw

    with pytest.raises(IllegalMove) as error:
        act(game, mover(game, users), DrawStock())

    assert error.value.code == "already_drew"
    assert not Move.objects.filter(game=game).exists()


def test_a_malformed_action_is_a_bad_action(started):
    game, users = started(players=2)

    with pytest.raises(IllegalMove) as error:
        act(game, mover(game, users), {"type": "fold"})

    assert error.value.code == "bad_action"


def test_a_retried_idempotency_key_returns_the_first_result(started):
    game, users = started(players=2, preset="polish51")
    user = mover(game, users)
    first = act(game, user, DrawStock(), idempotency_key="k-1")

    again = act(game, user, DrawStock(), idempotency_key="k-1", expected_ply=0)

    assert again.replayed and again.move.pk == first.move.pk
    assert Move.objects.filter(game=game).count() == 1
    with pytest.raises(IdempotencyKeyReused):
        act(game, user, parse_action("take"), idempotency_key="k-1", expected_ply=0)


def test_idempotency_keys_belong_to_their_user(started):
    game, users = started(players=2, preset="polish51")
    first = mover(game, users)
    act(game, first, DrawStock(), idempotency_key="same")
    act(game, first, greedy_action(current_engine_deal(game)))
    game.refresh_from_db()

    second = act(game, mover(game, users), DrawStock(), idempotency_key="same")

    assert not second.replayed and second.move.ply == 3


def test_a_finished_deal_deals_the_next_one(lobby, quick_deals):
    game, users = lobby(players=2)
    game = game_start(game=game, user=users[0])

    for action in quick_actions():
        game = act(game, users[0], action).game

    game.refresh_from_db()
    first, second = Deal.objects.filter(game=game).order_by("number")
    assert first.result["winner"] == 0 and first.result["finish"] == "dry_hand"
    assert first.finished_at is not None
    assert (second.number, second.dealer, second.result) == (2, 0, None)
    assert game.deal_number == 2 and game.status == Game.Status.ACTIVE
    assert [s.total for s in game.seats.order_by("position")] == [-280, 400]
    assert current_engine_deal(game).to_move == 1  # the starter moves one seat on


def test_a_total_of_501_ends_the_match(lobby, quick_deals):
    game, users = lobby(players=2)
    game = game_start(game=game, user=users[0])

    for starter in (0, 1, 0):
        for action in quick_actions():
            game = act(game, users[starter], action).game

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.end_reason == "completed"
    assert [s.total for s in game.seats.order_by("position")] == [-160, 520]
    assert game.winners == [0]
    assert game.deadline_at is None
    assert Deal.objects.filter(game=game).count() == 3
    with pytest.raises(Conflict) as error:
        act(game, users[1], DrawStock())
    assert error.value.code == "game_not_active"


@pytest.mark.parametrize("by_public_id", [True, False])
def test_a_move_or_a_ready_before_the_first_deal_is_refused_as_not_being_played(
    lobby, by_public_id
):
    game, users = lobby(players=2)
    ref = game.public_id if by_public_id else game

    with pytest.raises(Conflict) as moved:
        game_act(game=ref, user=users[0], action=DrawStock(), expected_ply=0)
    with pytest.raises(Conflict) as ready:
        game_deal_ready(game=ref, user=users[0])

    assert moved.value.code == ready.value.code == "game_not_active"
    assert not Move.objects.filter(game=game).exists()


def test_resigning_a_two_player_game_ends_it(started):
    game, users = started(players=2)

    game_resign(game=game, user=users[0])

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.winners == [1] and game.end_reason == "resigned"
    assert Move.objects.get(game=game).public == {"type": "resign", "seat": 0}


def test_a_resigned_seat_is_played_by_the_server(started):
    game, users = started(players=3, preset="polish51")
    deal = current_engine_deal(game)
    quitter = users[deal.to_move]

    game_resign(game=game, user=quitter)

    game.refresh_from_db()
    after = current_engine_deal(game)
    assert after.to_move != deal.to_move
    moves = list(Move.objects.filter(game=game).order_by("ply"))
    assert [m.kind for m in moves] == ["resign", "draw", "discard"]
    assert all(m.user is None for m in moves[1:])
    assert Seat.objects.get(game=game, user=quitter).status == Seat.Status.OUT
    with pytest.raises(NotAllowed) as error:
        act(game, quitter, DrawStock())
    assert error.value.code == "seat_out"


def test_the_last_player_left_wins(started):
    game, users = started(players=3, preset="polish51")

    game_resign(game=game, user=users[1])
    game_resign(game=game, user=users[0])

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winners == [2]
    with pytest.raises(Conflict):
        game_resign(game=game, user=users[2])


def test_playing_again_brings_a_seat_that_left_back(started):
    game, users = started(players=2, preset="polish51")
    user = mover(game, users)
    game_leave(game=game, user=user)

    act(game, user, DrawStock())

    assert Seat.objects.get(game=game, user=user).status == Seat.Status.ACTIVE


def test_the_turn_clock_restarts_when_the_turn_passes(started):
    game, users = started(players=2, preset="polish51", time_control="live", seconds_per_turn=30)
    game.refresh_from_db()
    first_deadline = game.deadline_at
    user = mover(game, users)

    drawn = act(game, user, DrawStock()).game
    passed = act(drawn, user, greedy_action(current_engine_deal(drawn))).game

    assert drawn.deadline_at == first_deadline  # the same turn: the same deadline
    assert passed.deadline_at > first_deadline
