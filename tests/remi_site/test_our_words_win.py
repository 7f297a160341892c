"""Every text our catalogues translate reads as ours: Django merges the catalogues of
``LOCALE_PATHS`` first, then the apps' in the order of ``INSTALLED_APPS``, and the first
that holds a text wins. A text that accounts' or games' catalogue holds and an app
listed before them holds too (Django's admin, django-axes, DRF) is read from that app:
django-axes' Polish "próba dostępu" stood in the admin where ours said "próba
logowania". Such a text belongs in the site's catalogue (``remi_site``)."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils import translation

ROOT = Path(settings.BASE_DIR)
CATALOGUES = ("locale", "accounts/locale", "games/locale")
LANGUAGES = {"mk": "mk", "pl": "pl", "sr_Latn": "sr-latn", "sr_Cyrl": "sr-cyrl"}


@pytest.mark.parametrize("folder", sorted(LANGUAGES))
def test_each_text_our_catalogues_translate_is_read_as_ours(folder: str) -> None:
    overridden = []
    for catalogue in CATALOGUES:
        po = polib.pofile(str(ROOT / catalogue / folder / "LC_MESSAGES" / "django.po"))
        with translation.override(LANGUAGES[folder]):
            for entry in po.translated_entries():
                if entry.msgid_plural or entry.obsolete:
                    continue
                read = (
                    translation.pgettext(entry.msgctxt, entry.msgid)
                    if entry.msgctxt
                    else translation.gettext(entry.msgid)
                )
                if read != entry.msgstr:
                    overridden.append(f"{catalogue}: {entry.msgid!r} reads {read!r}")
    assert overridden == []
