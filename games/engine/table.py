"""Melds on the table: laying cards off onto them and swapping their jokers.

These are the rules of docs/rules.md §6 on one meld, independent of whose turn it
is; the deal checks the turn (opened, last card, whose meld). Each rule has
two faces that must agree: an ``*_options`` function listing every move a
meld accepts (for legal move generation) and a function that applies one
move or raises ``IllegalAction`` saying why not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .actions import End, IllegalAction
from .cards import JOKER, STANDARD_CARDS, Card, format_cards
from .melds import ACE_HIGH, Meld, MeldKind
from .rulesets import Ruleset, SetJokerSwap

__all__ = ["TableMeld", "card_at", "lay_off", "lay_off_options", "swap_joker", "swap_options"]


def card_at(rank: int, suit_index: int) -> Card:
    """The card of ``rank`` (1-14, 14 being the ace) in the suit numbered ``suit_index``.

    Cards are numbered by ``code`` (suit index * 13 + rank - 1); indexing is
    much faster than ``Card(rank, suit)``, which hashes an enum.
    """
    return STANDARD_CARDS[suit_index * 13 + (rank - 1) % 13]


def _suit_index(meld: Meld) -> int:
    return next(card.code for card in meld.cards if card.suit is not None) // 13


def _missing(meld: Meld) -> list[Card]:
    """The real cards a set lacks, in suit order."""
    present = {card.code // 13 for card in meld.cards if card.suit is not None}
    return [card_at(meld.low, suit) for suit in range(4) if suit not in present]


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table: who laid it, the meld, and its physical card ids.

    ``ids[i]`` is the id of ``meld.cards[i]`` (laid-out order, runs low to high).
    """

    owner: int
    meld: Meld
    ids: tuple[int, ...]

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.meld.cards

    @property
    def kind(self) -> MeldKind:
        return self.meld.kind

    def __str__(self) -> str:
        return str(self.meld)


def lay_off_options(meld: Meld, ruleset: Ruleset) -> list[tuple[Card, End | None]]:
    """Every card that may join ``meld``, with the run end it goes to (None for sets)."""
    if meld.kind is MeldKind.SET:
        return _set_lay_offs(meld, ruleset)
    suit = _suit_index(meld)
    options: list[tuple[Card, End | None]] = []
    if meld.low > 1:
        options.append((card_at(meld.low - 1, suit), "low"))
        if meld.cards[0] is not JOKER:  # never two jokers side by side
            options.append((JOKER, "low"))
    high = meld.low + len(meld.cards) - 1
    if high < ACE_HIGH:
        options.append((card_at(high + 1, suit), "high"))
        if meld.cards[-1] is not JOKER:
            options.append((JOKER, "high"))
    return options


def _set_lay_offs(meld: Meld, ruleset: Ruleset) -> list[tuple[Card, End | None]]:
    if len(meld.cards) >= 4:
        return []
    options: list[tuple[Card, End | None]] = [(card, None) for card in _missing(meld)]
    if meld.cards.count(JOKER) < ruleset.max_jokers_in_set:
        options.append((JOKER, None))
    return options


def lay_off(meld: Meld, card: Card, end: End | None, ruleset: Ruleset) -> tuple[Meld, End | None]:
    """The meld with ``card`` added, and the run end it went to (None for a set).

    ``end=None`` puts a card that fits both ends of a run at the high end.
    """
    ends = [where for option, where in lay_off_options(meld, ruleset) if option is card]
    if not ends:
        raise IllegalAction(
            "does_not_fit",
            f"{card} does not fit {_describe(meld)}",
            {"card": str(card), "meld": str(meld)},
            variant=_KIND_VARIANTS[meld.kind],
        )
    if meld.kind is MeldKind.SET:
        return Meld(MeldKind.SET, (*meld.cards, card), meld.low, None), None
    if end is None:
        end = "high" if "high" in ends else "low"
    elif end not in ends:
        raise IllegalAction(
            "does_not_fit",
            f"{card} fits only the {ends[0]} end of {_describe(meld)}",
            {"card": str(card), "meld": str(meld)},
            variant=_ONE_END_VARIANTS[ends[0]],
        )
    if end == "low":
        return Meld(MeldKind.RUN, (card, *meld.cards), meld.low - 1, meld.suit), end
    return Meld(MeldKind.RUN, (*meld.cards, card), meld.low, meld.suit), end


def swap_options(meld: Meld, ruleset: Ruleset) -> list[tuple[Card, ...]]:
    """Every choice of real card(s) that frees a joker of ``meld`` (docs/rules.md §6)."""
    if JOKER not in meld.cards:
        return []
    if meld.kind is MeldKind.RUN:
        suit = _suit_index(meld)
        return [
            (card_at(meld.low + index, suit),)
            for index, card in enumerate(meld.cards)
            if card is JOKER
        ]
    missing = _missing(meld)
    if len(meld.cards) >= 4:
        return [(card,) for card in missing] if ruleset.set_of_four_joker_swap else []
    rule = ruleset.set_of_three_joker
    if rule is SetJokerSwap.SWAP_ONE:
        return [(card,) for card in missing]
    if rule is SetJokerSwap.SWAP_BOTH:
        return [tuple(missing)]
    return []


def swap_joker(meld: Meld, cards: Sequence[Card], ruleset: Ruleset) -> tuple[Meld, int]:
    """The meld after ``cards`` replace a joker, and the index the joker had.

    A second card (the polish51 set rule) is added after the first.
    """
    if JOKER not in meld.cards:
        raise IllegalAction(
            "no_joker",
            f"there is no joker in {_describe(meld)}",
            {"meld": str(meld)},
            variant=_KIND_VARIANTS[meld.kind],
        )
    options = swap_options(meld, ruleset)
    if not options:
        raise _why_no_swap(meld)
    given = sorted(cards)
    if not any(sorted(option) == given for option in options):
        raise _why_not_these(meld, cards, options, ruleset)
    index = _joker_index(meld, cards[0])
    laid = list(meld.cards)
    laid[index] = cards[0]
    laid.extend(cards[1:])
    return Meld(meld.kind, tuple(laid), meld.low, meld.suit), index


def _joker_index(meld: Meld, card: Card) -> int:
    for index, laid in enumerate(meld.cards):
        if laid is JOKER and (meld.kind is MeldKind.SET or meld.stands_for(index) is card):
            return index
    raise AssertionError("swap_options promised a joker for this card")


def _why_no_swap(meld: Meld) -> IllegalAction:
    params = {"meld": str(meld)}
    if len(meld.cards) >= 4:
        return IllegalAction(
            "joker_swap_not_allowed",
            f"the set {meld} is closed: its joker cannot be taken",
            params,
            variant="closed_set",
        )
    return IllegalAction(
        "joker_swap_not_allowed",
        f"in the set {meld} a card only joins the set; the joker stays (lay the card off)",
        params,
        variant="joker_stays",
    )


def _why_not_these(
    meld: Meld, cards: Sequence[Card], options: list[tuple[Card, ...]], ruleset: Ruleset
) -> IllegalAction:
    wanted = " or ".join(format_cards(option) for option in options)
    # The options without the English "or" between them, for other languages.
    options_text = " / ".join(format_cards(option) for option in options)
    params = {"meld": str(meld), "options": options_text, "given": format_cards(cards)}
    if (
        meld.kind is MeldKind.SET
        and len(meld.cards) == 3
        and ruleset.set_of_three_joker is SetJokerSwap.SWAP_BOTH
    ):
        return IllegalAction(
            "does_not_fit",
            f"the joker of {meld} is freed only by both missing suits at once: {wanted}",
            params,
            variant="both_suits",
        )
    return IllegalAction(
        "does_not_fit",
        f"{format_cards(cards)} does not replace the joker of {meld}: give {wanted}",
        params,
        variant="swap",
    )


# Which message of a code is meant, named for the interfaces that say it in other words.
_KIND_VARIANTS: dict[MeldKind, str] = {MeldKind.RUN: "run", MeldKind.SET: "set"}
_ONE_END_VARIANTS: dict[End | None, str] = {
    "low": "run_low_end_only",
    "high": "run_high_end_only",
}


def _describe(meld: Meld) -> str:
    return f"the {meld.kind.value} {meld}"
