"""Deleting one's account.

The account's row stays, anonymised, because its games belong to the other players
too: finished games, their results, the statistics and the ratings they made stay
exactly as they were, and the deleted player shows as "Deleted player". What goes:
the name (the username becomes ``deleted-<id>``), the email addresses, the profile,
the password, every API token and every session (an inactive user with another
password hash: Django ends the sessions on their next request, knox refuses the
tokens, and the tokens are deleted too). Then the account's lifecycle runs for the
deletion (``accounts.lifecycle``): every open websocket closed at once (4404), pending
challenges both ways cancelled with the reason, running games resigned through the
games' own command, seats in games that have not started given up, the calendar feed
and the push subscriptions gone.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import lifecycle
from accounts.models import (
    DELETED_DISPLAY_NAME,
    DELETED_USERNAME_PREFIX,
    ApiToken,
    Language,
    Profile,
)
from accounts.services import AccountError


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
    # Committed: no session, token or handshake of the account works any more, so
    # nothing acts for it while its games, challenges and feeds are let go.
    lifecycle.account_changed(user=user, change=lifecycle.Change.DELETION)
    _anonymise(user)


@transaction.atomic
def _close(user: User) -> None:
    """First, so that nothing acts for the account while its games are left: no session,
    token or login works from here on."""
    locked = User.objects.select_for_update().get(pk=user.pk)
    locked.is_active = False
    locked.set_unusable_password()
    # An update, not a save: the deactivation signal (``accounts.signals``) would run
    # the lifecycle for a deactivation too, and the deletion runs its own.
    User.objects.filter(pk=locked.pk).update(is_active=False, password=locked.password)
    ApiToken.objects.filter(user=locked).delete()
    user.is_active, user.password = locked.is_active, locked.password


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
