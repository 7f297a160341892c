"""What the sanctions in force do to play, asked by the commands of ``games.play``:
a muted player's chat line is refused (``games.play.chat``), a playbanned player may
not create, join or start a rated game, a banned, deleted or deactivated account takes
no seat and is challenged by nobody (``account_check``), and a rated game left for good
is counted towards a playban (``games.play.moves``).

The sanction state is read through ``accounts.moderation``; what a ban does to a
player's games is ``games.play.moderation.ban_enforce``.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.utils.translation import gettext

from accounts.models import Sanction, is_builtin_bot
from accounts.moderation import playbans
from accounts.moderation.selectors import (
    ban_in_force,
    mute_in_force,
    playban_in_force,
    sanction_details,
    sanction_message,
)
from games.errors import NotAllowed
from games.models import Game, Seat
from remi_site import formats


def _refusal(sanction: Sanction, code: str, message: str | None = None) -> NotAllowed:
    return NotAllowed(
        message or sanction_message(sanction), code=code, details=sanction_details(sanction)
    )


def account_check(*, user: User) -> None:
    """Refuse a seat, a challenge or an acceptance for an account that is deleted,
    deactivated or banned: ``NotAllowed`` ``account_unavailable``. Said the same way to
    everyone (the other player learns neither the ban's reason nor its end)."""
    # The rows, not ``user``: the object may have been read before the account closed.
    open_account = User.objects.filter(
        pk=user.pk, is_active=True, profile__deleted_at__isnull=True
    ).exists()
    if not open_account or ban_in_force(user_id=user.pk) is not None:
        raise NotAllowed(
            gettext("%(name)s's account is closed or suspended: it cannot play")
            % {"name": _display_name(user)},
            code="account_unavailable",
        )


def _display_name(user: User) -> str:
    profile = getattr(user, "profile", None)
    return profile.display_name if profile is not None else user.get_username()


def chat_check(*, user: User) -> None:
    """Refuse the line of a player muted in chat: ``NotAllowed`` ``muted``, with the
    reason and the end of the mute in its details."""
    mute = mute_in_force(user_id=user.pk)
    if mute is not None:
        raise _refusal(mute, "muted")


def playban_check(*, user: User, acting: User | None = None) -> None:
    """Refuse a rated game to ``user`` while a playban is in force: ``NotAllowed``
    ``playban``, saying until when and why. ``acting``: who asked, when not ``user``
    (a host starting the game reads whose playban it is). Casual games never ask."""
    playban = playban_in_force(user_id=user.pk)
    if playban is None:
        return
    if acting is None or acting.pk == user.pk:
        raise _refusal(playban, "playban")
    name = user.get_username()
    if playban.ends_at is None:
        message = gettext("%(name)s may not play a rated game") % {"name": name}
    else:
        when = f"{formats.moment(playban.ends_at, 'long')} ({formats.zone_name()})"
        message = gettext("%(name)s may not play a rated game until %(when)s") % {
            "name": name,
            "when": when,
        }
    raise _refusal(playban, "playban", message)


def seat_abandoned(*, game: Game, seat: Seat, reason: str) -> None:
    """The server put ``seat`` out of ``game`` for ``reason`` (``timeout``, ``absent``,
    ``banned``, ``adjudicated``): a rated game left for timeouts or absence counts
    towards a playban of its player. In the game's transaction, under its lock."""
    if game.rated and reason in playbans.ABANDON_REASONS and not is_builtin_bot(seat.user):
        playbans.abandonment_record(user=seat.user, game=game, reason=reason)
