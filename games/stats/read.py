"""The statistics as the pages and the API show them: the kept counters, and the
player's recent games."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User

from games.engine import PRESETS
from games.models import Game, PlayerStats, Seat
from games.ratings import match_ranks
from games.stats.family import COUNTERS, FamilyStats

RECENT_GAMES = 10


def player_stats(user: User) -> list[FamilyStats]:
    """One entry per rule family, in the presets' order, families never played included.

    One indexed query, whatever the number of games: the counters kept by
    ``games.stats.record``."""
    rows = PlayerStats.objects.filter(user=user).values("rules", *COUNTERS)
    return families_in_order({row["rules"]: FamilyStats(**row) for row in rows})


def families_in_order(found: Mapping[str, FamilyStats]) -> list[FamilyStats]:
    """The presets' families first (empty when not found), then any other, by name."""
    families = [found.get(name) or FamilyStats(rules=name) for name in PRESETS]
    return families + [found[name] for name in sorted(set(found) - set(PRESETS))]


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
