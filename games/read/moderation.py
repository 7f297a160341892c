"""Moderators' access to hidden information (ARCHITECTURE.md, "Hidden information").

Staff with the ``games.view_hidden_cards`` permission may see a deal's full state
(every hand, the stock in order, a player's private draws) through the admin, of a
game that is over or one they have no seat at: a staff member seated at a running
game never sees its hidden cards, a superuser neither. Every such look is recorded:
a ``ModerationAccess`` row (who, which game and deal, what, when) and a log line on
the ``games.read.moderation`` logger. Nothing else in the site shows this state; the
admin calls :func:`hidden_deal_state` and :func:`hidden_move` only after
:func:`may_see_hidden` said yes.
"""

from __future__ import annotations

import logging
from typing import Any

from games.engine import Deal as EngineDeal
from games.models import Deal, Game, ModerationAccess, Move, Seat

logger = logging.getLogger("games.read.moderation")

HIDDEN_PERMISSION = "games.view_hidden_cards"


def may_see_hidden(user: Any, game: Game) -> bool:
    """Active staff with the permission (superusers have every permission), for a game
    that is over or that they are not seated at (a seat they left counts: what they
    saw could still reach the table)."""
    return bool(
        user.is_authenticated
        and user.is_active
        and getattr(user, "is_staff", False)
        and user.has_perm(HIDDEN_PERMISSION)
        and (game.is_over or not Seat.objects.filter(game=game, user=user).exists())
    )


def record_access(*, user: Any, game: Game, deal: Deal | None, what: str, path: str = "") -> None:
    """Log one look at hidden information (a row and a log line)."""
    if not may_see_hidden(user, game):  # a programming error: never show it unrecorded
        raise PermissionError(f"{user} may not see the hidden cards of {game.public_id}")
    ModerationAccess.objects.create(user=user, game=game, deal=deal, what=what, path=path[:255])
    logger.info(
        "moderator %s (id %s) saw %s of game %s%s",
        user.get_username(),
        user.pk,
        what,
        game.public_id,
        "" if deal is None else f" deal {deal.number}",
    )


def _pairs(deal: EngineDeal, ids: Any) -> list[dict[str, Any]]:
    return [{"id": card_id, "card": str(deal.card(card_id))} for card_id in ids]


def hidden_deal_state(row: Deal, *, user: Any, path: str = "") -> dict[str, Any]:
    """The whole current state of a deal, for a moderator; the access is recorded."""
    record_access(user=user, game=row.game, deal=row, what="deal_state", path=path)
    deal = row.restore(row.game.engine_ruleset())
    state = deal.to_dict()
    result = deal.result()
    return {
        "to_move": deal.to_move,
        "hands": [_pairs(deal, deal.hand_ids(seat)) for seat in range(deal.num_players)],
        "stock_top_first": _pairs(deal, state["stock"]),
        "discard_bottom_first": _pairs(deal, deal.discard_ids),
        "table": [{"owner": meld.owner, "cards": _pairs(deal, meld.ids)} for meld in deal.table],
        "opened": [deal.has_opened(seat) for seat in range(deal.num_players)],
        "result": None if result is None else result.to_dict(),
    }


def hidden_move(move: Move, *, user: Any, path: str = "") -> Any:
    """A move's private form (the card a player drew), for a moderator; recorded."""
    record_access(user=user, game=move.game, deal=move.deal, what="move_private", path=path)
    return move.private
