"""Time zones as people name them: a place in the reader's language, from CLDR.

A page or an email that says which zone a time is in names the place ("Србија
(Београд)", "Stany Zjednoczone (Nowy Jork)"), not the IANA id an operating system
keeps ("Europe/Belgrade"), and the settings' list of zones reads the same way, in the
reader's alphabetical order. The values stored and sent over the API stay IANA ids.

The words are CLDR's, through Babel: the country, the exemplar city, and CLDR's
fallback format that joins them. Babel's own ``get_timezone_location`` is not used
for the whole label: it reads CLDR's region format for daylight time where the plain
one is meant (Serbian "Србија, летње време", "summer time", all year round).
"""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime
from functools import cache

from babel import Locale
from babel.core import get_global
from babel.dates import get_timezone_gmt, get_timezone_location

from remi_site import collation

# CLDR's canonical zone ids and their countries ("001" and "ZZ": none); its aliases.
_TERRITORIES: dict[str, str] = dict(get_global("zone_territories"))
_ALIASES: dict[str, str] = dict(get_global("zone_aliases"))
_COUNTRY_ZONES: dict[str, list[str]] = dict(get_global("territory_zones"))
_NO_COUNTRY = frozenset({"001", "ZZ"})
UNIVERSAL = "Etc/UTC"


def canonical(name: str) -> str:
    """CLDR's id of the zone ``name`` ("Asia/Calcutta" -> "Asia/Kolkata", "UTC" ->
    "Etc/UTC"); a name CLDR does not know is returned as it is."""
    return _ALIASES.get(name, name)


def place(name: str, locale: Locale, *, short: bool = False) -> str:
    """The zone ``name`` (an IANA id) as the place it is kept for, in ``locale``.

    The country where it has one zone ("Serbia"), the country and the city where it
    has several ("United States (New York)"; ``short``, for a sentence that names
    the zone in brackets after a time: the city, "New York"), "UTC" for universal
    time, and the offset from GMT for a zone of no country ("GMT-05:00", at the
    moment of asking).
    """
    return _named(canonical(name), locale, short) or _offset(name, locale)


@cache
def _named(zone: str, locale: Locale, short: bool) -> str | None:
    """The place of a zone of a country, or universal time (the same all year)."""
    if zone == UNIVERSAL:
        return str(locale.zone_formats["gmt_utc"] % "").strip()
    territory = _TERRITORIES.get(zone)
    if territory is None or territory in _NO_COUNTRY:
        return None
    country = locale.territories.get(territory)
    if country is None:
        return None
    if len(_COUNTRY_ZONES.get(territory, ())) == 1:
        return str(country)
    city = get_timezone_location(zone, locale=locale, return_city=True)
    if short:
        return str(city)
    return str(locale.zone_formats["fallback"] % {"0": city, "1": country})


def _offset(name: str, locale: Locale) -> str:
    """A zone of no country by its offset now (it may change with the season)."""
    try:
        zone = zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return name
    return get_timezone_gmt(datetime.now(UTC).astimezone(zone), locale=locale)


@cache
def offered() -> tuple[str, ...]:
    """The zones a player chooses from: one per place (CLDR's canonical ids this
    system has), universal time, and no zone of no country ("Etc/GMT+5" is GMT-5)."""
    available = zoneinfo.available_timezones()
    return tuple(
        sorted(
            zone
            for zone, territory in _TERRITORIES.items()
            if zone in available and (territory not in _NO_COUNTRY or zone == UNIVERSAL)
        )
    )


@cache
def choices(locale: Locale) -> tuple[tuple[str, str], ...]:
    """``offered()`` as (id, place) pairs, universal time first, then the places in
    the alphabetical order (``collation``)."""
    pairs = [(zone, place(zone, locale)) for zone in offered() if zone != UNIVERSAL]
    return ((UNIVERSAL, place(UNIVERSAL, locale)), *collation.in_order(pairs, _place_of))


def _place_of(pair: tuple[str, str]) -> str:
    return pair[1]


@cache
def aliases() -> dict[str, str]:
    """Every other id this system has for an offered zone -> the offered one
    (a browser may name India's zone "Asia/Calcutta", CLDR "Asia/Kolkata")."""
    offered_zones = set(offered())
    return {
        name: canonical(name)
        for name in sorted(zoneinfo.available_timezones())
        if name not in offered_zones and canonical(name) in offered_zones
    }
