"""Turns played through the services, to bring a game to the point a test needs: the
first turn's discard so that the player to move must draw, and a person's whole turn."""

from __future__ import annotations

from typing import Any

from games.engine import Discard
from games.models import Deal, Game
from games.play.act import game_act
from tests.gamekit import current_engine_deal


def until_a_draw(game: Game) -> int:
    """Play the first turn's discard if the starter begins with one (serbian deals the
    starter an extra card): afterwards the player to move must draw. Returns the ply."""
    game.refresh_from_db()
    deal = current_engine_deal(game)
    if deal.drawn:
        seat = game.seats.get(position=deal.to_move)
        card = max(deal.hand(deal.to_move), key=lambda c: (not c.is_joker, c.rank))
        game_act(game=game, user=seat.user, action=Discard(card), expected_ply=game.ply)
        game.refresh_from_db()
    return game.ply


def passive_move(game: Game, user: Any) -> str:
    """The person's next move, never a meld: a draw if due, else the last card of their
    hand thrown. Returns its type."""
    row = Deal.objects.get(game=game, number=game.deal_number)
    view = row.restore(game.engine_ruleset()).view(game.to_move)
    assert view.hand is not None
    if "discard" in view.actions:
        action = {"type": "discard", "card": str(view.hand[-1][1])}
    else:
        action = {"type": "draw"}
    game_act(game=game, user=user, action=action, expected_ply=game.ply)
    return action["type"]


def person_draws_and_throws(game: Game, user: Any) -> None:
    """The person plays one turn (a draw if due, then the last card of their hand)."""
    for _ in range(2):
        game.refresh_from_db()
        if passive_move(game, user) == "discard":
            return
