"""The server's own moves, for a seat that does not choose its own: a seat that is
out of the game, a turn whose time ran out, a bot whose decision failed.

Plain and quick, and legal: draw from the stock, give back a card the rules say is
owed, else discard the card worth the most penalty (a joker last: it is worth keeping).
"""

from __future__ import annotations

from collections.abc import Iterable

from games.engine import Action, Card, Discard, DrawStock, Ruleset, UndoTake, card_penalty
from games.engine import Deal as EngineDeal
from games.engine.view import SeatView


def worst_card(cards: Iterable[Card], ruleset: Ruleset) -> Card:
    """The card a plain player throws away: the most penalty, a joker last."""
    return max(cards, key=lambda card: (not card.is_joker, card_penalty(card, ruleset)))


def server_action(deal: EngineDeal) -> Action:
    """The next plain action of the seat to move in ``deal``."""
    if not deal.drawn:
        return DrawStock()
    owed = deal.must_return
    if owed is not None:
        return Discard(owed)
    return Discard(worst_card(deal.hand(deal.to_move), deal.ruleset))


def timeout_action(deal: EngineDeal) -> Action:
    """The action for a seat out of time: ``server_action`` when it is legal, else undo a
    take (a take that needed an opening), else the worst legal discard."""
    preferred = server_action(deal)
    if deal.is_legal(preferred):
        return preferred
    legal = deal.legal_actions()
    undo = next((action for action in legal if isinstance(action, UndoTake)), None)
    if undo is not None:
        return undo
    discards = [action.card for action in legal if isinstance(action, Discard)]
    if discards:
        return Discard(worst_card(discards, deal.ruleset))
    return legal[0]


def view_action(view: SeatView, ruleset: Ruleset) -> Action:
    """``server_action`` from what one seat may see of the deal (a bot's fallback)."""
    if view.phase == "draw":
        return DrawStock()
    if view.must_return is not None:
        return Discard(view.must_return)
    assert view.hand is not None
    return Discard(worst_card((card for _id, card in view.hand), ruleset))
