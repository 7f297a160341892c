"""The texts django-axes' models and admin show, as django-axes writes them, for the
site's catalogue to say in the moderators' languages (``accounts/admin/logins.py``).

They live in the site's catalogue, not the accounts' one: Django reads the catalogues of
``LOCALE_PATHS`` first and the apps' in the order of ``INSTALLED_APPS``, where
django-axes comes before accounts, so its own Polish "próba dostępu" won over ours in
the admin's lists of models and permissions.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

AXES_WORDS = (
    gettext_noop("access attempt"),
    gettext_noop("access attempts"),
    gettext_noop("access log"),
    gettext_noop("access logs"),
    gettext_noop("access failure"),
    gettext_noop("access failures"),
    # Not in the admin, but named in the lists of permissions to grant.
    gettext_noop("access attempt expiration"),
    gettext_noop("access attempt expirations"),
    gettext_noop("User Agent"),
    gettext_noop("IP Address"),
    gettext_noop("Username"),
    gettext_noop("HTTP Accept"),
    gettext_noop("Path"),
    gettext_noop("Attempt Time"),
    gettext_noop("Logout Time"),
    gettext_noop("Access lock out"),
    gettext_noop("GET Data"),
    gettext_noop("POST Data"),
    gettext_noop("Failed Logins"),
    gettext_noop("Form Data"),
    gettext_noop("Meta Data"),
    gettext_noop("Locked Out"),
)
