"""The moderator role: one group, ``moderator``, with exactly the powers below.

Staff without the group (or these permissions given one by one) see no hidden hand
and may not act; superusers have every permission. Migration ``accounts 0004``
creates the group with a copy of this list (a migration must not change when this
module does): a change here needs a data migration of its own. After every
``migrate`` (and ``flush``, which empties the tables) a group that is missing is made
again from this list (:func:`moderator_group_ensure`).
"""

from __future__ import annotations

from typing import Any

from django.apps import apps as global_apps
from django.contrib.auth.management import create_permissions
from django.db import DEFAULT_DB_ALIAS

MODERATOR_GROUP = "moderator"

# What a moderator looks at: accounts, reports, sanctions, the modlog, games.
MODERATOR_VIEWS = (
    "auth.view_user",
    "accounts.view_profile",
    "accounts.view_report",
    "accounts.view_sanction",
    "accounts.view_abandonment",
    "accounts.view_fairplaymark",
    "accounts.view_modaction",
    "accounts.view_rating",
    "accounts.view_ratingchange",
    "games.view_game",
    "games.view_seat",
    "games.view_deal",
    "games.view_move",
    "games.view_chatmessage",
    "games.view_moderationaccess",
)

# What a moderator does. The games admin edits nothing by hand: ``change_game`` only
# unlocks its abort and adjudicate actions, ``change_chatmessage`` the hiding of a line.
MODERATOR_ACTS = (
    "games.view_hidden_cards",
    "games.change_game",
    "games.change_chatmessage",
    "accounts.ban_account",
    "accounts.mute_account",
    "accounts.lift_playban",
    "accounts.mark_account",
    "accounts.resolve_report",
)

MODERATOR_PERMISSIONS = MODERATOR_VIEWS + MODERATOR_ACTS

# The permission each moderator action needs (the admin checks these).
ABORT_OR_ADJUDICATE = "games.change_game"
HIDE_CHAT = "games.change_chatmessage"
SEE_HIDDEN_CARDS = "games.view_hidden_cards"
BAN = "accounts.ban_account"
MUTE = "accounts.mute_account"
LIFT_PLAYBAN = "accounts.lift_playban"
MARK = "accounts.mark_account"
RESOLVE_REPORT = "accounts.resolve_report"


def moderator_group_ensure(
    sender: Any = None, *, using: str = DEFAULT_DB_ALIAS, apps: Any = global_apps, **kwargs: Any
) -> None:
    """Make the moderator group with its powers if it does not exist (a ``post_migrate``
    receiver of the accounts app). The permissions are made first: those of a later
    app in ``INSTALLED_APPS`` would only come after the accounts app's signal."""
    Group = apps.get_model("auth", "Group")
    if Group.objects.using(using).filter(name=MODERATOR_GROUP).exists():
        return
    # The installed apps' configs, as Django's own receiver is given: those of a
    # migration state (``apps`` when migrating part of the way) are stubs without models.
    for app_config in global_apps.get_app_configs():
        create_permissions(app_config, verbosity=0, using=using, apps=apps)
    Permission = apps.get_model("auth", "Permission")
    permissions = []
    for name in MODERATOR_PERMISSIONS:
        app_label, codename = name.split(".")
        found = (
            Permission.objects.using(using)
            .filter(content_type__app_label=app_label, codename=codename)
            .first()
        )
        if found is None:
            # Migrating part of the way (to an earlier state, or one app first): the
            # models this power belongs to are not there yet. The migrate that brings
            # them makes the group.
            return
        permissions.append(found)
    group = Group.objects.using(using).create(name=MODERATOR_GROUP)
    group.permissions.set(permissions)
