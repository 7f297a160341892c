"""axe-core on every page, at desktop and phone width: no serious or critical
violation (contrast, ARIA, names, landmarks, headings, focusable scroll regions)."""

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
    log_in_as,
    make_site_data,
    open_page,
    person_name,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


@pytest.mark.parametrize("site_page", PAGES, ids=[page.name for page in PAGES])
def test_the_page_has_no_serious_accessibility_violation_at_desktop_or_phone_width(
    site_page: SitePage,
    player_factory: Callable[..., Any],
    axe_violations: Callable[[Any], list[dict[str, Any]]],
) -> None:
    data = make_site_data()
    person = player_factory(person_name(site_page), **SIZES["desktop"])
    log_in_as(person, site_page)

    found: dict[str, str] = {}
    for size_name, size in SIZES.items():
        person.page.set_viewport_size(size)
        response = open_page(person.page, person.base_url, site_page, data)
        assert response is not None and response.ok, f"{site_page.name}: {response}"
        violations = axe_violations(person.page)
        if violations:
            found[size_name] = describe(violations)

    assert not found, "\n\n".join(
        f"{site_page.name} at {size_name} width:\n{report}" for size_name, report in found.items()
    )


def test_the_other_pages_have_no_serious_accessibility_violation_at_either_width(
    player_factory: Callable[..., Any],
    axe_violations: Callable[[Any], list[dict[str, Any]]],
) -> None:
    """MORE_PAGES (the rules, the settings, the mailed links, a ban, the errors) in one
    walk: a browser per visitor, the site's data made once."""
    data = make_site_data()
    people = People(player_factory)

    found: dict[str, str] = {}
    for site_page in MORE_PAGES:
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
