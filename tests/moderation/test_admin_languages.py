"""The admin in each of the site's languages, beside the same page in English: no line
of it is left as English says it, but what the rows hold. The pseudo-locale's walk
(test_admin_pseudo_locale.py) finds text no catalogue marks; this finds text that a
catalogue marks and no catalogue translates into the language: Django's own admin
has no Macedonian for its newer words ("Skip to main content", "Toggle theme"), which
the site's catalogue then carries (remi_site/django_words.py)."""

from __future__ import annotations

from pathlib import Path

import django
import polib  # type: ignore[import-untyped]
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils.translation import to_locale

from accounts.models import Profile
from tests import pseudo_locale_kit as pseudo
from tests.browser.site_pages import make_site_data
from tests.moderation.admin_walk_kit import PROPER, admin_pages, data_words, said

pytestmark = pytest.mark.django_db(transaction=True)

LANGUAGES = ("mk", "sr-latn", "sr-cyrl", "pl")
ROOT = Path(settings.BASE_DIR)
DJANGO = Path(django.__file__).parent
# The site's catalogues (not a search of the tree: the virtualenv holds others).
SITE_CATALOGUES = (ROOT / "locale", ROOT / "games" / "locale", ROOT / "accounts" / "locale")


def kept_as_english(language: str) -> frozenset[str]:
    """The texts a language writes as English does ("Status" in Polish, "API"), in
    the site's catalogues or Django's: the same words by choice, not left over."""
    folder = to_locale(language)
    catalogues = [
        *(base / folder / "LC_MESSAGES" / "django.po" for base in SITE_CATALOGUES),
        *DJANGO.glob(f"**/locale/{folder.split('_')[0]}/LC_MESSAGES/django.po"),
    ]
    return frozenset(
        entry.msgid.rstrip(":")
        for path in catalogues
        for entry in polib.pofile(str(path))
        if entry.msgstr == entry.msgid
    )


def reader(language: str) -> Client:
    boss = get_user_model().objects.create_superuser(
        f"boss-{language}", f"boss-{language}@example.org", "pw-boss-1"
    )
    Profile.objects.filter(user=boss).update(language=language)
    client = Client()
    client.force_login(boss)
    return client


def test_no_admin_page_leaves_english_in_any_language() -> None:
    make_site_data()
    english, readers = reader("en"), {language: reader(language) for language in LANGUAGES}
    names = frozenset(data_words() | PROPER)
    kept = {language: kept_as_english(language) for language in LANGUAGES}

    found: dict[str, set[str]] = {}
    for url in admin_pages(english):
        in_english = {" ".join(line.split()) for line in said(english.get(url).content.decode())}
        for language, client in readers.items():
            answer = client.get(url)
            assert answer.status_code in (200, 403), f"{url}: {answer.status_code}"
            left = {
                line
                for line in (" ".join(text.split()) for text in said(answer.content.decode()))
                if line in in_english
                and line.rstrip(":") not in kept[language]
                and pseudo.unmarked_words(line, names)
            }
            if left:
                found.setdefault(language, set()).update(left)

    report = "\n".join(f"{language}: {sorted(lines)}" for language, lines in found.items())
    assert not found, "English left in the admin:\n" + report
