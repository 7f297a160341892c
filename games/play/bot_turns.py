"""Bot moves and "play now": the service side of the bots.

``bot_decide`` is run by a Celery task (``games.tasks.bot_move``) when a bot is to
move. It reads the bot seat's *view* of the deal and its memory of the deal's
public log (as that seat was shown it), asks ``games.bots.decide`` for the next
actions, and applies them through ``game_act`` as the bot user, with
the ply the task was scheduled for: a stale task changes nothing. The actions of
one decision are applied in one transaction, so the after-commit hook sees the
position after them and schedules the continuation (after a stock draw the bot
decides again with its new card).

When a person is at the table the move shows only after a pause
(``games.play.bot_pause``). The task does not wait it: it keeps the decision
(``games.play.bot_decisions``) and says how long is left, and the task queues
``games.tasks.bot_move_apply`` for then, which plays it (``bot_apply``).
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import is_builtin_bot
from games import bots
from games.bots import server_moves
from games.engine import Action, Ruleset
from games.engine.view import SeatView
from games.errors import GameError, IllegalMove, InvalidRequest
from games.models import Deal, Game, Move, Seat
from games.play import bot_decisions, bot_pause
from games.play.act import game_act
from games.play.create import game_create
from games.play.lobby import game_start
from games.read.replay import NON_ENGINE_KINDS, deal_as_dealt

logger = logging.getLogger(__name__)


def bot_budget_s() -> float:
    return float(settings.BOT_TIME_BUDGET_S)


def bot_memory(game: Game, row: Deal, seat: Seat) -> bots.BotMemory:
    """What ``seat`` was shown of the current deal: its own moves in their private
    form, everyone else's in their public form."""
    ruleset = Ruleset.from_dict(game.ruleset)
    first = deal_as_dealt(row, ruleset, game.players).view(seat.position)
    events = [
        move.private if move.seat_id == seat.pk and move.private else move.public
        for move in Move.objects.filter(deal=row).exclude(kind__in=NON_ENGINE_KINDS).order_by("ply")
    ]
    return bots.BotMemory.from_events(
        seat.position, game.players, events, initial_discard=first.discard
    )


@dataclass(frozen=True, slots=True)
class BotTurn:
    """What a bot's task did: ``ply`` is the game's ply after the actions it played (0
    when it played none: the game moved on, or no bot is to move); ``apply_in_s`` is
    more than 0 when it kept its decision instead, to be played (``bot_apply``) after
    that many seconds."""

    ply: int = 0
    apply_in_s: float = 0.0


@dataclass(frozen=True, slots=True)
class _BotToMove:
    game: Game
    row: Deal
    seats: list[Seat]
    seat: Seat
    view: SeatView


def bot_play(*, game_pk: int, ply: int) -> int:
    """Play the next actions of the bot to move at ``ply`` at once, with no pause;
    returns the new ply (0 when there was nothing to do)."""
    return bot_decide(game_pk=game_pk, ply=ply, pause=False).ply


def bot_decide(*, game_pk: int, ply: int, pause: bool = True) -> BotTurn:
    """The bot to move at ``ply`` decides, and plays at once or, when a person follows
    the table (and ``pause``), keeps its decision for the rest of its pause. A decision
    already kept for ``ply`` (a task run twice, or again by the bot sweep) is not made
    again: it is played if due, and otherwise its time left is returned."""
    found = _bot_to_move(game_pk, ply)
    if found is None:
        return BotTurn()
    watched = _person_at_table(found.seats)  # only then is a decision ever kept
    decision = bot_decisions.kept(game_pk=game_pk, ply=ply) if watched else None
    if decision is not None:
        left = (decision.due_at - timezone.now()).total_seconds()
        if left > 0 and pause:
            return BotTurn(apply_in_s=left)
        return BotTurn(ply=_play(found, decision.actions, ply))
    game, seat, view = found.game, found.seat, found.view
    ruleset = Ruleset.from_dict(game.ruleset)
    try:
        actions: list[Any] = bots.decide(
            seat.user.profile.bot_level or 2,
            view,
            bot_memory(game, found.row, seat),
            ruleset,
            random.Random(secrets.randbits(64)),
            time_budget_s=bot_budget_s(),
        )
    except Exception:
        logger.exception("bot %s failed to decide in game %s", seat.user, game.public_id)
        actions = []
    if pause and actions and watched:
        left = _pause_left(game, actions, hand_size=len(view.hand or ()))
        if left > 0:
            due_at = timezone.now() + timedelta(seconds=left)
            bot_decisions.keep(game_pk=game.pk, ply=ply, actions=actions, due_at=due_at)
            return BotTurn(apply_in_s=left)
    return BotTurn(ply=_play(found, actions, ply))


def bot_apply(*, game_pk: int, ply: int) -> int:
    """Play the decision kept for the bot to move at ``ply``, its pause over; returns
    the new ply. A stale decision (the game moved on) is dropped and 0 returned; with
    none kept for the bot still to move at ``ply`` (it was lost), the bot decides again
    and plays at once."""
    found = _bot_to_move(game_pk, ply)
    if found is None:
        bot_decisions.forget(game_pk=game_pk, ply=ply)
        return 0
    decision = bot_decisions.kept(game_pk=game_pk, ply=ply)
    if decision is None:
        return bot_decide(game_pk=game_pk, ply=ply, pause=False).ply
    return _play(found, decision.actions, ply)


def _bot_to_move(game_pk: int, ply: int) -> _BotToMove | None:
    """The game at ``ply`` with a built-in bot, still in the game, to move (None when
    the game moved on or a person is to move)."""
    game = Game.objects.filter(pk=game_pk, ply=ply, status=Game.Status.ACTIVE).first()
    if game is None:
        return None
    row = Deal.objects.get(game=game, number=game.deal_number)
    deal = row.restore(game.engine_ruleset())
    if deal.is_over:
        return None
    seats = list(Seat.objects.select_related("user__profile").filter(game=game))
    seat = next(seat for seat in seats if seat.position == deal.to_move)
    if not is_builtin_bot(seat.user) or seat.status == Seat.Status.OUT:
        return None
    return _BotToMove(game, row, seats, seat, deal.view(seat.position))  # all the bot may see


def _play(found: _BotToMove, actions: Sequence[Action | Mapping[str, Any]], ply: int) -> int:
    """Apply the bot's ``actions`` from ``ply`` (the kept decision, if any, dropped with
    them); an illegal choice is replaced by the server's plain move."""
    game, user = found.game, found.seat.user
    try:
        return _apply(game, user, actions, ply)
    except IllegalMove:
        logger.exception("bot %s chose an illegal action in %s", user, game.public_id)
    except GameError:
        # Stale: another task or a timeout moved the game on; the decision is dropped.
        bot_decisions.forget(game_pk=game.pk, ply=ply)
        return 0
    # A bot must never stall a game: fall back to the server's plain move.
    plain = server_moves.view_action(found.view, Ruleset.from_dict(game.ruleset))
    return _apply(game, user, [plain], ply)


def _person_at_table(seats: list[Seat]) -> bool:
    """Whether someone who follows the table is seated: a person still in the game."""
    return any(not seat.user.profile.is_bot and seat.status != Seat.Status.OUT for seat in seats)


def _pause_left(game: Game, actions: list[Any], *, hand_size: int) -> float:
    """What is left of the decision's pause (``games.play.bot_pause``), counted from the
    last move's commit (``updated_at``): the queued task and the thinking count."""
    pause = bot_pause.bot_pause_s(
        actions,
        hand_size=hand_size,
        bounds=bot_pause.PauseBounds.from_settings(),
        seed=bot_pause.pause_seed(game.pk, game.ply),
    )
    spent = (timezone.now() - game.updated_at).total_seconds()
    return bot_pause.remaining_pause_s(pause, spent_s=spent)


def stalled_bot_turns(
    now: datetime, *, stalled_for: timedelta, limit: int = 200
) -> list[tuple[int, int]]:
    """(game pk, ply) of active games where a built-in bot is to move and nothing has
    moved for ``stalled_for``: its queued task was lost (a Redis restart or flush, a
    worker killed holding it). Oldest first; an index on exactly these rows."""
    rows = (
        Game.objects.filter(
            status=Game.Status.ACTIVE, bot_to_move=True, updated_at__lte=now - stalled_for
        )
        .order_by("updated_at")
        .values_list("pk", "ply")[:limit]
    )
    return list(rows)


def _apply(game: Game, user: User, actions: Sequence[Action | Mapping[str, Any]], ply: int) -> int:
    if not actions:
        raise IllegalMove(_("the bot had nothing to play"), code="bot_no_action")
    with transaction.atomic():
        bot_decisions.forget(game_pk=game.pk, ply=ply)
        for action in actions:
            result = game_act(game=game, user=user, action=action, expected_ply=ply)
            ply = result.game.ply
            if result.game.status != Game.Status.ACTIVE:
                break
    return ply


# ------------------------------------------------------------------ play now


def game_play_now(
    *,
    user: User,
    preset: str,
    bots_count: int = 1,
    level: int = 2,
    time_control: str = Game.TimeControl.LIVE,
    seconds_per_turn: int | None = None,
    days_per_move: int | None = None,
) -> Game:
    """A game against ``bots_count`` built-in bots of ``level``, started at once (the
    first bot move, if a bot begins, is scheduled when it commits)."""
    from accounts.services import bots_ensure

    if not 1 <= bots_count <= 3:
        raise InvalidRequest(_("play against 1 to 3 bots"), code="too_many_bots")
    # The built-in ladder has one account per level: a table of several bots uses the
    # accounts of the nearest levels.
    ladder = sorted(bots_ensure(), key=lambda bot: abs((bot.profile.bot_level or 0) - level))
    chosen = ladder[:bots_count]
    with transaction.atomic():
        game = game_create(
            owner=user,
            preset=preset,
            players=bots_count + 1,
            time_control=time_control,
            seconds_per_turn=seconds_per_turn,
            days_per_move=days_per_move,
            bots=chosen,
        )
        return game_start(game=game, user=user)
