"""Background work of the games: deadlines, bot moves, reminders and emails.

Every task is idempotent and guarded by the game's ply: a task that runs twice,
late, or after a restart changes nothing once the game has moved on. Deadlines
live in the database, so the beat sweep (``sweep_deadlines``, every
``DEADLINE_SWEEP_S`` seconds) finds every overdue game, and the bot sweep
(``sweep_stalled_bot_turns``) every bot turn whose task was lost. Tasks are thin:
load ids, call a service.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta
from typing import Any

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.core.mail import send_mail
from django.utils import timezone

from games import clock
from games.live import presence, publisher
from games.models import Game, PlayerSettings, Seat
from games.play import bot_turns, timeouts

logger = logging.getLogger(__name__)


# ------------------------------------------------------------------ after a commit


# ------------------------------------------------------------------ bots

# Eager mode (tests) runs a task inside the commit hook of the move before it: a
# bot game would recurse once per move. The first task on the stack drives the
# rest in a loop instead.
_local = threading.local()


@shared_task(name="games.tasks.bot_move", ignore_result=True)
def bot_move(game_pk: int, ply: int) -> None:
    """The bot to move at ``ply`` plays (nothing if the game has moved on)."""
    pending: list[tuple[int, int]] | None = getattr(_local, "pending", None)
    if pending is not None:
        pending.append((game_pk, ply))
        return
    _local.pending = queue = [(game_pk, ply)]
    try:
        while queue:
            next_game, next_ply = queue.pop(0)
            bot_turns.bot_play(game_pk=next_game, ply=next_ply)
    finally:
        del _local.pending


@shared_task(name="games.tasks.sweep_stalled_bot_turns", ignore_result=True)
def sweep_stalled_bot_turns() -> int:
    """Queue again the move of every bot whose turn has stalled (its task was lost);
    returns how many were queued. Each (game, ply) at most once per ``BOT_STALL_S``,
    and the move itself is guarded by the ply: a late original task does nothing."""
    stall_s = float(settings.BOT_STALL_S)
    queued = 0
    for game_pk, ply in bot_turns.stalled_bot_turns(
        timezone.now(), stalled_for=timedelta(seconds=stall_s)
    ):
        if not _claim(f"remi:bot-rescue:{game_pk}:{ply}", timeout=stall_s):
            continue
        logger.warning("bot turn of game %s at ply %s stalled: queued again", game_pk, ply)
        bot_move.delay(game_pk, ply)
        queued += 1
    return queued


def _claim(key: str, *, timeout: float) -> bool:
    """Whether this caller is the first to claim ``key`` for ``timeout`` seconds (a lost
    cache claims again: a duplicate bot task is a no-op, a missing one a stalled game)."""
    try:
        return bool(cache.add(key, 1, timeout=timeout))
    except Exception:
        logger.warning("cache unavailable: claiming %s without it", key)
        return True


# ------------------------------------------------------------------ deadlines


@shared_task(name="games.tasks.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> int:
    """Apply the timeout policy to every overdue game; returns how many were handled."""
    now = timezone.now()
    done = 0
    for game_pk, ply in timeouts.overdue_games(now):
        try:
            if timeouts.timeout_apply(game_pk=game_pk, ply=ply, now=now):
                done += 1
        except Exception:
            logger.exception("timeout of game %s at ply %s failed", game_pk, ply)
    return done


# ------------------------------------------------------------------ emails


def _site_url() -> str:
    return str(settings.SITE_URL).rstrip("/")


def _waiting_for(game: Game, user_id: int) -> bool:
    """Whether it is ``user_id``'s turn in the active ``game``."""
    return (
        game.to_move is not None
        and Seat.objects.filter(game=game, user_id=user_id, position=game.to_move).exists()
    )


@shared_task(name="games.tasks.your_turn_email", ignore_result=True)
def your_turn_email(game_pk: int, ply: int, user_id: int) -> bool:
    """Email "your turn" if the user wants one per move, is not connected, and the
    game still waits for them at ``ply``."""
    game = Game.objects.filter(pk=game_pk, ply=ply, status=Game.Status.ACTIVE).first()
    if game is None or not _waiting_for(game, user_id):
        return False
    prefs = PlayerSettings.objects.filter(user_id=user_id).select_related("user").first()
    user: Any = prefs.user if prefs else Seat.objects.get(game=game, user_id=user_id).user
    wants = prefs.email_turns if prefs else PlayerSettings.EmailTurns.EACH_MOVE
    if wants != PlayerSettings.EmailTurns.EACH_MOVE or not user.email:
        return False
    if presence.is_connected(user_id):
        return False
    if not cache.add(f"remi:turn-mail:{game.public_id}:{ply}", 1, timeout=7 * 86400):
        return False  # already sent for this turn
    deadline = game.deadline_at.strftime("%Y-%m-%d %H:%M UTC") if game.deadline_at else "none"
    send_mail(
        f"Your turn in Remi game {game.public_id}",
        f"It is your turn.\n\n{_site_url()}/games/{game.public_id}\n\nDeadline: {deadline}\n",
        None,
        [user.email],
    )
    return True


@shared_task(name="games.tasks.send_reminders", ignore_result=True)
def send_reminders() -> int:
    """Remind correspondence players when most of their move's time is gone
    (``REMINDER_FRACTION``, 80% by default), once per turn, unless they turned
    reminders off."""
    now = timezone.now()
    fraction = float(settings.REMINDER_FRACTION)
    sent = 0
    for game in Game.objects.filter(
        status=Game.Status.ACTIVE,
        time_control=Game.TimeControl.CORRESPONDENCE,
        deadline_at__gt=now,
        deadline_at__lte=now + timedelta(days=14),
    ):
        period = clock.move_period(game)
        assert game.deadline_at is not None
        if period is None or game.deadline_at - now > period * (1 - fraction):
            continue
        seat = _seat_to_move(game)
        if seat is None or seat.user.profile.is_bot:
            continue
        prefs = PlayerSettings.objects.filter(user=seat.user).first()
        if prefs is not None and not prefs.reminders:
            continue  # turned off by the player
        if not cache.add(f"remi:reminder:{game.public_id}:{game.ply}", 1, timeout=15 * 86400):
            continue
        publisher.publish_user_event(
            seat.user_id,
            game.public_id,
            game.ply,
            {"type": "reminder", "deadline_at": game.deadline_at.isoformat()},
        )
        if seat.user.email and (
            prefs is None or prefs.email_turns != PlayerSettings.EmailTurns.OFF
        ):
            send_mail(
                f"Remi game {game.public_id}: your move is due soon",
                f"Your move is due by {game.deadline_at:%Y-%m-%d %H:%M} UTC.\n\n"
                f"{_site_url()}/games/{game.public_id}\n",
                None,
                [seat.user.email],
            )
        sent += 1
    return sent


def _seat_to_move(game: Game) -> Seat | None:
    if game.to_move is None:
        return None
    return (
        Seat.objects.select_related("user__profile")
        .filter(game=game, position=game.to_move)
        .first()
    )


@shared_task(name="games.tasks.send_daily_digests", ignore_result=True)
def send_daily_digests(now: datetime | None = None) -> int:
    """One email a day to players who chose the digest: the games waiting for them."""
    now = now or timezone.now()
    since = now - timedelta(hours=23)
    sent = 0
    for prefs in PlayerSettings.objects.filter(
        email_turns=PlayerSettings.EmailTurns.DAILY
    ).select_related("user"):
        if prefs.last_digest_at is not None and prefs.last_digest_at > since:
            continue
        user = prefs.user
        waiting = [
            game
            for game in Game.objects.filter(
                status=Game.Status.ACTIVE,
                time_control=Game.TimeControl.CORRESPONDENCE,
                seats__user=user,
            )
            if _waiting_for(game, user.pk)
        ]
        if not waiting or not user.email or presence.is_connected(user.pk):
            continue
        # Claim the digest (a conditional update): two workers never both send it.
        claimed = PlayerSettings.objects.filter(
            pk=prefs.pk, last_digest_at=prefs.last_digest_at
        ).update(last_digest_at=now)
        if not claimed:
            continue
        lines = [f"- {_site_url()}/games/{game.public_id}" for game in waiting]
        send_mail(
            f"Remi: {len(waiting)} game(s) waiting for your move",
            "It is your turn in:\n" + "\n".join(lines) + "\n",
            None,
            [user.email],
        )
        sent += 1
    return sent


__all__ = [
    "bot_move",
    "sweep_stalled_bot_turns",
    "send_daily_digests",
    "send_reminders",
    "sweep_deadlines",
    "your_turn_email",
]
