"""A player's statistics and play history, per rule family, read from their games.

Nothing here is stored: the figures are counted from the seats and the deals'
results on each read (two queries, whatever the number of games), so they can
never disagree with the games themselves. Hidden information plays no part: a
deal's result (winner, finish, scores) is public once the deal is over.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User

from games.engine import PRESETS
from games.models import Deal, Game, Seat
from games.ratings import match_ranks

RECENT_GAMES = 10


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
    hands: int = 0  # of which in one go (a "hand", RULES.md)
    _deal_points: list[int] = field(default_factory=list, repr=False)

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def average_deal_score(self) -> float | None:
        """Mean points per deal (lower is better: a win scores below zero)."""
        if not self._deal_points:
            return None
        return sum(self._deal_points) / len(self._deal_points)

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


def player_stats(user: User) -> list[FamilyStats]:
    """One entry per rule family, in the presets' order, families never played included."""
    families = {name: FamilyStats(rules=name) for name in PRESETS}
    seats = list(
        Seat.objects.filter(user=user)
        .exclude(game__status__in=[Game.Status.LOBBY, Game.Status.ABORTED])
        .values_list(
            "game_id", "position", "status", "game__preset", "game__status", "game__winners"
        )
    )
    position_in: dict[int, tuple[int, str]] = {}
    for game_id, position, status, preset, game_status, winners in seats:
        family = families.setdefault(preset, FamilyStats(rules=preset))
        position_in[game_id] = (position, preset)
        if game_status == Game.Status.ACTIVE:
            family.playing += 1
            continue
        family.games += 1
        family.wins += position in (winners or [])
        family.left_early += status == Seat.Status.OUT
    results = Deal.objects.filter(game_id__in=position_in, result__isnull=False).values_list(
        "game_id", "result"
    )
    for game_id, result in results:
        assert result is not None  # filtered above
        position, preset = position_in[game_id]
        family = families[preset]
        family.deals += 1
        if result["winner"] == position:
            family.deals_won += 1
            family.hands += result["finish"] == "dry_hand"
        family._deal_points.append(result["scores"][position])
    return list(families.values())


def recent_games(user: User, *, limit: int = RECENT_GAMES) -> list[dict[str, Any]]:
    """The player's last finished matches, newest first, with their place in each."""
    seats = (
        Seat.objects.filter(user=user, game__status=Game.Status.FINISHED)
        .select_related("game")
        .prefetch_related("game__seats")
        .order_by("-game__finished_at", "-game_id")[:limit]
    )
    games = []
    for seat in seats:
        game = seat.game
        table = sorted(game.seats.all(), key=lambda other: other.position)
        places = match_ranks([(other.total, other.status == Seat.Status.OUT) for other in table])
        games.append(
            {
                "id": game.public_id,
                "rules": game.preset,
                "players": game.players,
                "rated": game.rated,
                "finished_at": game.finished_at,
                "won": seat.position in (game.winners or []),
                "place": places[seat.position],
                "total": seat.total,
                "end_reason": game.end_reason,
            }
        )
    return games
