"""What a new username may not be: another account's, in any spelling that reads the
same, or a mix of alphabets made to look like one.

Three spellings used to get past the check that a name was free:
- the same name in another case ("Marko" beside "marko"): compared case-insensitively;
- compatibility forms (fullwidth "ｍarko", the Roman numeral "Ⅿarko"): Django stores a
  username in Unicode's NFKC form, which makes them "marko" and "Marko", so the check
  compares that form (the fullwidth one was a server error: the check let it through
  and the database refused the second "marko");
- look-alike letters of another alphabet ("аna" with a Cyrillic "а", "јоvan"): a name
  that mixes alphabets with such letters is refused (``confusable_homoglyphs``, the
  rule django-registration applies), and a name in one alphabet is taken if it reads
  as another account's, either way ("асе", all Cyrillic, after "ace"; "ace" after
  "асе").

Reading the same is found by the database: each letter of the name's Latin reading
stands for every letter that reads as it, in a case-insensitive pattern. That reads
every username (no index serves a pattern), which a sign-up, limited per address,
can afford.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from functools import cache
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.models import DELETED_USERNAME_PREFIX

MIXED_ALPHABETS = _(
    "Write the username in one alphabet: it mixes letters of different alphabets that look alike."
)


def stored_form(username: str) -> str:
    """The username as Django stores it (``AbstractBaseUser.normalize_username``)."""
    return unicodedata.normalize("NFKC", username)


def _confusables() -> Any:
    """The library, imported at the first sign-up: its table takes 17 MB, which a
    process that never signs anyone up (a worker, most web workers) does not keep."""
    from confusable_homoglyphs import confusables

    return confusables


def is_mixed(word: str) -> bool:
    """Does ``word`` mix alphabets with letters that look alike ("аna", "Мarko")?"""
    return bool(_confusables().is_dangerous(word))


def refuse_mixed_alphabets(username: str) -> None:
    """A field validator: a name whose letters of two alphabets look alike."""
    if is_mixed(stored_form(username)):
        raise ValidationError(MIXED_ALPHABETS, code="mixed_alphabets")


def latin_reading(username: str) -> str:
    """``username`` with every letter of another alphabet that looks like a Latin one
    (an ASCII letter) written as that letter: "асе" -> "ace", "Марко" -> "Mapкo"."""
    found = _confusables().is_confusable(username, greedy=True, preferred_aliases=["latin"])
    reading = {}
    for entry in found or ():
        ascii_letters = [
            glyph["c"]
            for glyph in entry["homoglyphs"]
            if glyph["c"].isascii() and glyph["c"].isalpha()
        ]
        if ascii_letters and entry["alias"] != "LATIN" and entry["character"].isalpha():
            reading[entry["character"]] = ascii_letters[0]
    return "".join(reading.get(character, character) for character in username)


@cache
def look_alike_letters() -> dict[str, str]:
    """Each character that ``latin_reading`` writes as one Latin letter -> that letter
    ("М" -> "M", "а" -> "a"): a name's reading is its letters', one by one, which is
    how the pages read names too (scripts/latin_reading_js.py)."""
    found = {}
    for character in _confusables().confusables_data:
        reading = latin_reading(character)
        if reading != character and len(reading) == 1:
            found[character] = reading
    return found


@cache
def _reading_as() -> dict[str, frozenset[str]]:
    """Each ASCII letter (lower case) -> every character whose Latin reading it is."""
    found: defaultdict[str, set[str]] = defaultdict(set)
    for character, letter in look_alike_letters().items():
        found[letter.casefold()].add(character)
    return {letter: frozenset(characters) for letter, characters in found.items()}


def same_reading_pattern(username: str) -> str:
    """A case-insensitive pattern of every name that reads as ``username``."""
    parts = []
    for character in latin_reading(stored_form(username)):
        readings = _reading_as().get(character.casefold(), frozenset())
        spellings = sorted({character, character.casefold(), character.upper(), *readings})
        parts.append("[" + "".join(re.escape(each) for each in spellings) + "]")
    return "^" + "".join(parts) + "$"


def is_taken(username: str) -> bool:
    """Is ``username``, or a name that reads the same, an account's (or reserved)?"""
    name = stored_form(username)
    if name.casefold().startswith(DELETED_USERNAME_PREFIX):
        return True
    same = Q(username__iexact=name) | Q(username__iregex=same_reading_pattern(name))
    return User.objects.filter(same).exists()
