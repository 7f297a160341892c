"""The rules pages on a 360 px phone, in the language with the longest words: every rule
reads in words and the page needs no sideways scrolling."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.engine import PRESETS
from tests.browser.site_pages import PHONE

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("language", ["pl", "mk"])
def test_every_rules_page_fits_a_phone_without_sideways_scrolling(
    player_factory: Callable[..., Any], language: str
) -> None:
    phone = player_factory("reader", **PHONE, has_touch=True, is_mobile=True, locale=language)
    for preset in PRESETS:
        phone.goto(f"/rules/{preset}/")
        assert phone.page.locator("html").get_attribute("lang") == language
        width = phone.page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"/rules/{preset}/ in {language} is {width} px wide"
