"""The pseudo-locale in the tests: built from the English catalogues and offered for the
test's duration, and the check that finds text outside its markers (text no catalogue
translated: never marked, or put together from pieces). docs/translations.md, "The
pseudo-locale"."""

from __future__ import annotations

import calendar
import functools
import re
from collections.abc import Iterable
from typing import Any

from tests.script_kit import load_script

pseudo_locale = load_script("pseudo_locale")
LANGUAGE: str = pseudo_locale.LANGUAGE
OPEN: str = pseudo_locale.OPEN
CLOSE: str = pseudo_locale.CLOSE
MARKED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
WORD = re.compile(r"[^\W\d_]{2,}")

# Words that may stand outside the markers, each for its reason:
# - the keys' names as the keycaps print them (Enter, Esc, Shift, Tab), in every language;
KEY_NAMES = frozenset({"Enter", "Esc", "Shift", "Tab"})
# - month and weekday names that the browser's Intl (CLDR) writes for a date: in a real
#   language they are that language's; the pseudo-locale has no CLDR data of its own;
CLDR_DATE_WORDS = frozenset(
    name.rstrip(".")
    for names in (
        calendar.month_name,
        calendar.month_abbr,
        calendar.day_name,
        calendar.day_abbr,
    )
    for name in names
    if name
) | {"AM", "PM", "UTC", "GMT"}
# - the site's name, the game's and the card's words that are names in every language.
PROPER_NAMES = frozenset({"Remi", "Remik"})
ALLOWED = KEY_NAMES | CLDR_DATE_WORDS | PROPER_NAMES
# Addresses: links and email addresses.
ADDRESS = re.compile(r"https?://\S+|\S+@\S+")


def enable(settings: Any) -> str:
    """Build the pseudo-locale's catalogues and offer the language for this test (the
    ``settings`` fixture puts LANGUAGES back after it); its code."""
    pseudo_locale.build(settings.PSEUDO_LOCALE_PATH)
    # Changing LANGUAGES also drops the catalogues read so far (Django's
    # setting_changed): one read before this build is not kept.
    settings.LANGUAGES = [*settings.LANGUAGES, settings.PSEUDO_LANGUAGE]
    return LANGUAGE


def outside_markers(text: str) -> str:
    """The text with every marked message taken out (the inner ones first: a message
    may hold another's translation in a placeholder)."""
    while True:
        stripped = MARKED.sub(" ", text)
        if stripped == text:
            return stripped
        text = stripped


@functools.lru_cache(maxsize=16)
def _names_pattern(names: frozenset[str]) -> re.Pattern[str] | None:
    """``names``, each where it stands as a whole ("Ana", not the "ana" of "banana"),
    the longest first, in any case (a heading's CSS may show "ANA"). Compiled once per
    set: a page's walk asks for the same thousand names on every line."""
    if not names:
        return None
    pattern = "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{pattern})(?!\w)", flags=re.IGNORECASE)


def _taken_out(text: str, names: frozenset[str]) -> str:
    """The text without ``names`` (see ``_names_pattern``)."""
    pattern = _names_pattern(names)
    return pattern.sub(" ", text) if pattern else text


def unmarked_words(text: str, names: Iterable[str] = ()) -> list[str]:
    """The words of ``text`` that stand outside the markers, other than ``names``,
    numbers, card symbols and single letters (a card's rank, a key), addresses and the
    words in ``ALLOWED`` (a time zone is named by its place, CLDR's words, marked as
    the catalogues' are: an IANA id such as "Europe/Skopje" on a page is an internal id)."""
    left = ADDRESS.sub(" ", outside_markers(text))
    left = _taken_out(left, names if isinstance(names, frozenset) else frozenset(names))
    return [word for word in WORD.findall(left) if word not in ALLOWED]


def unmarked_lines(texts: Iterable[str], names: Iterable[str] = ()) -> list[str]:
    """Each line of ``texts`` that holds unmarked words, once, with those words."""
    names = frozenset(names)
    found: dict[str, None] = {}
    for text in texts:
        for line in outside_markers(text).splitlines():
            words = unmarked_words(line, names)
            if words:
                found[f"{' '.join(line.split())!r}: {words}"] = None
    return list(found)
