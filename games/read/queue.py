"""The correspondence player's queue: the games waiting for a move, most urgent first,
and what a player keeps private at one table (their note, their queued draw, the
requests for more time they may answer).

"My turn" is an index lookup: the player's own seats in games not yet over (the
partial index ``seat_user_running``: however many games they finished) joined to their
games by primary key, compared with the game's ``to_move`` column.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as AuthUser
from django.db.models import Exists, F, OuterRef, QuerySet
from django.utils import timezone

from games.models import ExtraTimeRequest, Game, Note, PlayerSettings, PreMove, Seat
from games.read.plans import as_any_player

User = AuthUser | AnonymousUser


def _waiting_seats(user: AuthUser) -> QuerySet[Seat]:
    """The user's seats whose game waits for their move."""
    return Seat.objects.filter(
        user_id=as_any_player(user.pk),
        game_ended_at__isnull=True,
        status=Seat.Status.ACTIVE,
        game__status=Game.Status.ACTIVE,
        position=F("game__to_move"),
    )


def my_turn_count(user: User) -> int:
    """How many running games wait for ``user``'s move (one query; none for a visitor)."""
    if not user.is_authenticated:
        return 0
    return _waiting_seats(user).count()


def next_game_id(user: User) -> str | None:
    """The public id of the game waiting for ``user`` whose deadline comes first (games
    without a deadline last, then the longest waiting), or None."""
    if not user.is_authenticated:
        return None
    found = (
        _waiting_seats(user)
        .order_by(F("game__deadline_at").asc(nulls_last=True), "game__updated_at", "game_id")
        .values_list("game__public_id", flat=True)
        .first()
    )
    return found


def plays_in(*, public_id: str, user: AuthUser) -> bool:
    """Whether ``user`` sits in the game ``public_id`` (one indexed query, no game read:
    asked by the table's "seen" report every half minute)."""
    return Seat.objects.filter(user_id=user.pk, game__public_id=public_id).exists()


def turns_by_deadline(games: QuerySet[Game]) -> QuerySet[Game]:
    """Games waiting for a move, in the order every list of "your turn" shows them: the
    soonest deadline first (none last), then the longest waiting."""
    return games.order_by(F("deadline_at").asc(nulls_last=True), "updated_at", "pk")


def by_urgency(games: QuerySet[Game], user: AuthUser) -> QuerySet[Game]:
    """``games`` with those waiting for ``user`` first, each part by deadline (the
    earliest first; none last), then the newest."""
    waits = Exists(_waiting_seats(user).filter(game_id=OuterRef("pk")))
    return games.annotate(waits_for_user=waits).order_by(
        F("waits_for_user").desc(), F("deadline_at").asc(nulls_last=True), "-created_at", "-pk"
    )


def vacation_until(user: AuthUser, now: datetime | None = None) -> datetime | None:
    """The end of the vacation ``user`` is on (for everyone to see), or None."""
    until = (
        PlayerSettings.objects.filter(user_id=user.pk)
        .values_list("vacation_until", flat=True)
        .first()
    )
    return until if until is not None and until > (now or timezone.now()) else None


# ------------------------------------------------------------------ a player's own aids


def note_for(*, game: Game, user: AuthUser) -> dict[str, Any]:
    """The user's note on ``game`` (empty text when none was written)."""
    note = Note.objects.filter(game=game, user_id=user.pk).only("text", "updated_at").first()
    return {
        "text": note.text if note is not None else "",
        "updated_at": note.updated_at if note is not None else None,
    }


def premove_for(*, seat: Seat) -> dict[str, Any]:
    """The draw ``seat`` queued for its next turn, if any."""
    premove = PreMove.objects.filter(seat=seat).only("unless", "created_at").first()
    return premove_answer(premove)


def premove_answer(premove: PreMove | None) -> dict[str, Any]:
    return {
        "queued": premove is not None,
        "unless": list(premove.unless) if premove is not None else [],
        "created_at": premove.created_at if premove is not None else None,
    }


def extra_time_answer(request: ExtraTimeRequest, *, position: int) -> dict[str, Any]:
    return {
        "id": request.pk,
        "seat": position,
        "days": request.days,
        "ply": request.ply,
        "status": request.status,
        "created_at": request.created_at,
        "answered_at": request.answered_at,
    }


def extra_time_requests_for(*, game: Game) -> list[dict[str, Any]]:
    """The game's requests for more time, newest first (the table shows them to its
    players: who asked, for how long, what was answered)."""
    positions = {seat.pk: seat.position for seat in game.seats.all()}
    rows = ExtraTimeRequest.objects.filter(game=game).order_by("-created_at", "-pk")[:20]
    return [extra_time_answer(row, position=positions[row.seat_id]) for row in rows]
