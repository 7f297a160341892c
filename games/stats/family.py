"""What the statistics say about one player in one rule family."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

# The counters of a family, by the names of ``FamilyStats`` and of ``PlayerStats``.
COUNTERS: Final = (
    "games",
    "wins",
    "left_early",
    "playing",
    "deals",
    "deals_won",
    "hands",
    "deal_points",
)


@dataclass
class FamilyStats:
    """What one player did in the games of one rule family."""

    rules: str
    games: int = 0  # finished matches
    wins: int = 0  # finished matches won (a shared first place counts)
    left_early: int = 0  # finished matches the player resigned or was put out of
    playing: int = 0  # matches under way
    deals: int = 0  # deals played to a result (void deals included)
    deals_won: int = 0  # deals the player went out in
    hands: int = 0  # of which in one go (a "hand")
    deal_points: int = 0  # the sum of the player's scores in those deals

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def average_deal_score(self) -> float | None:
        """Mean points per deal (lower is better: a win scores below zero)."""
        return self.deal_points / self.deals if self.deals else None

    def counters(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in COUNTERS}

    def to_dict(self) -> dict[str, Any]:
        average = self.average_deal_score
        rate = self.win_rate
        return {
            "rules": self.rules,
            "games": self.games,
            "wins": self.wins,
            "win_rate": None if rate is None else round(rate, 3),
            "left_early": self.left_early,
            "playing": self.playing,
            "deals": self.deals,
            "deals_won": self.deals_won,
            "hands": self.hands,
            "average_deal_score": None if average is None else round(average, 1),
        }
