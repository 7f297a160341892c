"""What cards are worth: meld values toward the opening (docs/rules.md §4) and
penalties for cards left in hand (§8)."""

from __future__ import annotations

from collections.abc import Iterable

from .cards import ACE, Card
from .melds import ACE_HIGH, Meld, MeldKind
from .rulesets import Ruleset

__all__ = ["card_penalty", "hand_penalty", "meld_value", "position_value"]


def position_value(rank: int, ruleset: Ruleset) -> int:
    """Opening value of a meld position of ``rank`` (1 ace low … 14 ace high)."""
    if rank == ACE:
        return ruleset.ace_low_value
    if rank == ACE_HIGH:
        return ruleset.ace_high_value
    return rank if rank < 10 else 10


def meld_value(meld: Meld, ruleset: Ruleset) -> int:
    """The meld's value toward the 51 opening; a joker is worth what it stands for."""
    if meld.kind is MeldKind.SET:
        rank = ACE_HIGH if meld.low == ACE else meld.low
        return position_value(rank, ruleset) * len(meld.cards)
    high = meld.low + len(meld.cards) - 1
    total = sum(position_value(rank, ruleset) for rank in range(meld.low, high + 1))
    royal = ruleset.royal_run_ace_value
    if royal is not None and high == ACE_HIGH and meld.low <= 10:
        total += royal - ruleset.ace_high_value
    return total


def card_penalty(card: Card, ruleset: Ruleset) -> int:
    if card.suit is None:
        return ruleset.penalty_joker
    if card.rank == ACE:
        return ruleset.penalty_ace
    return card.rank if card.rank < 10 else 10


def hand_penalty(cards: Iterable[Card], ruleset: Ruleset) -> int:
    """Penalty of the cards left in a hand at the end of a deal."""
    return sum(card_penalty(card, ruleset) for card in cards)
