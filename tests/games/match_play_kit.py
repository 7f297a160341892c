"""Matches played through the services, for the ratings and statistics tests: a match
of one deal, a move by whoever, the starter of a quick deal going out at once, and a
seat timed out of the game."""

from __future__ import annotations

from django.utils import timezone

from games.models import Game
from games.play.act import game_act
from games.play.timeout_turn import game_timeout_turn
from tests.gamekit import current_engine_deal, quick_actions

ONE_DEAL = {"match_deals": [1, 1, 1]}


def act(game, user, action):
    game.refresh_from_db()
    return game_act(game=game, user=user, action=action, expected_ply=game.ply)


def play_quick_deal(game, users):
    """The starter of the current (quick) deal goes out at once: -280 for them,
    +400 for everyone else."""
    starter = users[current_engine_deal(game).to_move]
    for action in quick_actions():
        game = act(game, starter, action).game
    game.refresh_from_db()
    return game, starter


def time_out_of_the_game(game):
    """The mover's deadline passes with a strike limit of one: their seat is out."""
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now())
    game.refresh_from_db()
    turn = game_timeout_turn(game=game, expected_ply=game.ply, strike_limit=1)
    assert turn is not None and turn.out
    game.refresh_from_db()
    return game
