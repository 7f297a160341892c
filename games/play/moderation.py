"""Moderators' commands on games, each writing its modlog row in the transaction of
the change: abort a game, adjudicate one, hide a line of chat, take back an account's
rated results; and what a ban does to the banned player's play (``ban_enforce``).

The interfaces (the admin) call these; the game changes themselves are the commands
of ``games.play`` (``lobby``, ``resign``) and ``games.play.chat``, and ``games.ratings``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext

from accounts.models import ModAction, Report
from accounts.moderation.errors import Conflict as ModerationConflict
from accounts.moderation.modlog import modlog_record, reason_clean
from accounts.moderation.services import target_check
from games import ratings
from games.errors import Conflict, GameError, InvalidRequest
from games.live.publisher import user_group
from games.models import ChatMessage, Game, Seat
from games.play import chat
from games.play.lobby import game_abort, game_leave
from games.play.resign import game_resign, game_seat_out, game_seat_out_and_end

logger = logging.getLogger(__name__)

# A command that names the ply it expects is tried again this often when the game
# moved on under it (a move landed between the read and the lock).
_ATTEMPTS = 5

# The channel-layer message that closes a user's websockets (``account_closed`` in
# ``games.live.consumers``).
ACCOUNT_CLOSED = "account.closed"


def game_abort_moderated(*, game: Game, moderator: User, reason: str) -> Game:
    """Abort ``game`` (no result; nobody's rating moves) for ``reason``."""
    reason = reason_clean(reason)
    with transaction.atomic():
        aborted = game_abort(game=game, user=None)
        modlog_record(
            moderator=moderator, action=ModAction.Action.ABORT, reason=reason, game=aborted
        )
    return aborted


def game_adjudicate(*, game: Game, position: int, moderator: User, reason: str) -> Game:
    """End a running ``game`` against the player of seat ``position``: their seat is
    out (logged as the server's ``resign`` with reason ``adjudicated``) and the match
    ends, the lowest total among the others winning; a rated game is rated."""
    reason = reason_clean(reason)
    if not 0 <= position < game.players:
        raise InvalidRequest(
            gettext("the game has seats 0 to %(value)s") % {"value": game.players - 1},
            code="invalid_seat",
        )
    for _ in range(_ATTEMPTS):
        game = Game.objects.get(pk=game.pk)
        seat = Seat.objects.select_related("user").get(game=game, position=position)
        if game.status != Game.Status.ACTIVE:
            raise Conflict(gettext("the game is not being played"), code="game_not_active")
        if seat.status == Seat.Status.OUT:
            raise Conflict(
                gettext("seat %(position)s is out already") % {"position": position},
                code="seat_out",
            )
        with transaction.atomic():
            ended = game_seat_out_and_end(
                game=game, position=position, expected_ply=game.ply, reason="adjudicated"
            )
            if ended is not None:
                modlog_record(
                    moderator=moderator,
                    action=ModAction.Action.ADJUDICATE,
                    reason=reason,
                    target=seat.user,
                    game=ended,
                    details={"loser": position, "winners": list(ended.winners)},
                )
                return ended
    raise Conflict(gettext("the game kept moving: try again"), code="conflict")


def chat_hide(
    *, message: ChatMessage, moderator: User, reason: str, report: Report | None = None
) -> bool:
    """Hide a chat line from everyone; ``False`` (and no modlog row) when it was
    hidden already. The modlog row links the game, and the report the moderator came
    from."""
    reason = reason_clean(reason)
    with transaction.atomic():
        hidden = chat.hide_message(message=message, moderator=moderator)
        if hidden:
            modlog_record(
                moderator=moderator,
                action=ModAction.Action.HIDE_CHAT,
                reason=reason,
                target=message.user,
                game=message.game,
                report=report,
                details={"message": message.pk, "text": message.text},
            )
    return hidden


def chat_show(
    *, message: ChatMessage, moderator: User, reason: str, report: Report | None = None
) -> bool:
    """Show a hidden chat line again (a hide undone); ``False`` (and no modlog row)
    when it was not hidden."""
    reason = reason_clean(reason)
    with transaction.atomic():
        shown = chat.show_message(message=message)
        if shown:
            modlog_record(
                moderator=moderator,
                action=ModAction.Action.SHOW_CHAT,
                reason=reason,
                target=message.user,
                game=message.game,
                report=report,
                details={"message": message.pk},
            )
    return shown


def results_revert(*, user: User, moderator: User, reason: str) -> dict[str, int]:
    """Take back the rated results of every game ``user`` played (for all its players)
    and recompute the ratings of each rule family from there. Returns the games taken
    back per family."""
    target_check(moderator=moderator, user=user)
    reason = reason_clean(reason)
    with transaction.atomic():
        reverted = ratings.results_revert(user=user)
        if not reverted:
            raise ModerationConflict(f"{user} has no rated results to take back", code="no_results")
        modlog_record(
            moderator=moderator,
            action=ModAction.Action.REVERT,
            reason=reason,
            target=user,
            details={"games": reverted},
        )
    return reverted


# ------------------------------------------------------------------ bans


@dataclass
class BanEnforced:
    """What ``ban_enforce`` did: the public ids of the games forfeited and left."""

    forfeited: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)


def ban_enforce(*, user: User) -> BanEnforced:
    """End the play of a player whose ban has committed: each running game is forfeited
    (their seat is out, logged as the server's ``resign`` with reason ``banned``; with
    fewer than two players left the game ends and is rated like any game that ends so;
    the table gets the move and ``game_over`` events), each lobby seat is given up (a
    game they host is aborted), and their open websockets are closed (4410)."""
    # First the sockets: the banned player receives nothing of what follows.
    sockets_close(user_id=user.pk, reason="banned")
    return play_end(user=user, forfeit=True)


def play_end(*, user: User, forfeit: bool) -> BanEnforced:
    """End the play of an account that may play no more: each running game forfeited
    (``forfeit``: a ban, the server's ``resign`` with reason ``banned``) or resigned as
    the player would (a deletion, a deactivation), each lobby seat given up (a game they
    host is aborted). One game at a time, each in the games' own transaction; a game
    that moved on meanwhile is skipped. Idempotent."""
    done = BanEnforced()
    running = (
        Seat.objects.filter(user=user, game__status=Game.Status.ACTIVE)
        .exclude(status=Seat.Status.OUT)
        .select_related("game")
    )
    for seat in running:
        if _forfeit(seat) if forfeit else _resign(seat, user):
            done.forfeited.append(seat.game.public_id)
    done.left = lobby_seats_give_up(user=user)
    return done


def lobby_seats_give_up(*, user: User, rated_only: bool = False) -> list[str]:
    """Give up the user's seats in games not started (only rated ones with
    ``rated_only``: a playban); a game they host is aborted. The public ids."""
    seats = Seat.objects.filter(user=user, game__status=Game.Status.LOBBY).select_related("game")
    if rated_only:
        seats = seats.filter(game__rated=True)
    left = []
    for seat in seats.order_by("game_id"):
        try:
            game_leave(game=seat.game, user=user)
        except GameError as exc:
            # The game started or ended meanwhile: the running games are seen to apart.
            logger.info("lobby seat of %s in %s: %s", user.pk, seat.game.public_id, exc.code)
            continue
        left.append(seat.game.public_id)
    return left


def _resign(seat: Seat, user: User) -> bool:
    try:
        game_resign(game=seat.game, user=user)
    except GameError as exc:
        # The game ended meanwhile: nothing is left to give up.
        logger.info("resigning %s for %s: %s", seat.game.public_id, user.pk, exc.code)
        return False
    return True


def _forfeit(seat: Seat) -> bool:
    for _ in range(_ATTEMPTS):
        game = Game.objects.get(pk=seat.game_id)
        if game.status != Game.Status.ACTIVE:
            return False
        done = game_seat_out(
            game=game, position=seat.position, expected_ply=game.ply, reason="banned"
        )
        if done is not None:
            return True
    logger.warning("could not forfeit game %s of banned user %s", seat.game_id, seat.user_id)
    return False


def sockets_close(*, user_id: int, reason: str) -> None:
    """Close every open websocket of the user (their connections are all in their user
    group). A broken channel layer is logged: the handshake check refuses them anyway."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            user_group(user_id), {"type": ACCOUNT_CLOSED, "reason": reason}
        )
    except Exception:
        logger.exception("could not close the websockets of user %s", user_id)
