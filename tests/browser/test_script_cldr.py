"""The scripts write numbers, units of time, lists, times and dates with CLDR's words
from the server (remi_site/script_cldr.py), whatever CLDR the browser has: Chromium has
no Macedonian, and its own Intl wrote "2d 23h", "8:40 PM" and "12,345" on a Macedonian
page."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, time, timedelta
from typing import Any

import pytest
from babel import dates as babel_dates
from babel import lists as babel_lists
from django.utils import translation
from playwright.sync_api import expect

from remi_site import formats

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# The page's own functions on a fixed moment in the browser's zone (20:40, 6 December
# 2026) and fixed spans: what a Macedonian, Polish or Serbian page writes.
WRITTEN = """async ([NUMBERS, SIGNED]) => {
  const i18n = await import("/static/js/i18n.js");
  const dom = await import("/static/js/dom.js");
  const when = new Date(2026, 11, 6, 20, 40);
  return {
    span: i18n.formatSpan(2 * 86400 + 3 * 3600, "long"),
    short_span: i18n.formatSpan(21 * 3600 + 5 * 60, "short"),
    seconds: i18n.formatUnit(22, "second", "long"),
    nothing_left: i18n.formatSpan(0, "long"),
    time: i18n.formatTime(when),
    date: i18n.formatDate(when),
    names: i18n.formatList(["Ana", "Bojan", "Cveta"]),
    numbers: NUMBERS.map((n) => i18n.formatNumber(n)),
    signed: SIGNED.map((n) => i18n.formatNumber(n, { signed: true })),
    // A number given to a sentence or to a new element is written as a number too.
    in_a_sentence: i18n.interpolate("%(total)s", { total: 12345 }, true),
    in_an_element: dom.el("td", null, -1234).textContent,
    long_span: i18n.formatUnit(1500, "day", "long"),
  };
}"""

NUMBERS = [0, 7, 999, 1234, 12345, -1234, 1234567, 1.5]
SIGNED = [25, -280, 0, 1234]

# Chromium's own Intl on the same numbers, for a language it holds (it has Polish and
# English, with CLDR's minimum grouping: Polish "1234", "12 345"), else null.
BROWSERS_OWN = """(numbers) => {
  const lang = document.documentElement.lang;
  if (!Intl.NumberFormat.supportedLocalesOf([lang]).length) return null;
  return numbers.map((n) => new Intl.NumberFormat(lang).format(n));
}"""


def said_by_babel(language: str) -> dict[str, Any]:
    """What the server writes for the same values in ``language``."""
    where = formats.locale(language)
    with translation.override(language):
        return {
            "span": formats.duration(timedelta(days=2, hours=3)),
            "short_span": formats.duration(timedelta(hours=21, minutes=5), "short"),
            "seconds": formats.duration(timedelta(seconds=22), seconds=True),
            "nothing_left": formats.duration(timedelta(0), seconds=True),
            "time": babel_dates.format_time(time(20, 40), "short", locale=where),
            "date": babel_dates.format_date(date(2026, 12, 6), "medium", locale=where),
            "names": babel_lists.format_list(["Ana", "Bojan", "Cveta"], locale=where),
            "numbers": [formats.number(n) for n in NUMBERS],
            "signed": [formats.signed(n) for n in SIGNED],
            "in_a_sentence": formats.number(12345),
            "in_an_element": formats.number(-1234),
            "long_span": formats.duration(timedelta(days=1500)),
        }


@pytest.mark.parametrize("language", ["mk", "pl", "sr-cyrl", "en"])
def test_the_scripts_write_times_spans_and_lists_as_the_server_does(
    language: str, player_factory: Callable[..., Any]
) -> None:
    visitor = player_factory("visitor", locale=language)
    visitor.goto("/")
    expect(visitor.page.locator("html")).to_have_attribute("lang", language)

    written = visitor.page.evaluate(WRITTEN, [NUMBERS, SIGNED])

    assert written == said_by_babel(language)
    # Macedonian "1.234", Serbian "1.234", Polish "1234" but "12 345", English "1,234".
    assert written["numbers"][3] == {"mk": "1.234", "pl": "1234", "sr-cyrl": "1.234"}.get(
        language, "1,234"
    )
    own = visitor.page.evaluate(BROWSERS_OWN, NUMBERS)
    if own is not None:  # the server's CLDR and the browser's agree where both hold it
        assert written["numbers"] == own
