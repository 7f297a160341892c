"""The daily digest: one email a day to the players who chose it instead of an email
per move, listing the correspondence games waiting for their move."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import F, Prefetch

from games.models import Game, PlayerSettings, Seat
from games.notify import links, recipients, wording
from games.notify.messages import email_send, recipient_locale
from games.notify.tokens import Kind

# A digest is sent at most once in this long (beat looks every hour).
_EVERY = timedelta(hours=23)


def digests_send(now: datetime) -> int:
    """Send the digests due at ``now``; returns how many were sent."""
    sent = 0
    for prefs in PlayerSettings.objects.filter(
        email_turns=PlayerSettings.EmailTurns.DAILY
    ).select_related("user__profile"):
        if prefs.last_digest_at is not None and prefs.last_digest_at > now - _EVERY:
            continue
        user = prefs.user
        if not user.email or recipients.is_bot_account(user):
            continue
        waiting = _waiting_games(user.pk)
        if not waiting or recipients.is_connected(user.pk):
            continue
        # Claim the digest (a conditional update): two workers never both send it.
        claimed = PlayerSettings.objects.filter(
            pk=prefs.pk, last_digest_at=prefs.last_digest_at
        ).update(last_digest_at=now)
        if not claimed:
            continue
        with recipient_locale(user, prefs):
            games = [
                {
                    **wording.about(game, list(game.seats.all()), user.pk),
                    "url": links.game_url(game.public_id),
                    "deadline": game.deadline_at,
                    "left": ""
                    if game.deadline_at is None
                    else wording.time_left(game.deadline_at - now),
                }
                for game in waiting
            ]
            email_send(
                user=user,
                prefs=prefs,
                template="digest",
                kind=Kind.DIGEST,
                context={"games": games, "count": len(games)},
            )
        sent += 1
    return sent


def _waiting_games(user_id: int) -> list[Game]:
    """The user's active correspondence games waiting for their move (but the muted
    ones), soonest deadline first, with their seats' players."""
    return list(
        Game.objects.filter(
            status=Game.Status.ACTIVE,
            time_control=Game.TimeControl.CORRESPONDENCE,
            seats__user_id=user_id,
            seats__position=F("to_move"),
        )
        .exclude(mutes__user_id=user_id)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user__profile")))
        .order_by(F("deadline_at").asc(nulls_last=True), "pk")
    )
