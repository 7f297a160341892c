"""What a move showed: its public form for everyone and a private one for the actor.

Another player's draw from the stock is public only as "drew from stock":
neither the card nor its id (an id seen later would tell which card was the
drawn one). Everything else a move does is on the table for all to see.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .actions import Action, DrawStock, End, LayDown, LayOff, SwapJoker, UndoTake, action_from_dict
from .cards import Card, format_cards
from .scoring import DealResult

__all__ = ["Event"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Event:
    """One applied action and its consequences.

    ``moved`` lists the physical cards the action moved, as ``(id, card)``
    in the action's order: the card drawn or taken; for ``undo`` the card put
    back then the card drawn; the cards laid (laid-out order); the card laid
    off; the cards given then the joker taken; the card discarded.
    """

    seat: int
    action: Action
    moved: tuple[tuple[int, Card], ...]
    meld_index: int | None = None  # the first new meld of a lay-down, the meld of off/swap
    end: End | None = None  # where a lay-off went on a run
    reshuffled: bool = False  # the discard pile became the new stock after this move
    stock_count: int = 0
    result: DealResult | None = None  # the move ended the deal

    @property
    def public(self) -> dict[str, Any]:
        """What every seat and spectator may see (JSON-safe)."""
        return self._form(private=False)

    @property
    def private(self) -> dict[str, Any]:
        """What the acting seat sees: the public form plus the card it drew."""
        return self._form(private=True)

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return self._form(private=seat == self.seat)

    def _form(self, *, private: bool) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.action.kind, "seat": self.seat}
        out.update(self._details(private))
        if self.reshuffled:
            out["reshuffled"] = True
        out["stock_count"] = self.stock_count
        if self.result is not None:
            out["result"] = self.result.to_dict()
        return out

    def _details(self, private: bool) -> dict[str, Any]:
        cards = [_pair(card_id, card) for card_id, card in self.moved]
        action = self.action
        if isinstance(action, DrawStock):
            return {"card": cards[0]} if private else {}
        if isinstance(action, UndoTake):
            return {"returned": cards[0], **({"card": cards[1]} if private else {})}
        if isinstance(action, LayDown):
            return {"melds": _groups(cards, action), "meld": self.meld_index}
        if isinstance(action, LayOff):
            return {"card": cards[0], "meld": self.meld_index, "end": self.end}
        if isinstance(action, SwapJoker):
            return {"cards": cards[:-1], "joker": cards[-1], "meld": self.meld_index}
        return {"card": cards[0]}  # take, discard

    def __str__(self) -> str:
        """The public form in words, e.g. ``seat 2 drew from stock``."""
        text = f"seat {self.seat} {self._verb()}"
        if self.reshuffled:
            text += "; the discard pile was shuffled into a new stock"
        if self.result is not None:
            text += "; the deal is over"
        return text

    def _verb(self) -> str:
        action = self.action
        shown = format_cards(card for _, card in self.moved)
        if isinstance(action, DrawStock):
            return "drew from stock"
        if isinstance(action, UndoTake):
            return f"put back {self.moved[0][1]} and drew from stock"
        if isinstance(action, LayOff):
            return f"laid off {shown} on meld {self.meld_index}"
        if isinstance(action, SwapJoker):
            return f"gave {format_cards(action.cards)} for the joker of meld {self.meld_index}"
        if isinstance(action, LayDown):
            laid = [card for _, card in self.moved]
            return "laid " + " | ".join(format_cards(meld) for meld in _groups(laid, action))
        verbs = {"take": "took", "discard": "discarded"}
        return f"{verbs[action.kind]} {shown}"

    def to_dict(self) -> dict[str, Any]:
        """The full server-side form, for snapshots (never for clients)."""
        return {
            "seat": self.seat,
            "action": self.action.to_dict(),
            "ids": [card_id for card_id, _ in self.moved],
            "meld_index": self.meld_index,
            "end": self.end,
            "reshuffled": self.reshuffled,
            "stock_count": self.stock_count,
        }

    @classmethod
    def from_dict(
        cls, data: Mapping[str, Any], card_of: tuple[Card, ...], result: DealResult | None
    ) -> Event:
        return cls(
            seat=data["seat"],
            action=action_from_dict(data["action"]),
            moved=tuple((card_id, card_of[card_id]) for card_id in data["ids"]),
            meld_index=data["meld_index"],
            end=data["end"],
            reshuffled=data["reshuffled"],
            stock_count=data["stock_count"],
            result=result,
        )


def _pair(card_id: int, card: Card) -> dict[str, Any]:
    return {"id": card_id, "card": str(card)}


def _groups(items: Sequence[T], action: LayDown) -> list[list[T]]:
    """``items`` (one per card laid) split into the action's melds."""
    groups = []
    start = 0
    for meld in action.melds:
        groups.append(list(items[start : start + len(meld)]))
        start += len(meld)
    return groups
