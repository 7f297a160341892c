"""The countries a player may name on their profile, by their ISO 3166-1 alpha-2 code,
and each one's name in the reader's language from CLDR (through Babel).

CLDR names more regions than ISO 3166-1 has countries: groupings (the European Union,
the United Nations), islands with codes of their own for other standards (Ascension,
the Canary Islands), an unknown region and two pseudo-locales' codes. Those are left
out. Kosovo (``XK``) stays: ISO reserves the code for users to assign, and the
European Commission, Kosovo's own documents and CLDR use it.
"""

from __future__ import annotations

from functools import cache

from babel import Locale

from remi_site import collation, formats

_NOT_COUNTRIES = frozenset(
    {"AC", "CP", "CQ", "DG", "EA", "EU", "EZ", "IC", "QO", "TA", "UN", "XA", "XB", "ZZ"}
)


@cache
def codes() -> frozenset[str]:
    """Every code a profile may hold."""
    named = Locale.parse("en").territories
    return frozenset(
        code
        for code in map(str, named)
        if len(code) == 2 and code.isalpha() and code.isupper() and code not in _NOT_COUNTRIES
    )


def name(code: str) -> str:
    """The country's name in the active language ("Србија", "Serbia"); the code as it
    is for one that is not a country (a profile saved before codes were checked)."""
    if code not in codes():
        return code
    return formats.as_the_library_said(formats.locale().territories.get(code, code))


def choices() -> list[tuple[str, str]]:
    """(code, name) for every country, by name in the active language."""
    return [(code, formats.as_the_library_said(name)) for code, name in _in_order(formats.locale())]


@cache
def _in_order(locale: Locale) -> tuple[tuple[str, str], ...]:
    named = locale.territories
    pairs = [(code, str(named.get(code, code))) for code in codes()]
    return tuple(collation.in_order(pairs, _name_of))


def _name_of(pair: tuple[str, str]) -> str:
    return pair[1]
