"""The timeout policy: what happens when a turn's deadline passes.

Called by the deadline sweep (every few seconds) and by per-move ETA tasks, with
the ply the deadline belongs to. The write itself is ``services.game_timeout_turn``
(game row claimed with ``SKIP LOCKED``, ply and deadline re-checked under the
lock), so a sweep, an ETA task and a restarted worker never apply one twice.

- Correspondence: the server plays the turn (draw, discard the worst non-joker
  card, or what the rules require) and counts a strike; after
  ``CORRESPONDENCE_STRIKES`` (3) in a row the seat is out (3-4 players: the game
  goes on, the server plays that seat's turns; 2 players: the other one wins).
- Live: the same with ``LIVE_STRIKES``; and when the player to move is not
  connected, the game first waits ``LIVE_ABSENT_WAIT_S`` (2 minutes, RULES.md
  §10) for them; if they are still away when that wait is over their seat is out.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db.models import Q
from django.utils import timezone

from games import notifications, services
from games.models import Deal, Game, Seat


def _int_setting(name: str, default: int) -> int:
    return int(getattr(settings, name, default))


def strike_limit(game: Game) -> int:
    if game.time_control == Game.TimeControl.LIVE:
        return _int_setting("LIVE_STRIKES", 3)
    return _int_setting("CORRESPONDENCE_STRIKES", 3)


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
    (``"played"``, ``"out"``, ``"waiting"``) or None when nothing was due."""
    now = now or timezone.now()
    game = Game.objects.filter(pk=game_pk, ply=ply, status=Game.Status.ACTIVE).first()
    if game is None or game.deadline_at is None or game.deadline_at > now:
        return None
    if game.time_control == Game.TimeControl.LIVE:
        absent = _absent_seat(game)
        if absent is not None:
            return _absent_player(game, absent, now)
    turn = services.game_timeout_turn(
        game=game, expected_ply=ply, strike_limit=strike_limit(game), now=now
    )
    if turn is None:
        return None
    return "out" if turn.out else "played"


def _absent_seat(game: Game) -> Seat | None:
    """The seat to move, if its player is a person with no connection to the game."""
    to_move = (
        Deal.objects.filter(game=game, number=game.deal_number)
        .values_list("state__to_move", flat=True)
        .first()
    )
    if to_move is None:
        return None
    seat = Seat.objects.select_related("user__profile").get(game=game, position=int(to_move))
    if seat.user.profile.is_bot:
        return None
    if seat.user_id in notifications.connected_users(game.public_id):
        return None
    return seat


def _absent_player(game: Game, seat: Seat, now: datetime) -> str | None:
    """RULES.md §10: wait for a disconnected live player, then continue without them."""
    wait = timedelta(seconds=float(getattr(settings, "LIVE_ABSENT_WAIT_S", 120)))
    marker = f"remi:absent-wait:{game.public_id}:{game.ply}"
    if cache.add(marker, 1, timeout=int(wait.total_seconds()) * 4 + 60):
        # First time this turn: give them the wait (a conditional update, same ply).
        new_deadline = now + wait
        moved = Game.objects.filter(pk=game.pk, ply=game.ply, deadline_at=game.deadline_at).update(
            deadline_at=new_deadline
        )
        if moved:
            notifications.publish_public_event(
                game.public_id,
                game.ply,
                {
                    "type": "waiting_for_player",
                    "seat": seat.position,
                    "deadline_at": new_deadline.isoformat(),
                },
            )
            return "waiting"
        return None
    out = services.game_seat_out(
        game=game, position=seat.position, expected_ply=game.ply, reason="absent"
    )
    return None if out is None else "out"
