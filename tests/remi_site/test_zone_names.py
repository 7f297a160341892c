"""A time zone is named by its place in the reader's language (CLDR through Babel),
never by the IANA id an operating system keeps."""

from __future__ import annotations

import zoneinfo

import pytest
from babel import Locale

from remi_site import zone_names

LANGUAGES = ("en", "mk", "sr_Cyrl", "sr_Latn", "pl")


@pytest.mark.parametrize(
    ("language", "zone", "place", "short"),
    [
        ("mk", "Europe/Skopje", "Северна Македонија", "Северна Македонија"),
        ("sr_Cyrl", "Europe/Belgrade", "Србија", "Србија"),
        ("sr_Latn", "America/New_York", "Sjedinjene Države (Njujork)", "Njujork"),
        ("pl", "America/New_York", "Stany Zjednoczone (Nowy Jork)", "Nowy Jork"),
        ("en", "Asia/Calcutta", "India", "India"),  # an older id, the same place
        ("pl", "UTC", "UTC", "UTC"),
    ],
)
def test_a_zone_is_its_place_in_the_readers_language(language, zone, place, short) -> None:
    where = Locale.parse(language)

    assert zone_names.place(zone, where) == place
    assert zone_names.place(zone, where, short=True) == short


def test_a_zone_of_no_country_is_its_offset_from_gmt() -> None:
    assert zone_names.place("Etc/GMT+5", Locale.parse("mk")) == "GMT-05:00"


def test_a_name_that_is_no_zone_is_shown_as_it_is() -> None:
    assert zone_names.place("Mars/Olympus", Locale.parse("en")) == "Mars/Olympus"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_zone_offered_has_a_place_of_its_own(language) -> None:
    """Two zones with one label could not be told apart in the list; and the Serbian
    region format Babel reads ("…, летње време": summer time) is never used."""
    offered = zone_names.choices(Locale.parse(language))

    labels = [label for _, label in offered]
    assert len(labels) == len(set(labels)) == len(zone_names.offered())
    assert not [label for label in labels if "/" in label or "_" in label or "GMT" in label]
    assert not [label for label in labels if "летње" in label or "letnje" in label]


def test_every_zone_of_the_system_is_offered_or_an_alias_of_one_offered() -> None:
    """A player's saved zone, or a browser's, always finds its place in the list,
    except the ids of no country ("Etc/GMT+5", "EST5EDT"), which only the API takes."""
    offered = set(zone_names.offered())
    aliases = zone_names.aliases()
    left = {
        zone
        for zone in zoneinfo.available_timezones()
        if zone not in offered and zone not in aliases
    }
    named = [
        zone for zone in left if not zone_names.place(zone, Locale.parse("en")).startswith("GMT")
    ]
    assert named == [], "zones with a country but no place in the list"
