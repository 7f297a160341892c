"""Each page at desktop and phone width, photographed into artifacts/screenshots/ for a
person to look at; at phone width no page scrolls sideways."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.site_pages import PAGES, SIGNED_IN_AS, SIZES, make_site_data, open_page
from tests.browser.test_table import PASSWORD

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


def test_every_page_is_photographed_at_desktop_and_phone_width_without_sideways_scroll(
    player_factory: Callable[..., Any],
) -> None:
    data = make_site_data()
    visitor = player_factory("visitor")
    member = player_factory(SIGNED_IN_AS)
    member.log_in(SIGNED_IN_AS, PASSWORD)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    too_wide: list[str] = []
    for site_page in PAGES:
        person = member if site_page.signed_in else visitor
        for size_name, size in SIZES.items():
            person.page.set_viewport_size(size)
            response = open_page(person.page, person.base_url, site_page, data)
            assert response is not None and response.ok, f"{site_page.name}: {response.status}"
            path = ARTIFACTS / f"{site_page.name}-{size_name}.png"
            person.page.screenshot(path=str(path), full_page=True)
            assert path.stat().st_size > 0
            width = person.page.evaluate("() => document.documentElement.scrollWidth")
            if width > size["width"]:
                too_wide.append(f"{site_page.name} at {size_name}: {width}px wide")

    assert not too_wide, "pages that scroll sideways: " + "; ".join(too_wide)
    assert len(list(ARTIFACTS.glob("*.png"))) >= len(PAGES) * len(SIZES)
