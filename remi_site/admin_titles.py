"""The admin's titles that name a model (Django 5.2's msgids), in the site's catalogues.

Polish and Serbian decline a noun after a verb ("Dodaj grę"), and Django's catalogues put
the model's name there in the nominative ("Dodaj gra", "Odaberi partija za pregled").
Ours name the model after a colon, where the nominative is right ("Dodaj: gra"). The
site's catalogues are read before Django's (the apps' come after Django's admin, so
these could not live in the accounts' catalogue). Macedonian nouns have no case: its
titles are Django's, said to "ti". tests/moderation/test_admin_words.py reads them.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

ADMIN_TITLES = (
    gettext_noop("Add %s"),
    gettext_noop("Add %(name)s"),
    gettext_noop("Change %s"),
    gettext_noop("View %s"),
    gettext_noop("Select %s"),
    gettext_noop("Select %s to change"),
    gettext_noop("Select %s to view"),
)
