"""Build the pseudo-locale: every English message of the site's catalogues (templates,
the scripts, the games and accounts apps) and of Django's own, said "translated" as

    "Draw from the stock"        ->  "⟦Ðŕááŵ ƒŕóóɱ ţĥéé šţóóçķ⟧"
    "%(name)s draws %(card)s"    ->  "%(name)s⟦ ðŕááŵš ⟧%(card)s"

wrapped in markers (each piece between its placeholders), its letters swapped for
accented ones and every vowel doubled (about 40 % longer, as a real translation often
is). Placeholders, HTML tags,
entities and addresses are kept as they are, and plural forms are kept. A page read in
this language shows every text that no catalogue translates outside the markers:
tests/browser/test_pseudo_locale.py and tests/games/test_pseudo_locale_messages.py
fail on it (docs/translations.md, "The pseudo-locale").

    python scripts/pseudo_locale.py [OUTPUT]     (default var/pseudo-locale)

It writes OUTPUT/en_XA/LC_MESSAGES/django.po, djangojs.po and their .mo files; the
settings serve them where ``PSEUDO_LOCALE`` is on (the tests). Built, not committed:
it is derived wholly from the English texts, so it never goes stale and never
conflicts; building takes under a second and needs only polib (no gettext).
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from collections.abc import Iterable, Iterator
from importlib.util import find_spec
from pathlib import Path

import polib  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUTPUT = ROOT / "var" / "pseudo-locale"
# The language code the settings serve the catalogue under: "en-XA" is the code the
# large platforms use for their accented pseudo-locale, and no real language has it.
LANGUAGE = "en-xa"
LOCALE = "en_XA"
OPEN, CLOSE = "⟦", "⟧"

# The site's catalogues, by domain. Any language's .po lists every msgid; Polish is
# used (its msgids are the English texts).
SITE_CATALOGUES = {
    "django": [
        ROOT / "locale/pl/LC_MESSAGES/django.po",
        ROOT / "games/locale/pl/LC_MESSAGES/django.po",
        ROOT / "accounts/locale/pl/LC_MESSAGES/django.po",
    ],
    "djangojs": [ROOT / "locale/pl/LC_MESSAGES/djangojs.po"],
}
# Installed packages whose own English messages reach pages and emails (form errors,
# the password rules, dates' month names).
PACKAGES = ("django", "rest_framework", "axes")

# A value put into the message. Each piece of text between two of them is wrapped in
# markers of its own, so that a value shows outside them: a name or a number passes,
# an English word or an internal id put into a translated sentence does not.
# ("%%" is a literal percent sign, matched first so that "100%% sure" holds no value.)
PLACEHOLDER = re.compile(
    r"%%|%\([^)]+\)[-#0+]*\d*(?:\.\d+)?[a-zA-Z]|%[-#0+]*\d*(?:\.\d+)?[sdifr]|\{[^{}\s]*\}"
)
TAG = re.compile(r"<[^<>]+>")
# Kept as they are inside a piece: literal percent signs, tags, entities, addresses.
KEPT = re.compile(
    r"%%"
    r"|<[^<>]+>"
    r"|&(?:[a-zA-Z]+|#\d+|#x[0-9a-fA-F]+);"
    r"|https?://\S+"
)
# Each letter's accented look-alike; vowels are doubled.
ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçðéƒĝĥíĵķĺɱñóƥʠŕšţúʋŵẋýžÁƁÇÐÉƑĜĤÍĴĶĹṀÑÓƤꝖŔŠŢÚṼŴẊÝŽ",
)
VOWELS = re.compile(r"[aeiouyAEIOUY]")


def pseudo_text(text: str) -> str:
    """The text's letters accented and its vowels doubled; what ``KEPT`` matches is
    left alone."""
    pieces: list[str] = []
    at = 0
    for kept in KEPT.finditer(text):
        pieces.append(_accent(text[at : kept.start()]))
        pieces.append(kept.group())
        at = kept.end()
    pieces.append(_accent(text[at:]))
    return "".join(pieces)


def _accent(text: str) -> str:
    return VOWELS.sub(lambda vowel: vowel.group() * 2, text).translate(ACCENTED)


def pseudo_message(text: str) -> str:
    """A message of the pseudo-locale: each piece between its placeholders accented,
    lengthened and wrapped in the markers. A message that ends in a newline keeps it
    outside (gettext checks it)."""
    if not text:
        return text
    body = text.rstrip("\n")
    pieces: list[str] = []
    at = 0
    # A value inside a tag (<a href="%(url)s">) is part of the tag: no marker goes there.
    tags = [tag.span() for tag in TAG.finditer(body)]
    values = [
        found
        for found in PLACEHOLDER.finditer(body)
        if found.group() != "%%" and not any(start < found.start() < end for start, end in tags)
    ]
    for placeholder in [*values, None]:
        end = placeholder.start() if placeholder else len(body)
        piece = body[at:end]
        # Only space between two values ("%(name)s %(rank)s") stays as it is.
        pieces.append(f"{OPEN}{pseudo_text(piece)}{CLOSE}" if piece.strip() else piece)
        if placeholder:
            pieces.append(placeholder.group())
            at = placeholder.end()
    return "".join(pieces) + text[len(body) :]


def package_catalogues(packages: Iterable[str] = PACKAGES) -> list[Path]:
    """The English catalogues (locale/en/LC_MESSAGES/django.po) of the packages, or
    another language's where a package has no English one."""
    found: list[Path] = []
    for name in packages:
        spec = find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            continue
        for folder in spec.submodule_search_locations:
            for locale in sorted(Path(folder).glob("**/locale")):
                found += _english_or_any(locale)
    return found


def _english_or_any(locale: Path) -> list[Path]:
    """The English catalogue of a package's ``locale`` folder; where it has none
    (django-axes ships only translations), any one language's: its msgids are the
    English texts all the same. Django REST framework ships its English compiled only."""
    for english in (locale / "en" / "LC_MESSAGES" / name for name in ("django.po", "django.mo")):
        if english.exists():
            return [english]
    return sorted(locale.glob("*/LC_MESSAGES/django.po"))[:1]


def _entries(paths: Iterable[Path]) -> Iterator[polib.POEntry]:
    for path in paths:
        read = polib.mofile if path.suffix == ".mo" else polib.pofile
        for entry in read(str(path)):
            if not entry.obsolete and entry.msgid:
                yield entry


def pseudo_catalogue(paths: Iterable[Path]) -> polib.POFile:
    """One catalogue of every message in ``paths``, each said in the pseudo-locale."""
    catalogue = polib.POFile()
    catalogue.metadata = {
        "Project-Id-Version": "remi pseudo-locale",
        "Language": LOCALE,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": "nplurals=2; plural=(n != 1);",
    }
    seen: set[tuple[str | None, str, str]] = set()
    for entry in _entries(paths):
        key = (entry.msgctxt, entry.msgid, entry.msgid_plural)
        if key in seen:
            continue
        seen.add(key)
        pseudo = polib.POEntry(msgctxt=entry.msgctxt, msgid=entry.msgid, flags=entry.flags)
        pseudo.flags = [flag for flag in entry.flags if flag != "fuzzy"]
        if entry.msgid_plural:
            pseudo.msgid_plural = entry.msgid_plural
            pseudo.msgstr_plural = {
                0: pseudo_message(entry.msgid),
                1: pseudo_message(entry.msgid_plural),
            }
        else:
            pseudo.msgstr = pseudo_message(entry.msgid)
        catalogue.append(pseudo)
    return catalogue


def _save_atomically(catalogue: polib.POFile, folder: Path, domain: str) -> None:
    """Write the .po and the .mo through temporary files, so that a test process
    building it at the same time never reads half a file."""
    for suffix, save in ((".po", catalogue.save), (".mo", catalogue.save_as_mofile)):
        handle, temporary = tempfile.mkstemp(dir=folder, suffix=suffix)
        os.close(handle)
        save(temporary)
        os.replace(temporary, folder / f"{domain}{suffix}")


def build(output: Path = DEFAULT_OUTPUT) -> Path:
    """Write the pseudo-locale's catalogues under ``output``; the folder to add to
    ``LOCALE_PATHS``."""
    folder = output / LOCALE / "LC_MESSAGES"
    folder.mkdir(parents=True, exist_ok=True)
    sources = {
        "django": [*package_catalogues(), *SITE_CATALOGUES["django"]],
        "djangojs": SITE_CATALOGUES["djangojs"],
    }
    for domain, paths in sources.items():
        _save_atomically(pseudo_catalogue(paths), folder, domain)
    return output


def main(argv: list[str]) -> int:
    output = Path(argv[1]) if len(argv) > 1 else DEFAULT_OUTPUT
    print(build(output))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
