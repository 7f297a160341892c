"""Melds: runs and sets, and the check that says whether cards form one.

A run's cards are kept in laid-out order, low to high; a joker stands for the
card its position implies. Ranks of run positions go from 1 (ace low) to 14
(ace high). A set's joker stands for "a missing suit".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Final

from .cards import ACE, JOKER, Card, Suit, format_cards
from .rulesets import Ruleset

__all__ = [
    "ACE_HIGH",
    "IllegalMeld",
    "Meld",
    "MeldKind",
    "arrange_meld",
    "check_meld",
    "meld_as_laid",
]

ACE_HIGH: Final = 14


class MeldKind(Enum):
    RUN = "run"
    SET = "set"


class IllegalMeld(ValueError):
    """Cards that do not form a meld. ``code`` is stable and machine-readable.

    ``params`` hold the values formatted into the English message, and ``shown``
    (the cards as text) when the cards follow it; ``variant`` names which of a
    code's messages it is.
    """

    def __init__(
        self,
        code: str,
        message: str,
        cards: Sequence[Card] = (),
        params: Mapping[str, str | int] | None = None,
        *,
        variant: str = "",
    ) -> None:
        shown = f" ({format_cards(cards)})" if cards else ""
        super().__init__(message + shown)
        self.code = code
        self.cards = tuple(cards)
        self.params: dict[str, str | int] = dict(params or {})
        if cards:
            self.params["shown"] = format_cards(cards)
        self.variant = variant


class Meld:
    """A valid run or set. Build one with ``check_meld``.

    ``low`` is the rank of a run's first position (1-12) and ``suit`` its
    suit; for a set ``low`` is its rank and ``suit`` is None.
    """

    __slots__ = ("cards", "kind", "low", "suit")

    kind: MeldKind
    cards: tuple[Card, ...]
    low: int
    suit: Suit | None

    def __init__(self, kind: MeldKind, cards: tuple[Card, ...], low: int, suit: Suit | None):
        self.kind = kind
        self.cards = cards
        self.low = low
        self.suit = suit

    @property
    def is_run(self) -> bool:
        return self.kind is MeldKind.RUN

    @property
    def high(self) -> int:
        """The rank of a run's last position (14 is ace high); a set's rank."""
        return self.low + len(self.cards) - 1 if self.kind is MeldKind.RUN else self.low

    @property
    def jokers(self) -> int:
        return sum(1 for card in self.cards if card.suit is None)

    @property
    def missing_suits(self) -> frozenset[Suit]:
        """The suits a set lacks among its real cards (empty for a run)."""
        if self.kind is MeldKind.RUN:
            return frozenset()
        return frozenset(Suit) - {card.suit for card in self.cards if card.suit is not None}

    def position_ranks(self) -> list[int]:
        """The rank each card stands for (a set's joker: the set's rank)."""
        if self.kind is MeldKind.SET:
            return [self.low] * len(self.cards)
        return list(range(self.low, self.low + len(self.cards)))

    def stands_for(self, index: int) -> Card | None:
        """The real card at position ``index`` would be; None for a set's joker."""
        if self.kind is MeldKind.SET:
            card = self.cards[index]
            return None if card.suit is None else card
        rank = self.low + index
        assert self.suit is not None
        return Card(ACE if rank == ACE_HIGH else rank, self.suit)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Meld) and self.kind is other.kind and self.cards == other.cards

    def __hash__(self) -> int:
        return hash((self.kind, self.cards))

    def __str__(self) -> str:
        return format_cards(self.cards)

    def __repr__(self) -> str:
        return f"<Meld {self.kind.value} {self}>"


def check_meld(cards: Sequence[Card], ruleset: Ruleset, *, laid_down: bool = True) -> Meld:
    """Return the meld ``cards`` form, or raise ``IllegalMeld`` saying why.

    ``laid_down`` applies the joker limits of a meld put down from the hand;
    with ``laid_down=False`` the limits of a meld grown on the table by
    lay-offs apply (docs/rules.md §3: serbian runs take more jokers only later).
    Cards of a run without jokers may come in any order; with jokers they
    must be in laid-out order (low to high, or high to low), which is read as
    given. A player's lay-down reads cards in any order with ``arrange_meld``.
    """
    count = len(cards)
    if count < 3:
        raise IllegalMeld("too_short", "a meld needs at least 3 cards", cards)
    reals = [card for card in cards if card.suit is not None]
    if not reals:
        raise IllegalMeld("only_jokers", "a meld needs at least one real card", cards)
    first = reals[0]
    if len(reals) > 1 and all(card.rank == first.rank for card in reals):
        return _check_set(tuple(cards), reals, ruleset)
    if all(card.suit is first.suit for card in reals):
        try:
            return _check_run(tuple(cards), reals, ruleset, laid_down)
        except IllegalMeld as error:
            if error.code != "not_consecutive" or len(reals) == len(cards):
                raise
            # A run given high to low (KH QH JK 10H) reads the same once reversed.
            try:
                return _check_run(tuple(reversed(cards)), reals, ruleset, laid_down)
            except IllegalMeld:
                raise error from None
    raise IllegalMeld("mixed_suits", "a run must be of one suit and a set of one rank", cards)


def arrange_meld(cards: Sequence[Card], ruleset: Ruleset, *, laid_down: bool = True) -> Meld:
    """The meld ``cards`` form in whatever order they come, or ``IllegalMeld`` saying why.

    This is how a lay-down reads a player's cards (docs/rules.md §3). A player picks
    cards from a hand in any order; the meld is laid out with its jokers filling the
    gaps. A joker that could stand at either end of a run goes to the high end,
    unless the player holds it leftmost of the cards laid: then it starts the run
    (``6C 5C JK`` is ``5C 6C JK``, the joker a 7; ``JK 6C 5C`` is ``JK 5C 6C``, a 4).
    Cards already in laid-out order, low to high, stay as they are: that order says
    where every joker goes.
    """
    reals = [card for card in cards if card.suit is not None]
    jokers = len(cards) - len(reals)
    same_rank = len(reals) > 1 and len({card.rank for card in reals}) == 1
    if not jokers or not reals or same_rank or len({card.suit for card in reals}) > 1:
        # The order of a set, or of a run without jokers, never matters.
        return check_meld(cards, ruleset, laid_down=laid_down)
    given = _as_laid(tuple(cards))
    if given is not None:
        try:
            return check_meld(given.cards, ruleset, laid_down=laid_down)
        except IllegalMeld:
            pass  # e.g. JK JK 5C 6C: the jokers touch here but not in JK 5C 6C JK
    layouts: list[Meld] = []
    found: IllegalMeld | None = None
    for low in range(1, ACE_HIGH - len(cards) + 2):
        laid = _lay_out(reals, jokers, low)
        if laid is None:
            continue
        try:
            layouts.append(check_meld(laid, ruleset, laid_down=laid_down))
        except IllegalMeld as error:
            # Too many jokers is the reason whatever the order; say that before
            # "side by side", which another spread of the same cards may not meet.
            if found is None or error.code == "too_many_jokers":
                found = error
    if layouts:
        return layouts[0] if cards[0].suit is None else layouts[-1]
    if found is not None:
        raise found
    return check_meld(cards, ruleset, laid_down=laid_down)  # raises: no layout fits


def meld_as_laid(cards: Sequence[Card], ruleset: Ruleset, *, laid_down: bool = False) -> Meld:
    """The meld of ``cards`` in exactly the order given (a run low to high), or
    ``IllegalMeld``: how a meld already on the table is read back.

    ``check_meld`` reads a run without jokers in any order and lays it out afresh,
    so ``2C … KC AC`` (an ace laid off high) would come back as ``AC 2C … KC``;
    here an order that is a valid arrangement is kept.
    """
    meld = check_meld(cards, ruleset, laid_down=laid_down)
    laid = tuple(cards)
    if meld.cards == laid:
        return meld
    kept = _as_laid(laid) if meld.kind is MeldKind.RUN else None
    if kept is None:
        raise IllegalMeld("not_laid_out", "a run on the table must be laid out low to high", laid)
    return kept


def _as_laid(cards: tuple[Card, ...]) -> Meld | None:
    """The run ``cards`` are in this very order (low to high), if they are one.

    Only the positions are checked: the caller checks the joker rules."""
    reals = [card for card in cards if card.suit is not None]
    if not reals or len({card.suit for card in reals}) > 1:
        return None
    index = next(i for i, card in enumerate(cards) if card.suit is not None)
    rank = cards[index].rank
    starts = [rank - index] if rank != ACE else [1 - index, ACE_HIGH - index]
    for low in starts:
        if low >= 1 and low + len(cards) - 1 <= ACE_HIGH and _fits(cards, low):
            return Meld(MeldKind.RUN, cards, low, reals[0].suit)
    return None


def _lay_out(reals: list[Card], jokers: int, low: int) -> tuple[Card, ...] | None:
    """The run from rank ``low`` holding ``reals`` where they belong and jokers in the
    other places; None when a real card has no place in it."""
    slots: list[Card | None] = [None] * (len(reals) + jokers)
    for card in reals:
        ranks = (1, ACE_HIGH) if card.rank == ACE else (card.rank,)
        free = [rank - low for rank in ranks if 0 <= rank - low < len(slots)]
        free = [index for index in free if slots[index] is None]
        if not free:
            return None
        slots[free[0]] = card
    return tuple(JOKER if card is None else card for card in slots)


def _check_set(cards: tuple[Card, ...], reals: list[Card], ruleset: Ruleset) -> Meld:
    if len(cards) > 4:
        raise IllegalMeld("too_long", "a set has at most 4 cards", cards)
    jokers = len(cards) - len(reals)
    if jokers > ruleset.max_jokers_in_set:
        raise IllegalMeld(
            "too_many_jokers",
            f"a set may hold at most {ruleset.max_jokers_in_set} "
            f"{'joker' if ruleset.max_jokers_in_set == 1 else 'jokers'}",
            cards,
            {"limit": ruleset.max_jokers_in_set},
            variant="set",
        )
    if len({card.suit for card in reals}) != len(reals):
        raise IllegalMeld("duplicate_suit", "a set's cards must all be of different suits", cards)
    return Meld(MeldKind.SET, cards, reals[0].rank, None)


def _check_run(
    cards: tuple[Card, ...], reals: list[Card], ruleset: Ruleset, laid_down: bool
) -> Meld:
    jokers = len(cards) - len(reals)
    suit = reals[0].suit
    if jokers == 0:
        return _check_plain_run(cards, suit)
    previous_joker = False
    for card in cards:
        is_joker = card.suit is None
        if is_joker and previous_joker:
            raise IllegalMeld("adjacent_jokers", "two jokers may not stand side by side", cards)
        previous_joker = is_joker
    limit = ruleset.max_jokers_in_run_laid
    if laid_down and limit is not None and jokers > limit:
        raise IllegalMeld(
            "too_many_jokers",
            f"a run is laid down with at most {limit} {'joker' if limit == 1 else 'jokers'}",
            cards,
            {"limit": limit},
            variant="run",
        )
    index = next(i for i, card in enumerate(cards) if card.suit is not None)
    rank = cards[index].rank
    starts = [rank - index] if rank != ACE else [1 - index, ACE_HIGH - index]
    wrapped = False
    for low in starts:
        if _fits(cards, low):
            if low >= 1 and low + len(cards) - 1 <= ACE_HIGH:
                return Meld(MeldKind.RUN, cards, low, suit)
            wrapped = True
        elif _fits_cyclically(cards, low):
            wrapped = True
    if wrapped:
        raise IllegalMeld("wrap_around", "a run may not go round the corner (K-A-2)", cards)
    raise IllegalMeld(
        "not_consecutive",
        "a run's cards must be consecutive, in laid-out order when it holds a joker",
        cards,
        variant="with_joker",
    )


def _fits(cards: tuple[Card, ...], low: int) -> bool:
    for offset, card in enumerate(cards):
        if card.suit is None:
            continue
        rank = low + offset
        if card.rank != rank and not (card.rank == ACE and rank == ACE_HIGH):
            return False
    return True


def _fits_cyclically(cards: tuple[Card, ...], low: int) -> bool:
    return all(
        card.suit is None or (card.rank - low - offset) % 13 == 0
        for offset, card in enumerate(cards)
    )


def _check_plain_run(cards: tuple[Card, ...], suit: Suit | None) -> Meld:
    aces = [card for card in cards if card.rank == ACE]
    others = sorted((card for card in cards if card.rank != ACE), key=lambda card: card.rank)
    middle = [card.rank for card in others]
    if len(aces) == 2 and middle == list(range(2, 14)):  # A 2 … K A, the longest run
        return Meld(MeldKind.RUN, (aces[0], *others, aces[1]), ACE, suit)
    if len(aces) < 2 and _consecutive(middle):
        if not aces:
            return Meld(MeldKind.RUN, tuple(others), middle[0], suit)
        if not middle or middle[0] == 2:
            return Meld(MeldKind.RUN, (aces[0], *others), ACE, suit)
        if middle[-1] == 13:
            return Meld(MeldKind.RUN, (*others, aces[0]), middle[0], suit)
    if aces and 2 in middle and 13 in middle and len(set(middle)) == len(middle):
        raise IllegalMeld("wrap_around", "a run may not go round the corner (K-A-2)", cards)
    raise IllegalMeld("not_consecutive", "a run's cards must be consecutive", cards)


def _consecutive(ranks: list[int]) -> bool:
    return all(b - a == 1 for a, b in zip(ranks, ranks[1:], strict=False))
