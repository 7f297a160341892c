"""axe-core on every page, at desktop and phone width: no serious or critical
violation (contrast, ARIA, names, landmarks, headings, focusable scroll regions).

Each walk makes the site's data once and keeps one browser per visitor, as the
screenshots' walk does: a test per page made the same data two dozen times."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.axe import describe
from tests.browser.site_pages import (
    MORE_PAGES,
    PAGES,
    SIZES,
    People,
    SitePage,
    make_site_data,
    open_page,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

# Two walks of about the same length, so that the suite's workers share them.
WALKS = {
    "the main pages": PAGES,
    "the rules, the settings, the mailed links, a ban and the errors": MORE_PAGES,
}


@pytest.mark.parametrize("pages", WALKS.values(), ids=WALKS.keys())
def test_no_page_has_a_serious_accessibility_violation_at_either_width(
    pages: list[SitePage],
    player_factory: Callable[..., Any],
    axe_violations: Callable[[Any], list[dict[str, Any]]],
) -> None:
    data = make_site_data()
    people = People(player_factory)

    found: dict[str, str] = {}
    for site_page in pages:
        person = people[site_page]
        for visit, (size_name, size) in enumerate(SIZES.items()):
            person.page.set_viewport_size(size)
            response = open_page(person.page, person.base_url, site_page, data)
            assert response is not None, site_page.name
            assert response.status == site_page.expected_status(visit), site_page.name
            violations = axe_violations(person.page)
            if violations:
                found[f"{site_page.name} at {size_name} width"] = describe(violations)

    assert not found, "\n\n".join(f"{where}:\n{report}" for where, report in found.items())
