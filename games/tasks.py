"""Background work of the games: deadlines, bot moves, and the messages to players.

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

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from games import bot_ratings
from games.challenges import services as challenges
from games.chips import services as chips
from games.notify import digests, notices, push, reminders
from games.play import bot_turns, premoves, timeouts
from games.review import compute as review
from remi_site.outage import DATABASE_DOWN

logger = logging.getLogger(__name__)


# ------------------------------------------------------------------ bots

# Eager mode (tests) runs a task inside the commit hook of the move before it: a
# bot game would recurse once per move. The first task on the stack drives the
# rest in a loop instead.
_local = threading.local()


@shared_task(name="games.tasks.bot_move", ignore_result=True)
def bot_move(game_pk: int, ply: int) -> None:
    """The bot to move at ``ply`` decides and plays, or keeps its decision for the
    rest of its pause and queues ``bot_move_apply`` for then (nothing if the game has
    moved on). The worker never waits the pause out."""
    pending: list[tuple[int, int]] | None = getattr(_local, "pending", None)
    if pending is not None:
        pending.append((game_pk, ply))
        return
    _local.pending = queue = [(game_pk, ply)]
    try:
        while queue:
            next_game, next_ply = queue.pop(0)
            turn = bot_turns.bot_decide(game_pk=next_game, ply=next_ply)
            if turn.apply_in_s > 0:
                bot_move_apply.apply_async((next_game, next_ply), countdown=turn.apply_in_s)
    finally:
        del _local.pending


@shared_task(name="games.tasks.bot_move_apply", ignore_result=True)
def bot_move_apply(game_pk: int, ply: int) -> int:
    """The decision the bot to move at ``ply`` kept is played, its pause over (a
    stale one is dropped: the game moved on); returns the new ply, 0 if none."""
    return bot_turns.bot_apply(game_pk=game_pk, ply=ply)


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


@shared_task(name="games.tasks.premove_apply", ignore_result=True)
def premove_apply(game_pk: int, ply: int) -> bool:
    """The turn came at ``ply`` to a player who queued a draw: apply it (guarded by
    the ply; nothing if the game has moved on)."""
    return premoves.premove_apply(game_pk=game_pk, ply=ply)


# ------------------------------------------------------------------ deadlines


@shared_task(name="games.tasks.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> int:
    """Apply the timeout policy to every overdue game, and deal the next deal of every
    live table whose pause between deals is over; returns how many were handled."""
    now = timezone.now()
    done = 0
    for game_pk, ply in timeouts.overdue_games(now):
        try:
            if timeouts.timeout_apply(game_pk=game_pk, ply=ply, now=now):
                done += 1
        except Exception:
            logger.exception("timeout of game %s at ply %s failed", game_pk, ply)
    for game_pk, ply in timeouts.due_pauses(now):
        try:
            if timeouts.pause_end(game_pk=game_pk, ply=ply, now=now):
                done += 1
        except Exception:
            logger.exception("the next deal of game %s at ply %s failed", game_pk, ply)
    return done


# ------------------------------------------------------------------ messages
# Queued by name by the publisher after a commit (games.live.publisher); the work is
# in games.notify.

# A message whose task finds the database down goes once it is back, rather than
# never: retried after 5, 10, 20 s … (at most 5 min apart; about 15 minutes in all).
# Its first read is the database's, before anything is sent, and a notice claims its
# one sending in Redis: a retry sends nothing twice.
WHILE_THE_DATABASE_IS_DOWN = {
    "autoretry_for": DATABASE_DOWN,
    "retry_backoff": 5,
    "retry_backoff_max": 300,
    "retry_jitter": True,
    "max_retries": 8,
}


@shared_task(name="games.tasks.your_turn_email", ignore_result=True, **WHILE_THE_DATABASE_IS_DOWN)
def your_turn_email(game_pk: int, ply: int, user_id: int, again: bool = False) -> bool:
    """Tell the player it is their turn at ``ply`` (an email, a push), if the game
    still waits for them and they want to hear of it. While they have the table in
    view, asked again ``TURN_NOTICE_UNSEEN_S`` later (sent then if still unseen)."""
    turn = notices.turn_notice(game_pk=game_pk, ply=ply, user_id=user_id, again=again)
    if turn is notices.Turn.LATER:
        your_turn_email.apply_async(
            (game_pk, ply, user_id, True), countdown=settings.TURN_NOTICE_UNSEEN_S
        )
    return turn is notices.Turn.SENT


@shared_task(name="games.tasks.strike_notice", ignore_result=True, **WHILE_THE_DATABASE_IS_DOWN)
def strike_notice(game_id: str, ply: int, position: int, strikes: int, out: bool) -> bool:
    """Tell a player their time ran out and the server played their turn."""
    return notices.strike_notice(
        game_id=game_id, ply=ply, position=position, strikes=strikes, out=out
    )


@shared_task(name="games.tasks.game_over_notice", ignore_result=True, **WHILE_THE_DATABASE_IS_DOWN)
def game_over_notice(game_id: str) -> int:
    """Tell the players of a finished game its result."""
    return notices.game_over_notice(game_id=game_id)


@shared_task(name="games.tasks.sweep_expired_challenges", ignore_result=True)
def sweep_expired_challenges() -> int:
    """End the challenges (rematch offers) whose time to answer is up; how many."""
    return len(challenges.challenges_expire())


@shared_task(name="games.tasks.deal_review", ignore_result=True, **WHILE_THE_DATABASE_IS_DOWN)
def deal_review(game_id: str, number: int) -> bool:
    """Review an ended deal (``games.review``); whether there is a review now."""
    return review.deal_review_compute(game_id=game_id, number=number) is not None


@shared_task(name="games.tasks.challenge_notice", ignore_result=True, **WHILE_THE_DATABASE_IS_DOWN)
def challenge_notice(
    user_id: int,
    challenger: str,
    url: str,
    preset: str = "",
    challenge_id: str = "",
    from_username: str = "",
) -> int:
    """Tell a player they are challenged, as their settings ask (queue it after the
    challenge commits)."""
    return notices.challenge_notice(
        user_id=user_id,
        challenger=challenger,
        url=url,
        preset=preset,
        challenge_id=challenge_id,
        from_username=from_username,
    )


# Routed to the "push" queue (CELERY_TASK_ROUTES): its own worker waits on the push
# services. The notice's own budget ends it first; the time limits stop one that a
# server keeps busy past it (a read that trickles, a slow DNS answer).
@shared_task(
    name="games.tasks.push_deliver",
    ignore_result=True,
    soft_time_limit=settings.PUSH_NOTICE_BUDGET_S + 10,
    time_limit=settings.PUSH_NOTICE_BUDGET_S + 20,
    **WHILE_THE_DATABASE_IS_DOWN,
)
def push_deliver(user_id: int, payload: dict[str, str], ttl: int) -> int:
    """Send a notice's push to every browser of the user."""
    return push.push_deliver(user_id=user_id, payload=payload, ttl=ttl)


@shared_task(name="games.tasks.send_reminders", ignore_result=True)
def send_reminders(now: datetime | None = None) -> int:
    """Remind correspondence players before their deadlines, at the lead times each
    chose; returns how many were reminded."""
    return reminders.reminders_send(now or timezone.now())


@shared_task(name="games.tasks.send_daily_digests", ignore_result=True)
def send_daily_digests(now: datetime | None = None) -> int:
    """One email a day to players who chose the digest: the games waiting for them."""
    return digests.digests_send(now or timezone.now())


@shared_task(name="games.tasks.bot_ratings_update", ignore_result=True)
def bot_ratings_update() -> int:
    """Count the latest games against people into the built-in bots' ratings
    (``games.bot_ratings``); how many were counted."""
    return bot_ratings.bot_ratings_update()


# ------------------------------------------------------------------ play chips


@shared_task(name="games.tasks.chips_top_up", ignore_result=True)
def chips_top_up() -> int:
    """Today's (UTC) top-up of every account: beat runs it hourly, it pays once a day."""
    return chips.top_up_daily(day=timezone.now().date())


__all__ = [
    "bot_move",
    "bot_move_apply",
    "bot_ratings_update",
    "chips_top_up",
    "challenge_notice",
    "game_over_notice",
    "deal_review",
    "premove_apply",
    "push_deliver",
    "send_daily_digests",
    "send_reminders",
    "strike_notice",
    "sweep_deadlines",
    "sweep_stalled_bot_turns",
    "your_turn_email",
]
