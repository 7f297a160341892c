"""The scripts write units of time, lists, times and dates with CLDR's words from the
server (remi_site/script_cldr.py), whatever CLDR the browser has: Chromium has no
Macedonian, and its own Intl wrote "2d 23h" and "8:40 PM" on a Macedonian page."""

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
WRITTEN = """async () => {
  const i18n = await import("/static/js/i18n.js");
  const when = new Date(2026, 11, 6, 20, 40);
  return {
    span: i18n.formatSpan(2 * 86400 + 3 * 3600, "long"),
    short_span: i18n.formatSpan(21 * 3600 + 5 * 60, "short"),
    seconds: i18n.formatUnit(22, "second", "long"),
    nothing_left: i18n.formatSpan(0, "long"),
    time: i18n.formatTime(when),
    date: i18n.formatDate(when),
    names: i18n.formatList(["Ana", "Bojan", "Cveta"]),
  };
}"""


def said_by_babel(language: str) -> dict[str, str]:
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
        }


@pytest.mark.parametrize("language", ["mk", "pl", "sr-cyrl", "en"])
def test_the_scripts_write_times_spans_and_lists_as_the_server_does(
    language: str, player_factory: Callable[..., Any]
) -> None:
    visitor = player_factory("visitor", locale=language)
    visitor.goto("/")
    expect(visitor.page.locator("html")).to_have_attribute("lang", language)

    written = visitor.page.evaluate(WRITTEN)

    assert written == said_by_babel(language)
