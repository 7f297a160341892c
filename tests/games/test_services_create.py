"""game_create: a game in the lobby with the whole ruleset stored."""

from __future__ import annotations

import pytest

from games.engine import PRESETS
from games.errors import InvalidRequest
from games.models import Game, Seat
from games.play.create import DEFAULT_DAYS_PER_MOVE, DEFAULT_SECONDS_PER_TURN, game_create


def test_it_creates_a_lobby_with_the_host_in_seat_0(user):
    game = game_create(owner=user, preset="serbian", players=3)

    assert game.status == Game.Status.LOBBY
    assert game.players == 3
    assert game.ply == 0 and game.deal_number == 0
    assert [(s.position, s.user) for s in Seat.objects.filter(game=game)] == [(0, user)]


def test_it_stores_the_whole_ruleset_with_house_rules(user):
    game = game_create(owner=user, preset="serbian", players=2, overrides={"hand_needs_51": False})

    expected = PRESETS["serbian"].replace(hand_needs_51=False).to_dict()
    assert game.ruleset == expected
    assert game.get_ruleset() == PRESETS["serbian"].replace(hand_needs_51=False)
    assert game.preset == "serbian"


def test_public_ids_are_random_not_sequential(user):
    ids = [game_create(owner=user, preset="polish51", players=2).public_id for _ in "abc"]

    assert len(set(ids)) == 3
    assert all(len(i) == 12 and i.isalnum() for i in ids)
    assert sorted(ids) != ids or sorted(ids, reverse=True) != ids  # not a counter


def test_a_private_game_gets_an_invite_code(user):
    game = game_create(owner=user, preset="macedonian", players=2, visibility="private")

    assert game.visibility == Game.Visibility.PRIVATE
    assert len(game.invite_code) == 10


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"preset": "klondike"}, "unknown_preset"),
        ({"overrides": {"no_such_switch": 1}}, "invalid_ruleset"),
        ({"overrides": {"hand_size": "many"}}, "invalid_ruleset"),
        ({"overrides": {"hand_size": 60}}, "invalid_ruleset"),
        ({"overrides": {"name": "mine"}}, "invalid_ruleset"),
        ({"overrides": {"match_deals": [0, 0, 0]}}, "invalid_ruleset"),
        ({"players": 5}, "invalid_players"),
        ({"players": 1}, "invalid_players"),
        ({"visibility": "secret"}, "invalid_visibility"),
        ({"time_control": "blitz"}, "invalid_time_control"),
        ({"time_control": "live", "seconds_per_turn": 3}, "invalid_time_control"),
        ({"time_control": "correspondence", "days_per_move": 99}, "invalid_time_control"),
    ],
)
def test_it_validates_the_request(user, kwargs, code):
    arguments = {"owner": user, "preset": "serbian", "players": 2, **kwargs}

    with pytest.raises(InvalidRequest) as error:
        game_create(**arguments)

    assert error.value.code == code
    assert not Game.objects.exists()


def test_time_controls_get_defaults(user):
    live = game_create(owner=user, preset="serbian", players=2, time_control="live")
    mail = game_create(owner=user, preset="serbian", players=2)

    assert (live.seconds_per_turn, live.days_per_move) == (DEFAULT_SECONDS_PER_TURN, None)
    assert (mail.seconds_per_turn, mail.days_per_move) == (None, DEFAULT_DAYS_PER_MOVE)


def test_bots_take_the_next_seats(user, bots):
    game = game_create(owner=user, preset="serbian", players=3, bots=bots[:2])

    seated = [seat.user for seat in Seat.objects.filter(game=game).order_by("position")]
    assert seated == [user, bots[0], bots[1]]


def test_only_bots_may_be_seated_as_bots(user, user_factory):
    with pytest.raises(InvalidRequest) as error:
        game_create(owner=user, preset="serbian", players=2, bots=[user_factory()])

    assert error.value.code == "not_a_bot"
