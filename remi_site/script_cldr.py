"""CLDR's words for the page's scripts, in the script catalogue (``/jsi18n/``).

A browser's own CLDR (``Intl``) does not hold every language the site speaks: Chromium
has no Macedonian and writes "2d 23h", "8:40 PM", "a, b, and c" and "12,345" on a
Macedonian page. So the scripts format numbers, units of time, lists, times and dates
from the data Babel holds, the same that ``remi_site.formats`` writes on the server with
(``static/js/i18n.js``): the catalogue's script sets ``window.remiCldr`` to it.

The plural category of a count is given for 0 to 199 (one letter each): beyond, every
rule of the site's languages reads only the last two digits, which 100 to 199 repeat.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from babel import Locale
from babel import dates as babel_dates
from babel import lists as babel_lists
from babel import numbers as babel_numbers
from babel import units as babel_units
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views.i18n import JavaScriptCatalog

from remi_site import formats

UNITS = ("day", "hour", "minute", "second")
WIDTHS = ("long", "short", "narrow")
# Babel's list styles for the scripts' own names of them.
LIST_STYLES = {
    "long": "standard",
    "unit": "unit",
    "unit-short": "unit-short",
    "unit-narrow": "unit-narrow",
}
CATEGORY_LETTERS = {"zero": "z", "one": "o", "two": "t", "few": "f", "many": "m", "other": "x"}
COUNTS = range(200)


def script_cldr(language: str) -> dict[str, Any]:
    """What the scripts need of CLDR in ``language`` (a Django code)."""
    return _of(formats.locale(language))


@cache
def _of(where: Locale) -> dict[str, Any]:
    categories = [where.plural_form(count) for count in COUNTS]
    return {
        "plural": "".join(CATEGORY_LETTERS[category] for category in categories),
        "number": _number_symbols(where),
        "units": {
            unit: {width: _unit_patterns(where, unit, width, categories) for width in WIDTHS}
            for unit in UNITS
        },
        "lists": {name: _list_joiners(where, style) for name, style in LIST_STYLES.items()},
        "time": babel_dates.get_time_format("short", locale=where).pattern,
        "date": babel_dates.get_date_format("medium", locale=where).pattern,
        "months": [where.months["format"]["abbreviated"][month] for month in range(1, 13)],
        "am_pm": [where.day_periods["format"]["abbreviated"][key] for key in ("am", "pm")],
    }


def _number_symbols(where: Locale) -> dict[str, Any]:
    """How the language writes a number (``remi_site.formats.number``): its group and
    decimal separators, its signs, the sizes of its groups from the right (3 then 3:
    "1.234.567"), how many digits it wants before the first separator (Polish 2: "1234",
    "12 345") and at most how many decimals its decimal pattern writes ("#,##0.###": 3)."""
    pattern = where.decimal_formats[None]
    return {
        "group": babel_numbers.get_group_symbol(where),
        "decimal": babel_numbers.get_decimal_symbol(where),
        "minus": babel_numbers.get_minus_sign_symbol(where),
        "plus": babel_numbers.get_plus_sign_symbol(where),
        "grouping": list(pattern.grouping),
        "min_grouping": formats.minimum_grouping_digits(where),
        "fraction": pattern.frac_prec[1],
    }


def _unit_patterns(where: Locale, unit: str, width: str, categories: list[str]) -> dict[str, str]:
    """Each plural category's pattern, "{0} дена": Babel's own words for a count of that
    category, the count made the placeholder."""
    patterns = {}
    for category in dict.fromkeys(categories):
        count = categories.index(category)
        said = babel_units.format_unit(
            count,
            f"duration-{unit}",
            length=width,  # type: ignore[arg-type]
            locale=where,
        )
        patterns[CATEGORY_LETTERS[category]] = said.replace(str(count), "{0}", 1)
    return patterns


def _list_joiners(where: Locale, style: str) -> dict[str, str]:
    """What joins the items of a list: between two ("two"), and in a longer one after the
    first ("start"), between the middle ones ("middle") and before the last ("end")."""
    marks = ["\x00", "\x01", "\x02", "\x03"]
    two = babel_lists.format_list(marks[:2], style=style, locale=where)  # type: ignore[arg-type]
    four = babel_lists.format_list(marks, style=style, locale=where)  # type: ignore[arg-type]
    return {
        "two": two.split("\x00")[1].split("\x01")[0],
        "start": four.split("\x00")[1].split("\x01")[0],
        "middle": four.split("\x01")[1].split("\x02")[0],
        "end": four.split("\x02")[1].split("\x03")[0],
    }


class CatalogueWithCldr(JavaScriptCatalog):
    """Django's script catalogue, and CLDR's words for the same language after it."""

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().get(request, *args, **kwargs)
        data = json.dumps(script_cldr(translation.get_language()), ensure_ascii=False)
        response.content += f"\nwindow.remiCldr = {data};\n".encode()
        return response
