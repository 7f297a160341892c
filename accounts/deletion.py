"""Deleting one's account.

The account's row stays, anonymised, because its games belong to the other players
too: finished games, their results, the statistics and the ratings they made stay
exactly as they were, and the deleted player shows as "Deleted player". What goes:
the name (the username becomes ``deleted-<id>``), the email addresses, the profile,
the password, every API token and every session (an inactive user with another
password hash: Django ends the sessions on their next request, knox refuses the
tokens, and the tokens are deleted too), and every open websocket (closed at once
with 4404). Running games are resigned first, through the games' own command, and
seats in games that have not started are given up.
"""

from __future__ import annotations

import logging

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import (
    DELETED_DISPLAY_NAME,
    DELETED_USERNAME_PREFIX,
    ApiToken,
    Language,
    Profile,
)
from accounts.services import AccountError
from games.errors import GameError
from games.models import Game, Seat
from games.play.lobby import game_leave
from games.play.moderation import sockets_close
from games.play.resign import game_resign

log = logging.getLogger(__name__)


class WrongPassword(AccountError):
    code = "wrong_password"


class CannotDelete(AccountError):
    code = "cannot_delete"


def account_delete(*, user: User, password: str) -> None:
    """Delete the user's account, confirmed by their password (see the module)."""
    if user.profile.is_builtin_bot:
        raise CannotDelete(_("A built-in bot's account cannot be deleted."))
    if not user.check_password(password):
        raise WrongPassword(_("That is not your password."))
    _close(user)
    # Its open websockets too, at once: a handshake would be refused from now on, and
    # nothing of what follows is for the account any more.
    sockets_close(user_id=user.pk, reason="deleted")
    _leave_games(user)
    _anonymise(user)


@transaction.atomic
def _close(user: User) -> None:
    """First, so that nothing acts for the account while its games are left: no session,
    token or login works from here on."""
    locked = User.objects.select_for_update().get(pk=user.pk)
    locked.is_active = False
    locked.set_unusable_password()
    locked.save(update_fields=["is_active", "password"])
    ApiToken.objects.filter(user=locked).delete()
    user.is_active, user.password = locked.is_active, locked.password


def _leave_games(user: User) -> None:
    """Resign every running game, give up every seat in a lobby (a host's lobby is
    aborted). One game at a time, each in the games' own transaction."""
    seats = (
        Seat.objects.filter(user=user, game__status__in=[Game.Status.LOBBY, Game.Status.ACTIVE])
        .exclude(status=Seat.Status.OUT)
        .select_related("game")
        .order_by("game_id")
    )
    for seat in list(seats):
        game = seat.game
        try:
            if game.status == Game.Status.ACTIVE:
                game_resign(game=game, user=user)
            else:
                game_leave(game=game, user=user)
        except GameError as exc:
            # The game moved on meanwhile (it ended, or started and ended): nothing
            # is left to give up.
            log.info("leaving game %s on account deletion: %s", game.public_id, exc.code)


@transaction.atomic
def _anonymise(user: User) -> None:
    locked = User.objects.select_for_update().get(pk=user.pk)
    locked.username = f"{DELETED_USERNAME_PREFIX}{locked.pk}"
    locked.first_name = locked.last_name = locked.email = ""
    locked.is_staff = locked.is_superuser = False
    locked.save(
        update_fields=["username", "first_name", "last_name", "email", "is_staff", "is_superuser"]
    )
    locked.groups.clear()
    locked.user_permissions.clear()
    Profile.objects.filter(user=locked).update(
        display_name=DELETED_DISPLAY_NAME,
        bio="",
        country="",
        avatar="",
        pending_email="",
        language=Language.EN,
        email_challenges=False,
        show_online=False,
        deleted_at=timezone.now(),
    )
    user.username, user.email = locked.username, locked.email
    user.profile.refresh_from_db()
