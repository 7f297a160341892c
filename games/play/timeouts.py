"""The timeout policy: what happens when a turn's deadline passes.

Called by the deadline sweep (every second), with the ply the deadline belongs to.
The write itself is ``game_timeout_turn`` (game row claimed with ``SKIP
LOCKED``, ply and deadline re-checked under the lock), so two sweeps or a restarted
worker never apply one twice.

- Correspondence: the server plays the turn (draw, discard the worst non-joker
  card, or what the rules require) and counts a strike; after the game's strike
  limit (``CORRESPONDENCE_STRIKES``, 3, unless the game sets its own) in a row the
  seat is out (3-4 players: the game goes on, the server plays that seat's turns;
  2 players: the other one wins).
- Live: the same with ``LIVE_STRIKES``; and docs/rules.md §10 when the player to move is
  not connected: the game first waits for them (``LIVE_ABSENT_WAIT_S``, 2 minutes,
  or the game's own wait; event ``waiting_for_player``). If they are still away
  when that wait is over, the table's host may choose (event ``absent_choice``,
  ``absent_choose``): wait longer, continue without them (their seat is out; only
  while at least two other seats are in) or end the game (the seat is out and the
  match ends now: the lowest total among the others wins; 2 players: the other
  one). A host who does not choose within ``LIVE_ABSENT_CHOICE_S`` (60 s) gets the
  default: continue without them, or end the game when that leaves fewer than two.
  When nobody can choose (the host is the absent player, a bot or out) the default
  applies at once. A game of one person and only bots waits for that person instead:
  their turn's clock stops until they come back (``alone_pause``).

The wait is recorded in the database (``AbsentWait``, one row per game and ply,
written under the game's row lock), so neither a lost cache nor a second worker
can grant a second wait or apply the default twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games import clock
from games.errors import Conflict, GameNotFound, InvalidRequest, NotAllowed, StalePly
from games.live import presence, publisher
from games.models import AbsentWait, Game, Seat
from games.play import alone_pause
from games.play.pause import due_deal_pauses, game_next_deal
from games.play.resign import game_seat_out, game_seat_out_and_end
from games.play.timeout_turn import game_timeout_turn

CHOICES = ("wait", "continue", "end")


def overdue_games(now: datetime, limit: int = 500) -> list[tuple[int, int]]:
    """(game pk, ply) of active games whose deadline has passed, oldest first."""
    rows = (
        Game.objects.filter(
            Q(status=Game.Status.ACTIVE), deadline_at__isnull=False, deadline_at__lte=now
        )
        .order_by("deadline_at")
        .values_list("pk", "ply")[:limit]
    )
    return list(rows)


def timeout_apply(*, game_pk: int, ply: int, now: datetime | None = None) -> str | None:
    """Apply the timeout policy to the deadline of ``ply``; returns what was done
    (``"played"``, ``"out"``, ``"waiting"``, ``"choice"``, ``"paused"``) or None when
    nothing was due."""
    now = now or timezone.now()
    game = Game.objects.filter(pk=game_pk, ply=ply, status=Game.Status.ACTIVE).first()
    if game is None or game.deadline_at is None or game.deadline_at > now:
        return None
    if game.time_control == Game.TimeControl.LIVE:
        absent = _absent_seat(game)
        if absent is not None:
            seats = list(Seat.objects.select_related("user__profile").filter(game=game))
            if alone_pause.only_person(seats, absent):
                paused = alone_pause.pause_turn(game=game, position=absent.position, now=now)
                return "paused" if paused else None
            return _absent_player(game, absent, now)
    turn = game_timeout_turn(
        game=game, expected_ply=ply, strike_limit=clock.strike_limit(game), now=now
    )
    if turn is None:
        return None
    return "out" if turn.out else "played"


def due_pauses(now: datetime, limit: int = 500) -> list[tuple[int, int]]:
    """(game pk, ply) of live games whose pause between deals is over, oldest first."""
    return due_deal_pauses(now, limit)


def pause_end(*, game_pk: int, ply: int, now: datetime | None = None) -> bool:
    """Deal the next deal of a live table whose pause after a deal is over; False when
    nothing was due (another sweep dealt it, or the players were ready first)."""
    now = now or timezone.now()
    game = Game.objects.filter(pk=game_pk).first()
    if game is None:
        return False
    return game_next_deal(game=game, expected_ply=ply, now=now) is not None


def _absent_seat(game: Game) -> Seat | None:
    """The seat to move, if its player is a person with no connection to the game."""
    if game.to_move is None:
        return None
    seat = Seat.objects.select_related("user__profile").get(game=game, position=game.to_move)
    if seat.user.profile.is_bot or seat.status == Seat.Status.OUT:
        return None
    if seat.user_id in presence.connected_users(game.public_id):
        return None
    return seat


# ------------------------------------------------------------------ docs/rules.md §10


def _absent_player(game: Game, seat: Seat, now: datetime) -> str | None:
    """One step of the absent-player rule for the overdue turn of ``seat``, under the
    game's row lock (claimed with ``SKIP LOCKED``; the ply and deadline re-checked)."""
    with transaction.atomic():
        locked = (
            Game.objects.select_for_update(skip_locked=True)
            .filter(pk=game.pk, ply=game.ply, status=Game.Status.ACTIVE)
            .first()
        )
        if locked is None or locked.deadline_at is None or locked.deadline_at > now:
            return None
        wait = AbsentWait.objects.filter(game=locked, ply=locked.ply).first()
        if wait is None:
            AbsentWait.objects.create(game=locked, ply=locked.ply, position=seat.position)
            _wait(locked, seat.position, now, by_host=False)
            return "waiting"
        if wait.stage == AbsentWait.Stage.DECIDED:
            return None
        seats = list(Seat.objects.select_related("user__profile").filter(game=locked))
        if wait.stage == AbsentWait.Stage.WAITING and _host_may_choose(locked, seats, wait):
            wait.stage = AbsentWait.Stage.CHOICE
            wait.save(update_fields=["stage", "updated_at"])
            deadline = now + clock.absent_choice_wait()
            _set_deadline(locked, deadline)
            _publish(
                locked,
                {
                    "type": "absent_choice",
                    "seat": wait.position,
                    "host": _host_position(locked, seats),
                    "choices": _choices(seats, wait.position),
                    "default": _default_choice(seats, wait.position),
                    "deadline_at": deadline.isoformat(),
                },
            )
            return "choice"
        # The host had their chance (or nobody can choose): the default.
        _decide(locked, wait, _default_choice(seats, wait.position), user=None)
        return "out"


def _host_position(game: Game, seats: list[Seat]) -> int | None:
    return next((s.position for s in seats if s.user_id == game.owner_id), None)


def _host_may_choose(game: Game, seats: list[Seat], wait: AbsentWait) -> bool:
    """A host who is a person still in the game, and not the absent player."""
    host = next((s for s in seats if s.user_id == game.owner_id), None)
    return (
        host is not None
        and host.position != wait.position
        and host.status != Seat.Status.OUT
        and not host.user.profile.is_bot
    )


def _others_in(seats: list[Seat], position: int) -> int:
    return sum(1 for s in seats if s.position != position and s.status != Seat.Status.OUT)


def _choices(seats: list[Seat], position: int) -> list[str]:
    """``continue`` only while at least two other seats stay in."""
    if _others_in(seats, position) >= 2:
        return list(CHOICES)
    return ["wait", "end"]


def _default_choice(seats: list[Seat], position: int) -> str:
    return "continue" if _others_in(seats, position) >= 2 else "end"


def _set_deadline(game: Game, deadline: datetime) -> None:
    game.deadline_at = deadline
    game.save(update_fields=["deadline_at", "updated_at"])


def _publish(game: Game, event: dict[str, Any]) -> None:
    transaction.on_commit(partial(publisher.publish_public_event, game.public_id, game.ply, event))


def _wait(game: Game, position: int, now: datetime, *, by_host: bool) -> None:
    deadline = now + clock.absent_wait(game)
    _set_deadline(game, deadline)
    _publish(
        game,
        {
            "type": "waiting_for_player",
            "seat": position,
            "deadline_at": deadline.isoformat(),
            "by_host": by_host,
        },
    )


def _decide(game: Game, wait: AbsentWait, choice: str, *, user: User | None) -> None:
    """Apply ``continue`` or ``end`` to the locked ``game`` (same transaction)."""
    wait.stage = AbsentWait.Stage.DECIDED
    wait.choice = choice if user is not None else "default"
    wait.decided_by = user
    wait.save(update_fields=["stage", "choice", "decided_by", "updated_at"])
    _publish(
        game,
        {
            "type": "absent_decided",
            "seat": wait.position,
            "choice": choice,
            "by": "host" if user is not None else "default",
        },
    )
    if choice == "continue":
        game_seat_out(game=game, position=wait.position, expected_ply=game.ply, reason="absent")
    else:
        game_seat_out_and_end(
            game=game, position=wait.position, expected_ply=game.ply, reason="absent"
        )


@dataclass(frozen=True)
class AbsentState:
    """What a live table is waiting for (``GET /games/{id}/absent``)."""

    ply: int
    host: int | None
    seat: int | None = None
    stage: str | None = None
    waits: int = 0
    deadline_at: datetime | None = None
    choices: tuple[str, ...] = ()
    default: str | None = None

    def to_dict(self, *, you_choose: bool) -> dict[str, Any]:
        absent = None
        if self.seat is not None:
            absent = {
                "seat": self.seat,
                "stage": self.stage,
                "waits": self.waits,
                "deadline_at": self.deadline_at,
                "choices": list(self.choices),
                "default": self.default,
            }
        return {"ply": self.ply, "host": self.host, "absent": absent, "you_choose": you_choose}


def absent_state(game: Game) -> AbsentState:
    """The absent-player wait of the game's current turn, if any (read only)."""
    seats = list(Seat.objects.select_related("user__profile").filter(game=game))
    host = _host_position(game, seats)
    wait = None
    if game.status == Game.Status.ACTIVE and game.time_control == Game.TimeControl.LIVE:
        wait = AbsentWait.objects.filter(game=game, ply=game.ply).first()
    if wait is None or wait.stage == AbsentWait.Stage.DECIDED:
        return AbsentState(ply=game.ply, host=host)
    choosing = wait.stage == AbsentWait.Stage.CHOICE
    return AbsentState(
        ply=game.ply,
        host=host,
        seat=wait.position,
        stage=wait.stage,
        waits=wait.waits,
        deadline_at=game.deadline_at,
        choices=tuple(_choices(seats, wait.position)) if choosing else (),
        default=_default_choice(seats, wait.position),
    )


def absent_choose(
    *,
    game: Game,
    user: User,
    choice: str,
    expected_ply: int | None = None,
    now: datetime | None = None,
) -> Game:
    """The host's choice once a live table has waited for an absent player (docs/rules.md
    §10): ``wait`` (another wait), ``continue`` (the seat is out, play goes on) or
    ``end`` (the seat is out and the match ends now). One transaction under the game's
    row lock; the choice is refused unless the host is choosing for the current ply."""
    now = now or timezone.now()
    if choice not in CHOICES:
        raise InvalidRequest(
            _("choose one of %(value)s") % {"value": ", ".join(CHOICES)}, code="invalid_choice"
        )
    with transaction.atomic():
        locked = Game.objects.select_for_update().filter(pk=game.pk).first()
        if locked is None:
            raise GameNotFound(_("no such game"))
        if locked.owner_id != user.pk:
            raise NotAllowed(_("only the table's host may choose"), code="not_host")
        if locked.status != Game.Status.ACTIVE:
            raise Conflict(_("the game is not being played"), code="game_not_active")
        if expected_ply is not None and expected_ply != locked.ply:
            raise StalePly(locked.ply, expected_ply)
        wait = AbsentWait.objects.filter(game=locked, ply=locked.ply).first()
        if wait is None or wait.stage != AbsentWait.Stage.CHOICE:
            raise Conflict(
                _(
                    "no absent player to decide about: the table has not waited out the "
                    "player to move"
                ),
                code="no_absent_player",
            )
        seats = list(Seat.objects.select_related("user__profile").filter(game=locked))
        absent_user = next(s.user_id for s in seats if s.position == wait.position)
        if absent_user in presence.connected_users(locked.public_id):
            raise Conflict(_("the player is back: they may move"), code="player_returned")
        if choice not in _choices(seats, wait.position):
            raise Conflict(
                _("continuing would leave fewer than two players: wait or end the game"),
                code="cannot_continue",
            )
        if choice == "wait":
            wait.stage = AbsentWait.Stage.WAITING
            wait.waits += 1
            wait.choice = "wait"
            wait.decided_by = user
            wait.save(update_fields=["stage", "waits", "choice", "decided_by", "updated_at"])
            _wait(locked, wait.position, now, by_host=True)
        else:
            _decide(locked, wait, choice, user=user)
    locked.refresh_from_db()
    return locked
