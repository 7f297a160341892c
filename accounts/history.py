"""A player's history: every game they played, filtered (the export is
``accounts.export``).

The games come from ``games.read.game_lists.game_list`` (the user's seats, with the
history filters); an entry is one game as its player sees it afterwards: the
result, the place, the opponents and what the game did to their rating.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Prefetch, QuerySet

from accounts.models import RatingChange
from games.models import Game, Seat
from games.ratings import match_ranks
from games.read.game_lists import HISTORY_RESULTS, game_list
from games.read.selectors import user_card

RESULTS = HISTORY_RESULTS
TIME_CONTROLS = tuple(Game.TimeControl.values)
# The filters a history takes (game_list's names); anything else is not passed on.
FILTERS = ("variant", "result", "opponent", "time_control", "since", "until")


def history(*, user: User, filters: Mapping[str, Any]) -> QuerySet[Game]:
    """The games the user played (started), newest first, narrowed by ``filters``."""
    wanted = {name: filters[name] for name in FILTERS if filters.get(name)}
    games = game_list(user=user, filters={**wanted, "mine": True, "played": True})
    own_changes = RatingChange.objects.filter(user=user)
    return games.prefetch_related(
        Prefetch("rating_changes", queryset=own_changes, to_attr="own_rating_changes")
    ).order_by("-created_at", "-id")


def history_entry(game: Game, user: User) -> dict[str, Any]:
    """One game of a history, as its player sees it afterwards."""
    seats = sorted(game.seats.all(), key=lambda seat: seat.position)
    mine = next(seat for seat in seats if seat.user_id == user.pk)
    change = next(iter(getattr(game, "own_rating_changes", None) or []), None)
    return {
        "id": game.public_id,
        "preset": game.preset,
        "time_control": game.time_control,
        "rated": game.rated,
        "players": game.players,
        "status": game.status,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "end_reason": game.end_reason or None,
        "seat": mine.position,
        "result": _result(game, mine),
        "place": _place(game, seats, mine),
        "total": mine.total,
        "opponents": [
            {
                "position": seat.position,
                "user": user_card(seat.user),
                "total": seat.total,
                "status": seat.status,
            }
            for seat in seats
            if seat is not mine
        ],
        "rating_change": None if change is None else change.change,
        "rating_after": None if change is None else change.rating_after,
    }


def _result(game: Game, seat: Seat) -> str:
    if game.status == Game.Status.FINISHED:
        return "won" if seat.position in (game.winners or []) else "lost"
    return "playing" if game.status == Game.Status.ACTIVE else "aborted"


def _place(game: Game, seats: list[Seat], seat: Seat) -> int | None:
    """1 = first, as the statistics count it; None until the game is finished."""
    if game.status != Game.Status.FINISHED:
        return None
    return match_ranks([(s.total, s.status == Seat.Status.OUT) for s in seats])[seat.position]
