"""A small command line for the rules engine.

    python -m games.engine check "AH 2H JK 4H" --rules serbian
    python -m games.engine score "KH JK 7S"
    python -m games.engine opening "10H JH QH KH JK 5C 6C 7C" --keep 1
    python -m games.engine partition "5C 6C 7C 5S 5D JK"
    python -m games.engine presets

Cards are written as in docs/rules.md §1 (``AS 10H TH 7♥ JK``). ``check`` exits
with 1 when the cards are not a meld; bad input exits with 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Sequence
from enum import Enum
from typing import TextIO

from .cards import Card, format_cards, parse_cards
from .melds import IllegalMeld, Meld, arrange_meld
from .rulesets import PRESETS, FinishScoring, Ruleset
from .solver import best_opening, best_partition, remaining_cards
from .values import card_penalty, hand_penalty, meld_value

RULESETS: dict[str, Ruleset] = dict(PRESETS)
DEFAULT_RULES = "macedonian"


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    out = out or sys.stdout
    if args.command == "presets":
        _presets(out)
        return 0
    ruleset = RULESETS[args.rules]
    try:
        cards = parse_cards(args.cards)
    except ValueError as error:
        parser.error(str(error))  # exits with status 2, no traceback
    try:
        if args.command == "check":
            return _check(cards, ruleset, laid_down=not args.table, out=out)
        if args.command == "score":
            return _score(cards, ruleset, out)
        if args.command == "opening":
            return _opening(cards, ruleset, args.keep, out)
        return _partition(cards, ruleset, out)
    except ValueError as error:  # e.g. three copies of a card for the solver
        parser.error(str(error))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine",
        description="Check melds, score hands and find the best opening (Remi rules engine).",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help_text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.add_argument("cards", help='cards, e.g. "AH 2H JK 4H" (T for 10, ♠♥♦♣ accepted)')
        sub.add_argument(
            "--rules",
            choices=sorted(RULESETS),
            default=DEFAULT_RULES,
            help=f"ruleset (default: {DEFAULT_RULES})",
        )
        return sub

    check = command(
        "check",
        "say whether the cards form a meld (in any order, laid out as a lay-down "
        "would), its kind and its value",
    )
    check.add_argument(
        "--table",
        action="store_true",
        help="check as a meld grown on the table (serbian runs may hold more jokers)",
    )
    command("score", "the penalty of cards left in hand at the end of a deal")
    opening = command("opening", "the melds with the largest opening value")
    opening.add_argument(
        "--keep", type=int, default=0, help="leave at least this many cards in hand (default 0)"
    )
    command("partition", "the melds that leave the least penalty in hand")
    commands.add_parser("presets", help="print every rule of every preset")
    return parser


def _describe(meld: Meld, ruleset: Ruleset) -> str:
    text = f"{meld.kind.value:<4} {meld}  value {meld_value(meld, ruleset)}"
    jokers = [
        f"JK={stands}"
        for index, card in enumerate(meld.cards)
        if card.suit is None and (stands := meld.stands_for(index)) is not None
    ]
    return text + (f"  ({', '.join(jokers)})" if jokers else "")


def _check(cards: list[Card], ruleset: Ruleset, *, laid_down: bool, out: TextIO) -> int:
    try:
        meld = arrange_meld(cards, ruleset, laid_down=laid_down)
    except IllegalMeld as error:
        print(f"not a meld [{error.code}]: {error}", file=out)
        return 1
    print(_describe(meld, ruleset), file=out)
    return 0


def _score(cards: list[Card], ruleset: Ruleset, out: TextIO) -> int:
    parts = " + ".join(f"{card} {card_penalty(card, ruleset)}" for card in cards)
    print(f"{parts} = {hand_penalty(cards, ruleset)}" if cards else "0", file=out)
    return 0


def _opening(cards: list[Card], ruleset: Ruleset, keep: int, out: TextIO) -> int:
    melds = best_opening(cards, ruleset, keep=keep)
    total = sum(meld_value(meld, ruleset) for meld in melds)
    for meld in melds:
        print(_describe(meld, ruleset), file=out)
    reaches = "reaches" if total >= ruleset.opening_minimum else "does not reach"
    print(f"total {total}: {reaches} the {ruleset.opening_minimum} to open", file=out)
    print(f"left in hand: {format_cards(remaining_cards(cards, melds)) or '-'}", file=out)
    return 0


def _partition(cards: list[Card], ruleset: Ruleset, out: TextIO) -> int:
    melds = best_partition(cards, ruleset)
    for meld in melds:
        print(_describe(meld, ruleset), file=out)
    left = remaining_cards(cards, melds)
    print(f"left in hand: {format_cards(left) or '-'}", file=out)
    print(f"penalty left: {hand_penalty(left, ruleset)}", file=out)
    return 0


def _presets(out: TextIO) -> None:
    for name, ruleset in RULESETS.items():
        print(f"[{name}]", file=out)
        for field in dataclasses.fields(ruleset):
            print(f"  {field.name} = {_show(getattr(ruleset, field.name))}", file=out)


def _show(value: object) -> str:
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, FinishScoring):
        return ", ".join(f"{key}={item}" for key, item in dataclasses.asdict(value).items())
    return str(value)


if __name__ == "__main__":
    sys.exit(main())
