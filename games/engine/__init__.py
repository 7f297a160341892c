"""The Remi rules engine: pure Python, no Django, no I/O, no clock, no global random.

docs/rules.md is its specification. Everything a service, bot, test or outside
tool needs is importable from here.
"""

from .actions import (
    Action,
    Discard,
    DrawStock,
    IllegalAction,
    LayDown,
    LayOff,
    SwapJoker,
    TakeDiscard,
    UndoTake,
    action_from_dict,
    parse_action,
)
from .cards import JOKER, Card, Suit, format_cards, full_pack, parse_cards
from .deal import Deal
from .events import Event
from .match import Match
from .melds import IllegalMeld, Meld, MeldKind, arrange_meld, check_meld, meld_as_laid
from .rulesets import PRESETS, DiscardTake, FinishScoring, Ruleset, SetJokerSwap, StarterChoice
from .scoring import DealResult
from .solver import best_opening, best_partition, candidate_melds, opening_for_turn, remaining_cards
from .table import TableMeld
from .values import card_penalty, hand_penalty, meld_value
from .view import SeatView

__all__ = [
    "JOKER",
    "PRESETS",
    "Action",
    "Card",
    "Deal",
    "DealResult",
    "Discard",
    "DiscardTake",
    "DrawStock",
    "Event",
    "FinishScoring",
    "IllegalAction",
    "IllegalMeld",
    "LayDown",
    "LayOff",
    "Match",
    "Meld",
    "MeldKind",
    "Ruleset",
    "SeatView",
    "SetJokerSwap",
    "StarterChoice",
    "Suit",
    "SwapJoker",
    "TableMeld",
    "TakeDiscard",
    "UndoTake",
    "action_from_dict",
    "arrange_meld",
    "best_opening",
    "best_partition",
    "candidate_melds",
    "card_penalty",
    "check_meld",
    "format_cards",
    "full_pack",
    "hand_penalty",
    "meld_as_laid",
    "meld_value",
    "opening_for_turn",
    "parse_action",
    "parse_cards",
    "remaining_cards",
]
