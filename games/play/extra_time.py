"""Requests for more time on one correspondence turn: asked by the player to move,
answered by another player of the game.

Granting moves the current deadline by the days asked (``games.clock.DAY``), under
the game's row lock and only while the turn asked about is still running: reminders
are keyed by deadline, so a moved deadline gets its reminders again, and the
deadline sweep reads the new one. A request not answered before its turn ends
expires. One request waits per game at a time (a partial unique index).
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import clock
from games.errors import Conflict, GameNotFound, InvalidRequest, NotAllowed
from games.live import outbox
from games.models import EXTRA_TIME_MAX_DAYS, ExtraTimeRequest, Game, Seat


def _locked(game: Game) -> tuple[Game, list[Seat]]:
    locked = Game.objects.select_for_update().filter(pk=game.pk).first()
    if locked is None:
        raise GameNotFound(_("no such game"))
    return locked, list(Seat.objects.filter(game=locked).order_by("position"))


def _seat_of(seats: list[Seat], user: User) -> Seat:
    seat = next((seat for seat in seats if seat.user_id == user.pk), None)
    if seat is None:
        raise NotAllowed(_("you are not playing in this game"), code="not_a_player")
    return seat


def _expire_stale(game: Game) -> None:
    """Requests about a turn that has ended can no longer be granted."""
    ExtraTimeRequest.objects.filter(game=game, status=ExtraTimeRequest.Status.PENDING).exclude(
        ply=game.ply
    ).update(status=ExtraTimeRequest.Status.EXPIRED, answered_at=timezone.now())


def extra_time_request(*, game: Game, user: User, days: int) -> ExtraTimeRequest:
    """``user``, whose turn it is in the correspondence ``game``, asks the others for
    ``days`` (1 to ``EXTRA_TIME_MAX_DAYS``) more on this turn."""
    if not 1 <= days <= EXTRA_TIME_MAX_DAYS:
        raise InvalidRequest(
            ngettext(
                "ask for 1 to %(extra_time_max_days)s day",
                "ask for 1 to %(extra_time_max_days)s days",
                EXTRA_TIME_MAX_DAYS,
            )
            % {"extra_time_max_days": EXTRA_TIME_MAX_DAYS},
            code="invalid_days",
        )
    with transaction.atomic():
        game, seats = _locked(game)
        seat = _seat_of(seats, user)
        if game.time_control != Game.TimeControl.CORRESPONDENCE:
            raise Conflict(_("extra time is for correspondence games"), code="not_correspondence")
        if game.status != Game.Status.ACTIVE or game.deadline_at is None:
            raise Conflict(_("the game is not being played"), code="game_not_active")
        if game.to_move != seat.position or seat.status == Seat.Status.OUT:
            raise NotAllowed(_("ask for more time on your own turn"), code="not_your_turn")
        _expire_stale(game)
        try:
            with transaction.atomic():
                request = ExtraTimeRequest.objects.create(
                    game=game, seat=seat, days=days, ply=game.ply
                )
        except IntegrityError:
            raise Conflict(
                _("a request for more time is already waiting"), code="request_pending"
            ) from None
    return request


def extra_time_answer(*, game: Game, user: User, request_id: int, grant: bool) -> ExtraTimeRequest:
    """Another player of ``game``, still in it, grants or declines a waiting request.
    Granting moves the current deadline by the request's days (the turn asked about
    must still be running: else the request has expired)."""
    with transaction.atomic():
        game, seats = _locked(game)
        seat = _seat_of(seats, user)
        request = (
            ExtraTimeRequest.objects.select_for_update().filter(game=game, pk=request_id).first()
        )
        if request is None:
            raise GameNotFound(_("no such request"))
        if request.seat_id == seat.pk:
            raise NotAllowed(_("another player answers your request"), code="own_request")
        if seat.status == Seat.Status.OUT:
            raise NotAllowed(_("you resigned from this game"), code="seat_out")
        if request.status == ExtraTimeRequest.Status.PENDING and (
            request.ply != game.ply or game.status != Game.Status.ACTIVE
        ):
            request.status = ExtraTimeRequest.Status.EXPIRED
            request.answered_at = timezone.now()
            request.save(update_fields=["status", "answered_at"])
        if request.status != ExtraTimeRequest.Status.PENDING:
            raise Conflict(
                _("the request is %(status)s") % {"status": request.status},
                code=f"request_{request.status}",
            )
        request.status = (
            ExtraTimeRequest.Status.GRANTED if grant else ExtraTimeRequest.Status.DECLINED
        )
        request.answered_by = user
        request.answered_at = timezone.now()
        request.save(update_fields=["status", "answered_by", "answered_at"])
        if grant and game.deadline_at is not None:
            game.deadline_at = game.deadline_at + request.days * clock.DAY
            game.save(update_fields=["deadline_at"])
            outbox.game_event_on_commit(
                game.public_id,
                game.ply,
                {
                    "type": "deadline_changed",
                    "deadline_at": game.deadline_at.isoformat(),
                    "reason": "extra_time",
                },
            )
    return request
