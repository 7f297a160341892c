"""The statistics as the pages and the API show them: the kept counters, and the
player's recent games."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Prefetch, Q, QuerySet

from games.engine import PRESETS
from games.models import Game, PlayerStats, Seat
from games.ratings import match_ranks
from games.stats.family import COUNTERS, FamilyStats

RECENT_GAMES = 10
# What a recent game shows of the game, and of each seat at its table.
_RECENT_GAME_FIELDS = (
    "public_id",
    "preset",
    "players",
    "rated",
    "status",
    "finished_at",
    "winners",
    "end_reason",
)
_TABLE_FIELDS = ("game_id", "position", "total", "status", "user_id")
# What a recent game shows of each opponent.
_OPPONENT_FIELDS = ("user__username", "user__profile__display_name", "user__profile__is_bot")


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


def recent_games(
    user: User, *, viewer: Any = None, limit: int = RECENT_GAMES
) -> list[dict[str, Any]]:
    """The player's last finished matches that ``viewer`` may see (public ones, and
    private ones the viewer sat in; ``None`` or anonymous: public ones), newest first,
    with their place in each.

    When a game ended is copied to its seats (``Seat.game_ended_at``): the player's
    part of the index ``seat_user_ended`` gives their latest ended games in order, and
    the walk stops at the ``limit``-th finished one (an aborted game is skipped),
    however many games the player or the site holds. Only those games are read, with
    their tables."""
    seats = (
        Seat.objects.filter(
            user=user, game_ended_at__isnull=False, game__status=Game.Status.FINISHED
        )
        .select_related("game")
        .only("position", "total", *(f"game__{name}" for name in _RECENT_GAME_FIELDS))
        .prefetch_related(
            Prefetch(
                "game__seats",
                queryset=Seat.objects.select_related("user__profile").only(
                    *_TABLE_FIELDS, *_OPPONENT_FIELDS
                ),
            )
        )
        .order_by("-game_ended_at", "-game_id")
    )
    # The player sits in every one of them: only someone else is shown fewer.
    if getattr(viewer, "pk", None) != user.pk:
        seats = _seen_by(seats, viewer)
    seats = seats[:limit]
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
                "opponents": [_opponent(other) for other in table if other.pk != seat.pk],
            }
        )
    return games


def _seen_by(seats: QuerySet[Seat], viewer: Any) -> QuerySet[Seat]:
    viewer_id = getattr(viewer, "pk", None)
    if viewer_id is None:
        return seats.filter(game__visibility=Game.Visibility.PUBLIC)
    shared = Seat.objects.filter(user_id=viewer_id).values("game_id")
    return seats.filter(Q(game__visibility=Game.Visibility.PUBLIC) | Q(game_id__in=shared))


def _opponent(seat: Seat) -> dict[str, Any]:
    """Who sat at another seat of a recent game, as the player page links them."""
    return {
        "username": seat.user.username,
        "display_name": seat.user.profile.display_name,
        "is_bot": seat.user.profile.is_bot,
    }
