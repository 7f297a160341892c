"""What several browser tests of the table share: the scripted hands, a started game
of new players, a finished rated one, and how many cards the bot holds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth import get_user_model

from games.models import Game
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from games.play.resign import game_resign
from tests.browser.deal_end import PASSWORD
from tests.gamekit import current_engine_deal, everyone_moves

# polish51: 13 cards, the starter draws first. Two melds open (7-8-9-10♥ = 34,
# Q♠ Q♦ Q♣ = 30: 64), the kings are a set for after, 2♦ 5♣ 9♠ are loose.
OPENING_HAND = "7H 8H 9H 10H QS QD QC KS KD KC 2D 5C 9S"
# serbian: the starter gets 15 cards and plays without drawing.
SERBIAN_HAND = "7H 8H 9H QS QD QC 2C 3C 4C JK 5D KS 10H AS JK"


def bot_cards() -> int:
    """How many cards the bot (seat 1 of the only game) holds now, from the server's
    state."""
    game = Game.objects.get()
    deal = current_engine_deal(game)
    return len(deal.hand_ids(1))


def started_game(preset: str, names: Sequence[str], **options: Any) -> tuple[Game, list[Any]]:
    """A started game of ``preset`` between new users ``names`` (the first hosts, each
    with ``PASSWORD``), made with ``options`` as ``game_create`` takes them; (game,
    users)."""
    users = [get_user_model().objects.create_user(username=n, password=PASSWORD) for n in names]
    game = game_create(owner=users[0], preset=preset, players=len(users), **options)
    for user in users[1:]:
        game_join(game=game, user=user)
    game = game_start(game=game, user=users[0])
    game.refresh_from_db()
    return game, users


def emil_resigns(*, after_moves: bool) -> tuple[Game, list[Any]]:
    """dana and emil start a rated polish51 game; emil resigns, after each of them
    has made a move or at once."""
    game, users = started_game("polish51", ("dana", "emil"), rated=True)
    if after_moves:
        everyone_moves(game, users)
    game_resign(game=game, user=users[1])
    game.refresh_from_db()
    return game, users
