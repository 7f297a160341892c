"""What one seat remembers of a deal: the public moves, in its own form.

A bot decides from two things only: the engine's ``deal.view(seat)`` (a
``SeatView``) and a ``BotMemory`` fed with the events that seat was shown,
in order (``event.for_seat(seat)``: the public form of everyone's moves, the
private form of its own). Neither holds another hand, the stock or the deck
order, so a bot cannot cheat even by mistake.

From the events the memory keeps, for every seat: the discards it took (and
which of them are still in its hand, known by card id), the cards it
discarded, the top discards it declined by drawing from the stock, and a
model of the discard pile. The platform builds it with
``BotMemory.from_events(seat, players, events, initial_discard=...)`` from the
``Move.public`` / ``Move.private`` log of the current deal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.engine import Card
from games.engine.view import SeatView

__all__ = ["BotMemory", "SeatRecord"]


@dataclass(slots=True)
class SeatRecord:
    """What a seat was seen doing in this deal."""

    took: list[Card] = field(default_factory=list)  # discards taken (also undone ones)
    discarded: list[Card] = field(default_factory=list)
    declined: list[Card] = field(default_factory=list)  # top discards left for the stock
    known: dict[int, Card] = field(default_factory=dict)  # card id -> card, still in hand
    draws: int = 0  # stock draws
    turns: int = 0  # discards made (each turn ends with one)


class BotMemory:
    """The public history of the current deal as ``seat`` saw it.

    Feed it every event of the deal in order with ``observe`` (the dicts of
    ``event.for_seat(seat)``, ``SeatView.last_event`` or the move log). A
    memory that missed events is still safe to use: it only knows less.
    """

    __slots__ = ("events", "num_players", "pile", "records", "seat")

    seat: int
    num_players: int
    records: list[SeatRecord]
    pile: list[tuple[int, Card]]  # the discard pile as seen, bottom first
    events: int

    def __init__(
        self,
        seat: int,
        num_players: int,
        *,
        initial_discard: Iterable[tuple[int, Card]] = (),
    ) -> None:
        self.seat = seat
        self.num_players = num_players
        self.records = [SeatRecord() for _ in range(num_players)]
        self.pile = list(initial_discard)
        self.events = 0

    @classmethod
    def start(cls, view: SeatView) -> BotMemory:
        """A memory for a deal that has just been dealt, from the seat's first view."""
        if view.seat is None:
            raise ValueError("a bot memory belongs to a seat, not a spectator")
        return cls(view.seat, len(view.hand_counts), initial_discard=view.discard)

    @classmethod
    def from_events(
        cls,
        seat: int,
        num_players: int,
        events: Iterable[Mapping[str, Any]],
        *,
        initial_discard: Iterable[tuple[int, Card]] = (),
    ) -> BotMemory:
        """A memory built from the seat's form of every move of the deal so far."""
        memory = cls(seat, num_players, initial_discard=initial_discard)
        for event in events:
            memory.observe(event)
        return memory

    # ------------------------------------------------------------ feeding

    def observe(self, event: Mapping[str, Any]) -> None:
        """Take in one move, as this seat was shown it."""
        self.events += 1
        kind = event.get("type")
        seat = int(event["seat"])
        record = self.records[seat]
        if kind == "draw":
            record.draws += 1
            if self.pile:
                record.declined.append(self.pile[-1][1])
        elif kind == "take":
            card_id, card = _pair(event["card"])
            record.took.append(card)
            record.known[card_id] = card
            self._pop_pile(card_id)
        elif kind == "undo":
            card_id, card = _pair(event["returned"])
            record.known.pop(card_id, None)
            self.pile.append((card_id, card))
            record.draws += 1
        elif kind == "lay":
            for meld in event["melds"]:
                for pair in meld:
                    record.known.pop(_pair(pair)[0], None)
        elif kind == "off":
            record.known.pop(_pair(event["card"])[0], None)
        elif kind == "swap":
            for pair in event["cards"]:
                record.known.pop(_pair(pair)[0], None)
            joker_id, joker = _pair(event["joker"])
            record.known[joker_id] = joker
        elif kind == "discard":
            card_id, card = _pair(event["card"])
            record.known.pop(card_id, None)
            record.discarded.append(card)
            record.turns += 1
            self.pile.append((card_id, card))
        if event.get("reshuffled"):
            self.pile = self.pile[-1:]

    def observe_view(self, view: SeatView) -> None:
        """Take in ``view.last_event`` (call once per move)."""
        if view.last_event is not None:
            self.observe(view.last_event)

    def _pop_pile(self, card_id: int) -> None:
        if self.pile and self.pile[-1][0] == card_id:
            self.pile.pop()
        else:  # the memory missed something: forget the pile rather than guess
            self.pile = [pair for pair in self.pile if pair[0] != card_id]

    # ------------------------------------------------------------ reading

    def known_cards(self, seat: int) -> list[Card]:
        """Cards known to be in ``seat``'s hand (taken discards not laid or discarded since)."""
        return list(self.records[seat].known.values())

    def opponents(self) -> list[int]:
        return [seat for seat in range(self.num_players) if seat != self.seat]

    def __repr__(self) -> str:
        return f"<BotMemory seat={self.seat} events={self.events}>"


def _pair(data: Mapping[str, Any]) -> tuple[int, Card]:
    return int(data["id"]), Card.parse(str(data["card"]))
