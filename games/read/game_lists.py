"""Lists of games: the lobby's open games, a player's games by status, their history."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User as AuthUser
from django.db.models import (
    Count,
    F,
    IntegerField,
    Q,
    QuerySet,
)
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast
from django.utils.translation import gettext as _

from games.errors import InvalidRequest
from games.models import Game, Seat
from games.read.plans import as_any_player
from games.read.queue import turns_by_deadline
from games.read.selectors import seats_prefetch

LIST_STATUSES = ("open", "my_turn", "active", "finished", "aborted", "lobby")


# The lists of games not yet over, and of ended games ("open" lists lobbies).
RUNNING_STATUSES = ("open", "my_turn", "active", "lobby")


ENDED_STATUSES = ("finished", "aborted")


def game_list(*, user: AuthUser, filters: Mapping[str, Any]) -> QuerySet[Game]:
    """Games the user may see, newest first, narrowed by ``filters``:

    - ``status``: ``open`` (public games in the lobby with a free seat, not yours),
      ``lobby``, ``active``, ``finished`` or ``aborted``;
    - ``mine``: only games the user sits in;
    - ``variant``: the preset name;
    - the filters of a player's history (``_history_filters``): ``played``,
      ``result``, ``opponent``, ``time_control``, ``since`` and ``until``.

    ``status=my_turn`` gives the running games waiting for the user's move (the
    game's ``to_move`` column is the seat whose turn it is).
    """
    # From the user's own seats (an index), not a check on every visible game: "mine"
    # and "my turn" stay as fast with 100,000 games in the database as with 10. A
    # status not yet over reads only the seats of games not yet over (the partial
    # index ``seat_user_running``), so a veteran's finished games cost nothing there.
    status = filters.get("status")
    mine = _seats_of(user, status).values("game_id")
    if (filters.get("mine") or status == "my_turn") and status in ENDED_STATUSES:
        games = _ended_games_of(user)
    elif filters.get("mine") or status == "my_turn":
        games = Game.objects.filter(pk__in=mine)
    else:
        games = Game.objects.filter(Q(visibility=Game.Visibility.PUBLIC) | Q(pk__in=mine))
    # A list shows no game's ruleset: its JSON stays in the database, except for the
    # games waiting for players, whose house rules are shown before anyone joins.
    games = games.select_related("owner").prefetch_related(seats_prefetch())
    if status not in ("open", Game.Status.LOBBY):
        games = games.defer("ruleset")
    if status:
        if status not in LIST_STATUSES:
            raise InvalidRequest(
                _("unknown status filter %(status)s") % {"status": repr(status)},
                code="invalid_filter",
            )
        if status == "my_turn":
            waiting = Seat.objects.filter(
                user_id=user.pk,
                game_ended_at__isnull=True,
                status=Seat.Status.ACTIVE,
                game__status=Game.Status.ACTIVE,
                position=F("game__to_move"),
            ).values("game_id")
            # The queue: the most urgent deadline first.
            games = turns_by_deadline(games.filter(pk__in=waiting, status=Game.Status.ACTIVE))
        elif status == "open":
            games = (
                games.annotate(taken=Count("seats"))
                .filter(
                    status=Game.Status.LOBBY,
                    visibility=Game.Visibility.PUBLIC,
                    taken__lt=F("players"),
                )
                .exclude(pk__in=mine)
            )
        else:
            games = games.filter(status=status)
            if status == Game.Status.FINISHED:
                # Every finished game has its end time: said so, the list may read the
                # ended games' index (``game_finished``) rather than every game's.
                games = games.filter(finished_at__isnull=False)
    variant = filters.get("variant")
    if variant:
        games = games.filter(preset=variant)
    return _history_filters(games, user, filters)


def _seats_of(user: AuthUser, status: str | None) -> QuerySet[Seat]:
    """The user's seats that can be in a list of ``status``: those of games not yet
    over, of ended games, or all."""
    seats = Seat.objects.filter(user_id=user.pk)
    if status in RUNNING_STATUSES:
        return seats.filter(game_ended_at__isnull=True)
    if status in ENDED_STATUSES:
        return seats.filter(game_ended_at__isnull=False)
    return seats


def _ended_games_of(user: AuthUser) -> QuerySet[Game]:
    """The ended games the user sat in, each annotated with ``ended_at`` (their seat's
    copy of the end time): ordered by it, newest first, a list walks the user's part
    of the index ``seat_user_ended`` and stops at its page, however many they ended."""
    return Game.objects.filter(
        seats__user_id=as_any_player(user.pk), seats__game_ended_at__isnull=False
    ).annotate(ended_at=F("seats__game_ended_at"))


def newest_ended_first(games: QuerySet[Game]) -> QuerySet[Game]:
    """A list of ended games of the user (``status`` finished or aborted, ``mine``),
    the most recently ended first."""
    return games.order_by(F("ended_at").desc(), "-pk")


HISTORY_RESULTS = ("won", "lost", "playing", "aborted")


# More seats than any table has: how many entries of ``Game.winners`` to look at.
_MOST_SEATS = 8


def _history_filters(
    games: QuerySet[Game], user: AuthUser, filters: Mapping[str, Any]
) -> QuerySet[Game]:
    """Narrow ``games`` (the user's, for a history) by:

    - ``played``: only games that started;
    - ``result``: ``won`` (finished with the user among the winners: a shared first
      counts, as in the statistics), ``lost`` (finished otherwise), ``playing`` or
      ``aborted``;
    - ``opponent``: a username (any case) that sat at the table with the user;
    - ``time_control``: ``live`` or ``correspondence``;
    - ``since``, ``until``: the dates (UTC) the game started between, both included.
    """
    if filters.get("played"):
        games = games.filter(started_at__isnull=False)
    result = filters.get("result")
    if result:
        if result not in HISTORY_RESULTS:
            raise InvalidRequest(
                _("unknown result filter %(result)s") % {"result": repr(result)},
                code="invalid_filter",
            )
        if result in ("won", "lost"):
            won = _games_won(user)
            games = games.filter(status=Game.Status.FINISHED)
            games = games.filter(pk__in=won) if result == "won" else games.exclude(pk__in=won)
        else:
            status = Game.Status.ACTIVE if result == "playing" else Game.Status.ABORTED
            games = games.filter(status=status)
    opponent = filters.get("opponent")
    if opponent:
        met = (
            Seat.objects.filter(user__username__iexact=opponent)
            .exclude(user_id=user.pk)
            .values("game_id")
        )
        games = games.filter(pk__in=met)
    time_control = filters.get("time_control")
    if time_control:
        games = games.filter(time_control=time_control)
    if filters.get("since"):
        games = games.filter(started_at__date__gte=filters["since"])
    if filters.get("until"):
        games = games.filter(started_at__date__lte=filters["until"])
    return games


def _games_won(user: AuthUser) -> QuerySet[Seat, Any]:
    """Ids of the finished games the user won: their seat's position is one of the
    game's ``winners`` (a JSON list, read entry by entry so that SQLite can too)."""
    entries = {
        f"winner_{index}": Cast(KeyTextTransform(str(index), "game__winners"), IntegerField())
        for index in range(_MOST_SEATS)
    }
    among_winners = Q()
    for name in entries:
        among_winners |= Q(**{name: F("position")})
    return (
        Seat.objects.filter(user_id=user.pk, game__status=Game.Status.FINISHED)
        .annotate(**entries)
        .filter(among_winners)
        .values("game_id")
    )
