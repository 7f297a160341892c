"""What a ban, a deletion, a deactivation or a playban of an account does to what the
games hold of it: the handlers of ``accounts.lifecycle``, registered by ``games.apps``
when the app is ready (the accounts side may not import the games' writers).

In the order they run:

- ``websockets``: every open connection of the account closed (4410 for a ban, 4404
  for a deletion or a deactivation), so that it receives nothing of what follows;
- ``challenges``: its pending challenges both ways cancelled with the reason the
  other account reads (a playban: the rated ones only);
- ``games``: its running games forfeited (a ban) or resigned (a deletion, a
  deactivation), and its seats in games not started given up (a playban: in rated
  ones only);
- ``calendar``: its calendar URL retired (404 from then on);
- ``push``: its Web Push subscriptions deleted.

A mute silences the account in the table chats (``games.play.chat`` reads it) and
holds nothing else: no handler. Emails stop with the change because every one asks
``games.notify.recipients.is_reachable`` before it goes.
"""

from __future__ import annotations

from django.contrib.auth.models import User

from accounts.lifecycle import CLOSING, Change, handler_register
from games.challenges.services import challenges_cancel_for
from games.models import Challenge, PushSubscription
from games.notify.calendar import feed_retire
from games.play.moderation import lobby_seats_give_up, play_end, sockets_close

# The reason the other side of a cancelled challenge reads, per change.
CANCEL_REASONS = {
    Change.BAN: Challenge.CancelReason.BANNED,
    Change.DELETION: Challenge.CancelReason.DELETED,
    Change.DEACTIVATION: Challenge.CancelReason.CLOSED,
    Change.PLAYBAN: Challenge.CancelReason.PLAYBAN,
}

# How the account's websockets close (``games.live.consumers.CLOSE_CODES_BY_REASON``).
SOCKET_REASONS = {
    Change.BAN: "banned",
    Change.DELETION: "deleted",
    Change.DEACTIVATION: "deactivated",
}


def websockets_close(user: User, change: Change) -> None:
    sockets_close(user_id=user.pk, reason=SOCKET_REASONS[change])


def challenges_cancel(user: User, change: Change) -> list[str]:
    return challenges_cancel_for(
        user=user, reason=CANCEL_REASONS[change], rated_only=change == Change.PLAYBAN
    )


def games_end(user: User, change: Change) -> dict[str, list[str]]:
    if change == Change.PLAYBAN:
        return {"forfeited": [], "left": lobby_seats_give_up(user=user, rated_only=True)}
    done = play_end(user=user, forfeit=change == Change.BAN)
    return {"forfeited": done.forfeited, "left": done.left}


def calendar_retire(user: User, change: Change) -> bool:
    return feed_retire(user_id=user.pk)


def push_subscriptions_delete(user: User, change: Change) -> int:
    deleted, _ = PushSubscription.objects.filter(user_id=user.pk).delete()
    return deleted


def register() -> None:
    handler_register("websockets", changes=CLOSING, run=websockets_close)
    handler_register("challenges", changes=CLOSING | {Change.PLAYBAN}, run=challenges_cancel)
    handler_register("games", changes=CLOSING | {Change.PLAYBAN}, run=games_end)
    handler_register("calendar", changes=CLOSING, run=calendar_retire)
    handler_register("push", changes=CLOSING, run=push_subscriptions_delete)
