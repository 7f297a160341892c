"""What several browser tests of the table share: the scripted hands and how many
cards the bot holds."""

from __future__ import annotations

from games.models import Game
from tests.gamekit import current_engine_deal

# polish51: 13 cards, the starter draws first. Two melds open (7-8-9-10♥ = 34,
# Q♠ Q♦ Q♣ = 30: 64), the kings are a set for after, 2♦ 5♣ 9♠ are loose.
OPENING_HAND = "7H 8H 9H 10H QS QD QC KS KD KC 2D 5C 9S"
# serbian: the starter gets 15 cards and plays without drawing.
SERBIAN_HAND = "7H 8H 9H QS QD QC 2C 3C 4C JK 5D KS 10H AS JK"


def bot_cards() -> int:
    """How many cards the bot (seat 1 of the only game) holds now, from the server's
    state."""
    game = Game.objects.get()
    deal = current_engine_deal(game)
    return len(deal.hand_ids(1))
