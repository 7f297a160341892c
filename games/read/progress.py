"""A move's short answer: where the game stands after it, in the game view's own
fields, without the view of the deal.

A client that asks for it (``Prefer: return=minimal`` on ``POST /actions`` and
``POST /turn``) already has the game from its last read or its websocket; the move
entries of the answer say what changed (the card it drew among them), and the whole
view is one ``GET /api/v1/games/{id}`` away. Building that view (the engine's view of
the seat, the legal moves, the seats, chips and results) was the largest part of a
move's answer: see docs/performance.md."""

from __future__ import annotations

from typing import Any

from games import clock
from games.engine import Deal as EngineDeal
from games.models import Game
from games.read.selectors import deal_pause_view


def game_progress(game: Game, deal: EngineDeal | None) -> dict[str, Any]:
    """``game`` after a move (``deal``: its current deal, None when not at hand), each
    field as ``selectors.game_view_for`` says it."""
    to_move = game.to_move
    if deal is not None:
        to_move = None if deal.is_over or game.is_over else deal.to_move
    elif game.status != Game.Status.ACTIVE or game.next_deal_at is not None:
        to_move = None
    return {
        "id": game.public_id,
        "status": game.status,
        "ply": game.ply,
        "deadline_at": game.deadline_at,
        "turn_ends_at": clock.turn_ends_at(game),
        "deal_number": game.deal_number,
        "to_move": to_move,
        "winners": game.winners if game.status == Game.Status.FINISHED else None,
        "end_reason": game.end_reason or None,
        "pause": deal_pause_view(game),
    }
