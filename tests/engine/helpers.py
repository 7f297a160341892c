"""Helpers for the engine tests: positions and moves written as text."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from games.engine import PRESETS, Card, Deal, IllegalAction, parse_action, parse_cards
from games.engine.rulesets import SERBIAN_OLD_REMI, Ruleset

MACEDONIAN = PRESETS["macedonian"]
SERBIAN = PRESETS["serbian"]
POLISH51 = PRESETS["polish51"]
OLD_REMI = SERBIAN_OLD_REMI
ALL_RULESETS = (MACEDONIAN, SERBIAN, POLISH51, OLD_REMI)


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def position(
    ruleset: Ruleset,
    *hands: str,
    stock: str = "5D",
    discard: str = "",
    table: Sequence[tuple[int, str]] = (),
    **options: Any,
) -> Deal:
    """``Deal.from_position`` with every card list written as text."""
    return Deal.from_position(
        ruleset,
        hands=[cards(hand) for hand in hands],
        stock=cards(stock),
        discard=cards(discard),
        table=[(owner, cards(meld)) for owner, meld in table],
        **options,
    )


def play(deal: Deal, *moves: str) -> Deal:
    """Apply moves typed as text (``"lay 7H 8H 9H"``, ``"discard 5C"``, ...)."""
    for move in moves:
        deal = deal.apply(parse_action(move))
    return deal


def refused(deal: Deal, move: str) -> IllegalAction:
    """The ``IllegalAction`` that ``move`` raises."""
    with pytest.raises(IllegalAction) as caught:
        deal.apply(parse_action(move))
    return caught.value


def texts(actions: Iterable[object]) -> list[str]:
    return [str(action) for action in actions]
