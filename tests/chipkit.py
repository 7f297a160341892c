"""A polish51 deal that ends in a normal close after one round, for the chip tests: the
starter opens in their first turn and goes out in their second, so every other seat
scores what it holds. The seat after the starter holds 34 points (below 50: it shares
the pot), the one after it 121, any fourth seat cards from a seeded shuffle."""

from __future__ import annotations

import random
from collections.abc import Callable

from games.engine import Card, Ruleset, full_pack, parse_cards

STARTER = "7H 8H 9H 10H QS QD QC KS KD KC 2D 3D 4D"
LOW = "2C 2C 2H 2H 2S 2S 3C 3C 3H 3H 3S 3S 4C"  # 34 points
HIGH = "KH KH QH QH JH JH 10S 10S 9C 9C 8C 8C 7C"  # 121 points
UPCARD = "6S"
# The starter's first draw, then each other seat's (thrown away at once), then the
# starter's second.
FIRST_DRAW, OTHERS_DRAWS, LAST_DRAW = "5C", ["AS", "AC", "AH"], "9S"


def normal_close_decks(seed: int = 3) -> Callable[[Ruleset, int, int], list[Card]]:
    """``decks(ruleset, players, dealer)`` for ``gamekit.scripted_deal_source``."""

    def decks(ruleset: Ruleset, players: int, dealer: int) -> list[Card]:
        hands = [parse_cards(hand) for hand in (STARTER, LOW, HIGH)][:players]
        top = parse_cards([UPCARD, FIRST_DRAW, *OTHERS_DRAWS[: players - 1], LAST_DRAW])
        rest = full_pack(ruleset.jokers)
        for card in [*(card for hand in hands for card in hand), *top]:
            rest.remove(card)
        random.Random(seed).shuffle(rest)
        while len(hands) < players:
            hands.append([rest.pop() for _ in range(ruleset.hand_size)])
        dealt = [hands[k][i] for i in range(ruleset.hand_size) for k in range(players)]
        return dealt + top + rest

    return decks


def normal_close_turns(players: int) -> list[tuple[int, str]]:
    """The round that ends the deal: (seat counted from the starter, action)."""
    turns = [
        (0, "draw"),
        (0, "lay 7H 8H 9H 10H | QS QD QC | KS KD KC"),
        (0, f"discard {FIRST_DRAW}"),
    ]
    for k in range(1, players):
        turns += [(k, "draw"), (k, f"discard {OTHERS_DRAWS[k - 1]}")]
    return [*turns, (0, "draw"), (0, "lay 2D 3D 4D"), (0, f"discard {LAST_DRAW}")]
