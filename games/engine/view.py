"""The per-seat view: the only way deal state leaves the server.

A seat sees its own hand (with card ids), every table meld, the discard
pile, the other hands' sizes, the stock's size, whose turn it is and what it
may do now. Never another hand, the stock's cards or order, the deck order
or the reshuffle seeds (ARCHITECTURE.md, "Hidden information").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from .actions import ACTION_KINDS
from .cards import Card, Suit
from .scoring import DealResult
from .table import TableMeld

# For annotations only: deal.py imports this module at run time for its seat views,
# so a run-time import back would be a cycle (the acyclic contract in pyproject.toml
# ignores imports under TYPE_CHECKING and fails on any other).
if TYPE_CHECKING:
    from .deal import Deal

__all__ = ["Phase", "SeatView", "seat_view"]

Phase: TypeAlias = Literal["draw", "play", "over"]


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat (or a spectator, ``seat=None``) may know about a deal.

    ``hand`` is None for a spectator. ``phase`` and ``first_round`` describe
    the turn of the player to move; ``taken`` is the discard they took this
    turn (public, the UI marks it) and ``must_return`` the card they must
    discard back unless they open (serbian). ``actions`` lists the kinds of
    action this seat has now (empty unless it is to move), from
    ``deal.legal_actions()``. ``last_event`` is the last move in the form
    this seat may see.
    """

    seat: int | None
    ruleset: str
    dealer: int
    to_move: int
    phase: Phase
    first_round: bool
    hand: tuple[tuple[int, Card], ...] | None
    hand_counts: tuple[int, ...]
    table: tuple[TableMeld, ...]
    discard: tuple[tuple[int, Card], ...]
    stock_count: int
    opened: tuple[bool, ...]
    taken: tuple[int, Card] | None
    must_return: Card | None
    reshuffles: int
    actions: tuple[str, ...]
    result: DealResult | None
    last_event: Mapping[str, Any] | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form for the API and websocket events."""
        return {
            "seat": self.seat,
            "ruleset": self.ruleset,
            "dealer": self.dealer,
            "to_move": self.to_move,
            "phase": self.phase,
            "first_round": self.first_round,
            "hand": None if self.hand is None else [_pair(*pair) for pair in self.hand],
            "hand_counts": list(self.hand_counts),
            "table": [_meld(index, meld) for index, meld in enumerate(self.table)],
            "discard": [_pair(*pair) for pair in self.discard],
            "stock_count": self.stock_count,
            "opened": list(self.opened),
            "taken": None if self.taken is None else _pair(*self.taken),
            "must_return": None if self.must_return is None else str(self.must_return),
            "reshuffles": self.reshuffles,
            "actions": list(self.actions),
            "result": None if self.result is None else self.result.to_dict(),
            "last_event": None if self.last_event is None else dict(self.last_event),
        }


def seat_view(deal: Deal, seat: int | None) -> SeatView:
    if seat is not None and not 0 <= seat < deal.num_players:
        raise ValueError(f"no seat {seat} in a {deal.num_players}-player deal")
    hand = None
    if seat is not None:
        hand = tuple((card_id, deal.card(card_id)) for card_id in deal.hand_ids(seat))
    event = deal.last_event
    return SeatView(
        seat=seat,
        ruleset=deal.ruleset.name,
        dealer=deal.dealer,
        to_move=deal.to_move,
        phase=_phase(deal),
        first_round=deal.first_round,
        hand=hand,
        hand_counts=tuple(len(deal.hand_ids(other)) for other in range(deal.num_players)),
        table=deal.table,
        discard=tuple((card_id, deal.card(card_id)) for card_id in deal.discard_ids),
        stock_count=deal.stock_count,
        opened=tuple(deal.has_opened(other) for other in range(deal.num_players)),
        taken=None if deal.is_over else deal.taken_card,
        must_return=None if deal.is_over else deal.must_return,
        reshuffles=deal.reshuffles,
        actions=_actions(deal, seat),
        result=deal.result(),
        last_event=None if event is None else event.for_seat(seat),
    )


def _phase(deal: Deal) -> Phase:
    if deal.is_over:
        return "over"
    return "play" if deal.drawn else "draw"


def _actions(deal: Deal, seat: int | None) -> tuple[str, ...]:
    if seat != deal.to_move or deal.is_over:
        return ()
    kinds = {action.kind for action in deal.legal_actions()}
    return tuple(kind for kind in ACTION_KINDS if kind in kinds)


def _pair(card_id: int, card: Card) -> dict[str, Any]:
    return {"id": card_id, "card": str(card)}


def _meld(index: int, meld: TableMeld) -> dict[str, Any]:
    return {
        "index": index,
        "owner": meld.owner,
        "kind": meld.kind.value,
        "cards": [_pair(card_id, card) for card_id, card in zip(meld.ids, meld.cards, strict=True)],
        "jokers": _jokers(meld),
    }


def _jokers(meld: TableMeld) -> list[dict[str, Any]]:
    """What each joker of a table meld stands for: in a run one card; in a set any
    suit the set lacks (``card`` is None), so only the rank is said."""
    jokers = []
    for position, card in enumerate(meld.cards):
        if not card.is_joker:
            continue
        stands = meld.meld.stands_for(position)
        rank = stands.rank if stands is not None else meld.meld.low
        jokers.append(
            {
                "position": position,
                "rank": _rank_text(rank),
                "card": None if stands is None else str(stands),
            }
        )
    return jokers


def _rank_text(rank: int) -> str:
    # A card's notation is its rank's text and a suit letter: any suit gives the rank.
    return str(Card(rank, Suit.SPADES))[:-1]
