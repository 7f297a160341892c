"""The solver's advice for a player's own hand (``POST /api/v1/games/{id}/hint``).

Casual games only: a rated game is played without help. The answer holds nothing but
the asking player's own cards and the table everyone sees (``games.engine.legal.hint``
reads no other hand), named by the ids of the player's hand as the game view gives them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from games.engine import Card, meld_value
from games.engine import Deal as EngineDeal
from games.engine.legal import Hint, hint
from games.errors import Conflict, NotAllowed
from games.models import Game
from games.read.selectors import User, current_deal, seat_of


def hint_for(*, game: Game, user: User) -> dict[str, Any]:
    """The best play for ``user``'s hand in the current deal of ``game``.

    ``NotAllowed`` in a rated game (``hints_not_allowed``) and for anyone without a
    seat (``not_a_player``); ``Conflict`` when the game is not being played.
    """
    if game.rated:
        raise NotAllowed(
            _("hints are for casual games and games against bots: this game is rated"),
            code="hints_not_allowed",
        )
    seat = seat_of(game, user)
    if seat is None:
        raise NotAllowed(_("only the players at the table get hints"), code="not_a_player")
    deal = current_deal(game) if game.status == Game.Status.ACTIVE else None
    if deal is None or deal.is_over:
        raise Conflict(_("the game is not being played"), code="game_not_active")
    return _answer(deal, hint(deal, seat.position))


def _answer(deal: EngineDeal, advice: Hint) -> dict[str, Any]:
    ids = _Ids(deal, advice.seat)
    # Melds that do not open stay in the hand: their cards are among those left too.
    meld_ids = ids if advice.opens else _Ids(deal, advice.seat)
    ruleset = deal.ruleset
    return {
        "seat": advice.seat,
        "opened": advice.opened,
        "opening_minimum": advice.minimum,
        "melds": [
            {
                "kind": meld.kind.value,
                "value": meld_value(meld, ruleset),
                "cards": meld_ids.take(meld.cards),
            }
            for meld in advice.melds
        ],
        "value": advice.value,
        "opens": advice.opens,
        "refusal": advice.refusal,
        "lay_offs": [
            {"card": ids.take([off.card])[0], "meld": off.meld_index, "end": off.end}
            for off in advice.lay_offs
        ],
        "left": ids.take(advice.left),
        "penalty_left": advice.penalty_left,
        "actions": [action.to_dict() for action in advice.actions()],
    }


class _Ids:
    """Hands out the ids of a seat's cards, each once (twins are interchangeable)."""

    def __init__(self, deal: EngineDeal, seat: int) -> None:
        self.free: dict[Card, list[int]] = defaultdict(list)
        for card_id in deal.hand_ids(seat):
            self.free[deal.card(card_id)].append(card_id)

    def take(self, cards: Sequence[Card]) -> list[dict[str, Any]]:
        return [{"id": self.free[card].pop(0), "card": str(card)} for card in cards]
