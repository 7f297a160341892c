"""The accounts' admin, a module per capability:

- ``profiles``: profiles, API tokens and ratings;
- ``users``: accounts, with their moderation (standing, record, action buttons);
- ``reports``: the report queue;
- ``sanctions``: sanctions, abandonments, fair-play marks and the pairs page;
- ``modlog``: the modlog, read-only for everyone;
- ``logins``: django-axes' login records, said in the moderators' languages;
- ``boolean_icons``: a yes/no column's icon, said in the reader's language;
- ``permissions``: the permissions to grant (users, groups), said in the reader's words;
- ``base``: the read-only bases and the links they share.

Moderation (the "moderator" group, ``accounts.moderation.roles``): an account's page
shows its sanctions, fair-play marks, reports and modlog, with a button for each
action the moderator may take (ban, unban, mute, unmute, lift a playban, mark, remove
a mark, take back rated results); the report queue links each report to its game,
the chat around the reported line and the account's record; the modlog is read-only
for everyone, superusers included. Every action asks for a reason and goes through a
service, which writes the modlog (``accounts.moderation.services``,
``games.play.moderation``).
"""

from django.contrib import admin

from accounts.admin import (
    boolean_icons,
    logins,
    modlog,
    permissions,
    profiles,
    reports,
    sanctions,
    users,
)
from accounts.moderation.hidden_columns import guard_registered

__all__ = [
    "boolean_icons",
    "logins",
    "modlog",
    "permissions",
    "profiles",
    "reports",
    "sanctions",
    "users",
]

# Django's and the libraries' admins (groups, login attempts), registered before these,
# get the same guard: no admin URL filters, searches or orders by a hidden column.
guard_registered(admin.site)
