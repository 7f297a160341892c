"""Dates, times, durations, numbers and lists as a person reads them, in the active
language and time zone, from CLDR's data through Babel.

Every page, email, push, the calendar feed and the deal summary format through here
(templates through ``{% load formats %}``): hand-written formats got the grammar wrong
("Członek od Grudzień 2026": Polish wants the genitive after "od"), and Django's own
formats and ``timesince`` have no Macedonian words for a duration.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Sequence
from datetime import date, datetime, timedelta, tzinfo
from functools import cache
from typing import Any, Literal

from babel import Locale
from babel import dates as babel_dates
from babel import lists as babel_lists
from babel import numbers as babel_numbers
from django.conf import settings
from django.utils import timezone, translation
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst

from remi_site import zone_names

# Django's language codes -> Babel's locale names.
_LOCALES = {"en": "en", "mk": "mk", "sr-cyrl": "sr_Cyrl", "sr-latn": "sr_Latn", "pl": "pl"}

DateForm = Literal["short", "medium", "long", "full"]


def locale(language: str | None = None) -> Locale:
    """Babel's locale of ``language`` (a Django code), by default the active one."""
    code = (language or translation.get_language() or "en").lower()
    return _parsed(_LOCALES.get(code, _LOCALES.get(code.split("-")[0], "en")))


@cache
def _parsed(name: str) -> Locale:
    """One Locale per name: a list page formats hundreds of values."""
    return Locale.parse(name)


def _local(value: datetime, zone: tzinfo | None) -> datetime:
    """``value`` in ``zone`` (by default the active time zone)."""
    if timezone.is_naive(value):
        return value
    return value.astimezone(zone or timezone.get_current_timezone())


def day(value: date | datetime, form: DateForm = "medium", zone: tzinfo | None = None) -> str:
    """A day: "7 gru 2026" (medium), "7 grudnia 2026" (long), "poniedziałek, 7 grudnia
    2026" (full). A moment is first taken to the time zone."""
    if isinstance(value, datetime):
        value = _local(value, zone).date()
    return babel_dates.format_date(value, form, locale=locale())


def month(value: date | datetime, zone: tzinfo | None = None) -> str:
    """A month of a year as a sentence uses it after "since": "grudnia 2026" in Polish,
    "декември 2026" in Macedonian (the format form, not the stand-alone one)."""
    if isinstance(value, datetime):
        value = _local(value, zone).date()
    return babel_dates.format_date(value, "MMMM y", locale=locale())


def clock(value: datetime, zone: tzinfo | None = None) -> str:
    """The time of day: "21:06", "9:06 PM"."""
    return babel_dates.format_time(_local(value, zone), "short", locale=locale())


def moment(value: datetime, form: DateForm = "medium", zone: tzinfo | None = None) -> str:
    """A day and its time, without seconds: "7 gru 2026, 21:06", "Monday, December 7,
    2026, 9:06 PM" (full), in the active time zone (or ``zone``)."""
    local = _local(value, zone)
    where = locale()
    pattern = babel_dates.get_datetime_format(form, locale=where)
    return (
        str(pattern)
        .replace("'", "")
        .replace("{1}", babel_dates.format_date(local, form, locale=where))
        .replace("{0}", babel_dates.format_time(local, "short", locale=where))
    )


def zone_name(zone: tzinfo | str | None = None) -> str:
    """The time zone (by default the active one) as the place it is kept for, to say
    which one a time is in: "Србија", "Nowy Jork" (``zone_names.place``, short)."""
    place = zone_names.place(str(zone or timezone.get_current_timezone()), locale(), short=True)
    return as_the_library_said(place)


def duration(
    span: timedelta, form: Literal["long", "short"] = "long", *, seconds: bool = False
) -> str:
    """A span in its largest unit and the next one: "1 dzień i 20 godz." (short),
    "23 часа и 59 минути"; the next unit is left out when it is nought ("2 days"), and
    a span under a minute is "0 minutes", or its seconds with ``seconds`` ("1 minute
    and 5 seconds", "45 seconds": for a wait a person counts down)."""
    rest = max(0, int(span.total_seconds()))
    amounts = []
    units = _UNITS + (_SECONDS if seconds else ())
    for unit, size in units:
        amount, rest = divmod(rest, size)
        amounts.append((unit, amount))
    first = next((index for index, (_, amount) in enumerate(amounts) if amount), len(units) - 1)
    parts = [_unit(*amounts[first], form)]
    if first + 1 < len(amounts) and amounts[first + 1][1]:
        parts.append(_unit(*amounts[first + 1], form))
    return as_the_library_said(
        babel_lists.format_list(
            parts, style="unit" if form == "long" else "unit-short", locale=locale()
        )
    )


def unit(
    amount: int,
    name: Literal["day", "hour", "minute", "second"],
    form: Literal["long", "short"] = "short",
) -> str:
    """A number of one unit of time: "8 hr", "8 ч.", "8 godz." (short), "8 hours"."""
    return as_the_library_said(_unit(name, amount, form))


_UNITS = (("day", 86400), ("hour", 3600), ("minute", 60))
_SECONDS = (("second", 1),)
_SIZES = dict(_UNITS + _SECONDS)


def _unit(unit: str, amount: int, form: Literal["long", "short"]) -> str:
    """``amount`` of ``unit`` with the language's plural: "1 godzina", "5 godzin",
    "1.500 дена" (Babel puts the bare digits in the pattern: the number is written as
    the language writes numbers here)."""
    said = babel_dates.format_timedelta(
        timedelta(seconds=amount * _SIZES[unit]),
        granularity=unit,  # type: ignore[arg-type]
        threshold=float("inf"),
        format=form,
        locale=locale(),
    )
    return said.replace(str(amount), number(amount), 1)


# CLDR's minimumGroupingDigits of the site's languages (common/main/<lang>.xml,
# ``<minimumGroupingDigits>``; 1 where a language does not say): Polish groups a number
# only from five digits on, "1234" but "12 345". Babel (2.19) does not read it and would
# write "1 234"; ICU does, and so does Chromium's Intl for Polish.
MINIMUM_GROUPING_DIGITS = {"pl": 2}


def minimum_grouping_digits(where: Locale) -> int:
    """How many digits a language wants before the first group separator: "1234" in
    Polish (2), "1.234" in Macedonian (1)."""
    return MINIMUM_GROUPING_DIGITS.get(where.language, 1)


def rating(value: int | float) -> str:
    """A rating in digits alone in every language, as rating lists write it ("1500",
    never "1.500" or "1,500"), with the language's minus sign."""
    return babel_numbers.format_decimal(round(value), locale=locale(), group_separator=False)


def number(value: int | float) -> str:
    """A number with the language's separators and minus sign, as CLDR writes it:
    "1.234" (Macedonian), "1234" and "12 345" (Polish), "-1,234" (English)."""
    where = locale()
    plain = babel_numbers.format_decimal(value, locale=where, group_separator=False)
    whole = plain.split(babel_numbers.get_decimal_symbol(where))[0]
    digits = sum(character.isdigit() for character in whole)
    grouped = digits >= where.decimal_formats[None].grouping[0] + minimum_grouping_digits(where)
    return babel_numbers.format_decimal(value, locale=where) if grouped else plain


def signed(value: int | float) -> str:
    """A number with its sign, a change or a deal's points: "+1.234", "-40", "0"."""
    said = number(value)
    if value > 0 and any(digit in said for digit in "123456789"):
        return babel_numbers.get_plus_sign_symbol(locale()) + said
    return said


def decimal(value: float, places: int = 1) -> str:
    """A number to ``places`` decimals, each shown, with the language's signs: "-12.5",
    "-12,5", "-40,0" (a mean, an average)."""
    return _fixed(locale().decimal_formats[None], value, places)


def percent(value: float) -> str:
    """A share as a percentage to a tenth, with the language's sign and spacing:
    "70,3 %" in Polish, "70.3%" in English."""
    return _fixed(locale().percent_formats[None], value, 1)


def _fixed(pattern: Any, value: float, places: int) -> str:
    """``value`` by the language's ``pattern`` (its spacing and signs) with exactly
    ``places`` decimals."""
    pattern = copy.copy(pattern)
    pattern.frac_prec = (places, places)
    return str(pattern.apply(value, locale()))


def as_the_library_said(text: str) -> str:
    """The words CLDR wrote. In the pseudo-locale (``PSEUDO_LOCALE``, tests and
    developers only) they come marked as the catalogue's do: the pseudo-locale's check
    then tells them from words a person wrote by hand and never marked."""
    if settings.PSEUDO_LOCALE and translation.get_language() == settings.PSEUDO_LANGUAGE[0]:
        return f"\u27e6{text}\u27e7"
    return text


def word_list(items: Iterable[str]) -> str:
    """Names or words in a list: "ana, marko i ivan"."""
    return as_the_library_said(
        babel_lists.format_list([str(item) for item in items], locale=locale())
    )


def markup_list(items: Sequence[str]) -> SafeString:
    """Pieces of a page (a name with its badge: already escaped markup) in a list as
    ``word_list`` joins words: "ana <span>bot</span>, bo и cvetko". Only CLDR's joiners
    are escaped and, in the pseudo-locale, marked; the pieces are kept as they are."""
    slots = [f"\x00{index}\x00" for index in range(len(items))]
    joined = babel_lists.format_list(slots, locale=locale()) if items else ""
    parts = re.split("\x00(\\d+)\x00", joined)
    # re.split keeps the captured slot numbers at the odd places, the joiners between.
    out = []
    for place, part in enumerate(parts):
        if place % 2:
            out.append(items[int(part)])
        elif any(c.isalpha() for c in part):  # "и", " and ": words, marked
            out.append(escape(as_the_library_said(part)))
        else:  # ", "
            out.append(escape(part))
    return mark_safe("".join(out))  # noqa: S308 (the pieces are markup, the joiners escaped)


def sentence(message: str) -> str:
    """A refusal the services word for the API ("you are already on vacation") as a
    page shows it: "You are already on vacation." (capital first, full stop last)."""
    text = capfirst(message.strip())
    return text if not text or text[-1] in ".!?…:" else f"{text}."
