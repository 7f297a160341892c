"""Cards, suits and the two-deck pack.

Cards are interned values: ``Card.parse("7H") is Card.parse("7H")``, so they
compare and hash by identity, which keeps the solver and meld checks fast.
Twins (two physical 7♥) are the same ``Card``; a deal tells physical cards
apart by their position, never by the value.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import Final

__all__ = [
    "ACE",
    "JACK",
    "JOKER",
    "KING",
    "QUEEN",
    "RANKS",
    "Card",
    "Suit",
    "format_cards",
    "full_pack",
    "parse_cards",
]


class Suit(Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]


_SYMBOLS: Final = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_BY_TEXT: Final = {
    **{suit.value: suit for suit in Suit},
    **{symbol: suit for suit, symbol in _SYMBOLS.items()},
}

ACE: Final = 1
JACK: Final = 11
QUEEN: Final = 12
KING: Final = 13
RANKS: Final = tuple(range(ACE, KING + 1))
_RANK_TEXT: Final = {ACE: "A", JACK: "J", QUEEN: "Q", KING: "K"} | {
    rank: str(rank) for rank in range(2, 11)
}
_RANK_BY_TEXT: Final = {text: rank for rank, text in _RANK_TEXT.items()} | {"T": 10, "1": ACE}


class Card:
    """One card value: a rank and suit, or the joker.

    ``rank`` is 1 (ace) to 13 (king), and 0 for the joker, whose ``suit`` is
    None. Instances are unique per value; build them with ``Card(rank, suit)``,
    ``Card.parse(text)`` or the ``JOKER`` constant.
    """

    __slots__ = ("_text", "code", "rank", "suit")

    rank: int
    suit: Suit | None
    code: int
    _text: str

    def __new__(cls, rank: int, suit: Suit | None = None) -> Card:
        try:
            return _INTERNED[(rank, suit)]
        except KeyError:
            raise ValueError(f"no such card: rank={rank!r} suit={suit!r}") from None

    @classmethod
    def _make(cls, rank: int, suit: Suit | None, code: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "code", code)
        text = "JK" if suit is None else _RANK_TEXT[rank] + suit.value
        object.__setattr__(card, "_text", text)
        return card

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``AS``, ``10H``, ``TH``, ``7♥``, ``JK`` (case-insensitive)."""
        # Snapshots hold a hundred cards in canonical form: look those up first.
        card = _BY_TEXT.get(text)
        if card is not None:
            return card
        token = text.strip().upper()
        if token in ("JK", "JOKER", "*"):
            return JOKER
        suit = _SUIT_BY_TEXT.get(token[-1:])
        rank = _RANK_BY_TEXT.get(token[:-1])
        if suit is None or rank is None:
            raise ValueError(f"not a card: {text!r} (expected e.g. AS, 10H, TH, 7♥ or JK)")
        return _INTERNED[(rank, suit)]

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[int, Suit | None]]:
        return (Card, (self.rank, self.suit))

    def __lt__(self, other: Card) -> bool:
        return self.code < other.code

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card.parse({self._text!r})"


# Sort order (``code``): by suit S H D C, then rank A..K; the joker sorts last.
_INTERNED: dict[tuple[int, Suit | None], Card] = {}
for _suit_index, _suit in enumerate(Suit):
    for _rank in RANKS:
        _INTERNED[(_rank, _suit)] = Card._make(_rank, _suit, _suit_index * 13 + _rank - 1)
JOKER: Final = Card._make(0, None, 52)
_INTERNED[(0, None)] = JOKER
_BY_TEXT: Final = {str(card): card for card in _INTERNED.values()}

STANDARD_CARDS: Final = tuple(card for card in _INTERNED.values() if not card.is_joker)


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse ``"AS 10H JK QD"`` (or a list of tokens) into cards.

    Commas are accepted as separators too.
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(token) for token in tokens]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in cards)


def full_pack(jokers: int) -> list[Card]:
    """Two 52-card decks plus ``jokers`` jokers, in a fixed (unshuffled) order."""
    return [*STANDARD_CARDS, *STANDARD_CARDS, *([JOKER] * jokers)]
