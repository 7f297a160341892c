"""One text reads one way in a language, whichever catalogue holds it.

The site has several catalogues per language (the templates', the scripts', the games
and the accounts apps'), and the same English text may be in more than one: the score
sheet is written by the server and by the table's script, a report's reason is chosen
in the script and listed in the admin. Translated twice, it read two ways ("затвори со
џокер" in the script, "излезе со џокер" on the server; "поен" and "бод"). A text that
means two things takes a context of its own (``pgettext``), so it is two entries.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import polib  # type: ignore[import-untyped]
import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
LOCALE_DIRS = [ROOT / "locale", ROOT / "games" / "locale", ROOT / "accounts" / "locale"]
LANGUAGES = ["mk", "sr_Latn", "sr_Cyrl", "pl"]

# (language, context, msgid) -> why it reads two ways. Empty: every difference found so
# far was one meaning worded twice or two meanings without a context.
MAY_DIFFER: dict[tuple[str, str | None, str], str] = {}

Key = tuple[str | None, str, str | None]


def catalogues(language: str) -> list[Path]:
    return sorted(po for base in LOCALE_DIRS for po in base.glob(f"{language}/LC_MESSAGES/*.po"))


def translation(entry: polib.POEntry) -> tuple[str, ...]:
    if entry.msgid_plural:
        return tuple(entry.msgstr_plural[index] for index in sorted(entry.msgstr_plural))
    return (entry.msgstr,)


def readings(language: str) -> dict[Key, dict[str, tuple[str, ...]]]:
    """Each text of the language -> catalogue -> its translation there."""
    found: dict[Key, dict[str, tuple[str, ...]]] = defaultdict(dict)
    for path in catalogues(language):
        for entry in polib.pofile(str(path)):
            if entry.obsolete or not any(translation(entry)):
                continue
            key = (entry.msgctxt, entry.msgid, entry.msgid_plural or None)
            found[key][str(path.relative_to(ROOT))] = translation(entry)
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_text_reads_the_same_in_every_catalogue_of_a_language(language: str) -> None:
    assert len(catalogues(language)) == 4, catalogues(language)
    differing = []
    for (context, msgid, _plural), where in readings(language).items():
        if len(set(where.values())) < 2 or (language, context, msgid) in MAY_DIFFER:
            continue
        said = "; ".join(f"{path}: {' | '.join(text)}" for path, text in sorted(where.items()))
        differing.append(f"{msgid!r} (context {context!r}) in {language}: {said}")
    assert not differing, "one text, two readings:\n" + "\n".join(differing)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalogues_of_a_language_count_plurals_alike(language: str) -> None:
    # The plural forms are compared by index above, which needs one rule for them all.
    rules = {
        str(path.relative_to(ROOT)): polib.pofile(str(path)).metadata.get("Plural-Forms")
        for path in catalogues(language)
    }
    assert len(set(rules.values())) == 1, rules


def test_what_may_differ_still_differs() -> None:
    for language, context, msgid in MAY_DIFFER:
        where = readings(language).get((context, msgid, None), {})
        assert len(set(where.values())) > 1, f"{msgid!r} reads one way in {language} now"
