"""What a player does in a deal, as small values.

Actions name cards by value: twins are interchangeable, and the deal decides
which physical card moves. Every action prints as a player would type it
(``lay 7H 8H 9H | 10S 10D 10C``, ``off 7H 2 high``, ``swap 7H 3``,
``discard 7H``, ``draw``, ``take``, ``undo``), parses back with
``parse_action`` and round-trips through JSON with ``to_dict`` and
``action_from_dict`` (the API and the move log). Meld indexes count from 0 in
the order the melds were put on the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Literal, TypeAlias

from .cards import Card, format_cards, parse_cards

__all__ = [
    "ACTION_KINDS",
    "Action",
    "Discard",
    "DrawStock",
    "End",
    "IllegalAction",
    "LayDown",
    "LayOff",
    "SwapJoker",
    "TakeDiscard",
    "UndoTake",
    "action_from_dict",
    "parse_action",
]

End: TypeAlias = Literal["low", "high"]
_ENDS: Final = ("low", "high")


class IllegalAction(ValueError):
    """An action the rules do not allow now.

    ``code`` is stable and machine-readable (``opening_too_low``,
    ``must_return_taken_card``, a meld code such as ``adjacent_jokers``, ...);
    the message is meant for the player, in English. ``params`` hold the values
    formatted into it and ``variant`` names which of a code's messages it is, so
    that an interface can say the same in the player's language.
    """

    def __init__(
        self,
        code: str,
        message: str,
        params: Mapping[str, str | int] | None = None,
        *,
        variant: str = "",
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params: dict[str, str | int] = dict(params or {})
        self.variant = variant

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"


@dataclass(frozen=True, slots=True)
class DrawStock:
    """Draw the top card of the stock."""

    kind: ClassVar[str] = "draw"

    def __str__(self) -> str:
        return "draw"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind}


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take the top card of the discard pile instead of drawing."""

    kind: ClassVar[str] = "take"

    def __str__(self) -> str:
        return "take"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind}


@dataclass(frozen=True, slots=True)
class UndoTake:
    """Put the discard just taken back and draw from the stock instead (serbian)."""

    kind: ClassVar[str] = "undo"

    def __str__(self) -> str:
        return "undo"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind}


@dataclass(frozen=True, slots=True, init=False)
class LayDown:
    """Lay one or more new melds; each meld's cards may come in any order.

    The deal lays each meld out (``arrange_meld``): a joker that could stand at
    either end of a run goes high unless it is named first of its meld. For a
    player who has not opened, this is the opening: the melds together must
    reach the ruleset's opening minimum.
    """

    melds: tuple[tuple[Card, ...], ...]
    kind: ClassVar[str] = "lay"

    def __init__(self, melds: Iterable[Iterable[Card]]) -> None:
        object.__setattr__(self, "melds", tuple(tuple(meld) for meld in melds))

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for meld in self.melds for card in meld)

    def __str__(self) -> str:
        return "lay " + " | ".join(format_cards(meld) for meld in self.melds)

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "melds": [[str(card) for card in meld] for meld in self.melds]}


@dataclass(frozen=True, slots=True)
class LayOff:
    """Add one card to a table meld.

    ``end`` picks the end of a run where the card could go at either end (a
    joker, or an ace on a run from 2 to K); when it is None such a card goes
    to the high end (docs/rules.md §6). It is ignored for sets.
    """

    card: Card
    meld_index: int
    end: End | None = None
    kind: ClassVar[str] = "off"

    def __post_init__(self) -> None:
        if self.end is not None and self.end not in _ENDS:
            raise ValueError(f"end must be 'low', 'high' or None, not {self.end!r}")

    def __str__(self) -> str:
        text = f"off {self.card} {self.meld_index}"
        return f"{text} {self.end}" if self.end else text

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "card": str(self.card), "meld": self.meld_index, "end": self.end}


@dataclass(frozen=True, slots=True, init=False)
class SwapJoker:
    """Give the real card(s) a table joker stands for and take the joker.

    ``cards`` is one card, or for the polish51 set rule both missing suits.
    """

    cards: tuple[Card, ...]
    meld_index: int
    kind: ClassVar[str] = "swap"

    def __init__(self, cards: Card | Iterable[Card], meld_index: int) -> None:
        given = (cards,) if isinstance(cards, Card) else tuple(cards)
        object.__setattr__(self, "cards", given)
        object.__setattr__(self, "meld_index", meld_index)

    def __str__(self) -> str:
        return f"swap {format_cards(self.cards)} {self.meld_index}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.kind,
            "cards": [str(card) for card in self.cards],
            "meld": self.meld_index,
        }


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard one card: ends the turn, and the deal if it was the last card."""

    card: Card
    kind: ClassVar[str] = "discard"

    def __str__(self) -> str:
        return f"discard {self.card}"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "card": str(self.card)}


Action: TypeAlias = DrawStock | TakeDiscard | UndoTake | LayDown | LayOff | SwapJoker | Discard

ACTION_KINDS: Final = ("draw", "take", "undo", "lay", "off", "swap", "discard")


def parse_action(text: str) -> Action:
    """Parse an action as ``str(action)`` prints it; raises ``IllegalAction("bad_action")``."""
    words = text.split()
    if not words:
        raise _bad(text, "it is empty")
    verb, args = words[0].lower(), words[1:]
    try:
        return _parse(verb, args, text)
    except IllegalAction:
        raise
    except ValueError as error:
        raise _bad(text, str(error)) from None


def _parse(verb: str, args: list[str], text: str) -> Action:
    simple: dict[str, Action] = {"draw": DrawStock(), "take": TakeDiscard(), "undo": UndoTake()}
    if verb in simple:
        if args:
            raise _bad(text, f"'{verb}' takes nothing after it")
        return simple[verb]
    if verb == "lay":
        groups = " ".join(args).split("|")
        if not all(group.split() for group in groups):
            raise _bad(text, "every meld needs cards (separate melds with |)")
        return LayDown(parse_cards(group) for group in groups)
    if verb == "off":
        if len(args) not in (2, 3):
            raise _bad(text, "expected: off CARD MELD [low|high]")
        end = args[2].lower() if len(args) == 3 else None
        if end is not None and end not in _ENDS:
            raise _bad(text, "the end is 'low' or 'high'")
        return LayOff(Card.parse(args[0]), _index(args[1]), _end(end))
    if verb == "swap":
        if len(args) < 2:
            raise _bad(text, "expected: swap CARD [CARD] MELD")
        return SwapJoker(parse_cards(args[:-1]), _index(args[-1]))
    if verb == "discard":
        if len(args) != 1:
            raise _bad(text, "expected: discard CARD")
        return Discard(Card.parse(args[0]))
    raise _bad(text, f"unknown action {verb!r} (try {', '.join(ACTION_KINDS)})")


def _index(text: str) -> int:
    if not (text.isascii() and text.isdigit()):  # "²" is a digit to isdigit, not to int
        raise ValueError(f"a meld number is a whole number from 0, not {text!r}")
    return int(text)


def _end(text: str | None) -> End | None:
    if text == "low":
        return "low"
    if text == "high":
        return "high"
    return None


def _bad(text: str, why: str) -> IllegalAction:
    return IllegalAction(
        "bad_action",
        f"cannot read the action {text!r}: {why}",
        {"text": text, "why": why},
        variant="unreadable",
    )


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Inverse of ``action.to_dict()``; raises ``IllegalAction("bad_action")``."""
    try:
        return _from_dict(data)
    except IllegalAction:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise IllegalAction(
            "bad_action",
            f"not a valid action: {data!r} ({error})",
            {"data": repr(data), "why": str(error)},
            variant="invalid",
        ) from None


def _from_dict(data: Mapping[str, Any]) -> Action:
    kind = data["type"]
    if kind == "draw":
        return DrawStock()
    if kind == "take":
        return TakeDiscard()
    if kind == "undo":
        return UndoTake()
    if kind == "lay":
        return LayDown(_cards(meld) for meld in data["melds"])
    if kind == "off":
        end = data.get("end")
        if end is not None and end not in _ENDS:
            raise ValueError(f"bad end {end!r}")
        return LayOff(_card(data["card"]), _int(data["meld"]), _end(end))
    if kind == "swap":
        return SwapJoker(_cards(data["cards"]), _int(data["meld"]))
    if kind == "discard":
        return Discard(_card(data["card"]))
    raise ValueError(f"unknown action type {kind!r}")


def _card(value: Any) -> Card:
    if not isinstance(value, str):
        raise TypeError(f"a card is a string like '7H', not {value!r}")
    return Card.parse(value)


def _cards(values: Any) -> list[Card]:
    if isinstance(values, str):
        raise TypeError("cards are a list of strings")
    return [_card(value) for value in values]


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise TypeError(f"a meld index is an int from 0, not {value!r}")
    return value
