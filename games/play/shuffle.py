"""The randomness of a game: the shuffle of each deal and the draw for seats.

Tests replace these functions (``monkeypatch.setattr(shuffle, "deal_source", ...)``)
to get seeded or scripted deals; the commands look them up here at each call.
"""

from __future__ import annotations

import secrets

from games.engine import Deal as EngineDeal
from games.engine import Match, Ruleset
from games.engine.seating import SeatingDraw, draw_cards


def deal_source(ruleset: Ruleset, players: int, *, dealer: int | None, number: int) -> EngineDeal:
    """Shuffle and deal deal ``number`` of a match with the OS's randomness (``secrets``).

    ``dealer`` is None for the first deal: the engine's ``Match`` decides who deals
    it (the last seat, or a random one where the ruleset draws for the start).
    Tests replace this function to get seeded or scripted deals.
    """
    rng = secrets.SystemRandom()
    if dealer is None:
        return Match.new(ruleset, players, rng=rng).deal
    return EngineDeal.new(ruleset, players, dealer=dealer, rng=rng)


def seating_source(players: int) -> SeatingDraw:
    """Draw a card for each player (``secrets``), ties again, where the ruleset seats
    players by drawn cards. Tests replace this function to script the draw."""
    return SeatingDraw.from_draws(draw_cards(players, secrets.SystemRandom()))
