"""A person whose system asks for less motion gets a table that does not move: no
pulsing turn dot, no glowing pile, cards that change without a transition. Everyone
else gets the animations."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.deal_end import PASSWORD
from tests.browser.site_pages import PAGES, SIGNED_IN_AS, make_site_data, open_page

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

ANIMATION = "node => getComputedStyle(node).animationName"
TRANSITION = "node => getComputedStyle(node).transitionDuration"


@pytest.mark.parametrize(
    ("motion", "dot", "card"),
    [("reduce", "none", "0s"), ("no-preference", "pulse", "0.12s, 0.12s")],
)
def test_the_table_moves_only_for_those_who_have_not_asked_for_less_motion(
    player_factory: Callable[..., Any], motion: str, dot: str, card: str
) -> None:
    data = make_site_data()
    person = player_factory(SIGNED_IN_AS, reduced_motion=motion)
    person.log_in(SIGNED_IN_AS, PASSWORD)
    table = next(site_page for site_page in PAGES if site_page.name == "table")
    open_page(person.page, person.base_url, table, data)

    turn_dot = person.page.locator("#me .turn-dot")
    expect(turn_dot).to_be_visible()
    assert turn_dot.evaluate(ANIMATION) == dot
    assert person.page.locator("#hand button.pcard").first.evaluate(TRANSITION) == card
