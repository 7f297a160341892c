"""Each page at desktop and phone width, photographed into artifacts/screenshots/ for a
person to look at, and checked as it stands: at phone width no page scrolls sideways; no
page shows a game's or a challenge's public id as text (ids are for links and clients);
axe-core finds no serious or critical accessibility violation (contrast, ARIA, names,
landmarks, headings, focusable scroll regions); no page's template writes a number bare
(``|number``: "1.234" in Macedonian, tests/raw_numbers_kit.py); and every page template
of the site is among those photographed. One walk does it all: the site's data made once,
one browser per visitor, each page loaded once per width. The table is photographed in
Macedonian and Serbian Cyrillic too, whose words run longer than the English."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.test.signals import template_rendered
from playwright.sync_api import expect

from accounts.models import Profile
from games.models import Challenge, Game
from tests.browser.axe import describe
from tests.browser.deal_end import PASSWORD
from tests.browser.layout_kit import layout_problems
from tests.browser.site_pages import (
    MORE_PAGES,
    NOT_WALKED,
    PAGES,
    SIGNED_IN_AS,
    SIZES,
    People,
    SiteData,
    SitePage,
    make_site_data,
    open_page,
)
from tests.raw_numbers_kit import numbers_written_raw

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def page_templates() -> set[str]:
    """The templates that make a whole page of the site (they extend the base)."""
    return {
        path.relative_to(TEMPLATES).as_posix()
        for path in TEMPLATES.rglob("*.html")
        if '{% extends "base.html" %}' in path.read_text(encoding="utf-8")
    }


@contextmanager
def templates_rendered() -> Iterator[set[str]]:
    """The names of the templates the site renders meanwhile (in any thread: the live
    server's too)."""
    names: set[str] = set()

    def rendered(sender: Any, template: Any, **kwargs: Any) -> None:
        names.add(template.name)

    template_rendered.connect(rendered, dispatch_uid="screenshots")
    try:
        yield names
    finally:
        template_rendered.disconnect(dispatch_uid="screenshots")


# Marks the page's first box that scrolls sideways (``data-first-scroller``); whether any.
FIRST_SCROLLER = """() => {
  const box = [...document.querySelectorAll("[data-more]")].find((node) =>
    node.checkVisibility() && node.scrollWidth > node.clientWidth + 1);
  if (box) box.dataset.firstScroller = "";
  return Boolean(box);
}"""


def ids_shown(page: Any, where: str) -> list[str]:
    """The public ids of games and challenges that the page shows as text (its title and
    what a reader sees, not its links' addresses)."""
    text = page.evaluate("() => document.title + '\\n' + document.body.innerText")
    ids = [*Game.objects.values_list("public_id", flat=True)]
    ids += Challenge.objects.values_list("public_id", flat=True)
    return [f"{where} shows the id {public_id}" for public_id in ids if public_id in text]


def test_every_page_at_desktop_and_phone_width_is_photographed_laid_out_and_accessible(
    player_factory: Callable[..., Any],
    axe_violations: Callable[[Any], list[dict[str, Any]]],
) -> None:
    data = make_site_data()
    people = People(player_factory)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    found = Findings(axe_violations)
    with templates_rendered() as rendered, numbers_written_raw() as bare:
        for site_page in PAGES + MORE_PAGES:
            _photograph(people[site_page], site_page, data, found)

    assert not found.problems, "pages laid out wrong or showing ids: " + "; ".join(found.problems)
    assert not found.inaccessible, "\n\n".join(
        f"{where}:\n{report}" for where, report in found.inaccessible.items()
    )
    assert not bare, "numbers written without the language's separators: " + "; ".join(sorted(bare))
    assert found.fade_followed, "no page had a box that scrolls sideways at phone width"
    assert len(list(ARTIFACTS.glob("*.png"))) >= len(PAGES + MORE_PAGES) * len(SIZES)
    not_walked = page_templates() - rendered - set(NOT_WALKED)
    assert not not_walked, f"pages no SitePage reaches: {sorted(not_walked)}"
    assert set(NOT_WALKED) <= page_templates() - rendered, "NOT_WALKED lists a walked page"


@dataclass
class Findings:
    """What the walk found: layout and ids (``problems``), axe's serious and critical
    violations by page and width, and whether a box's fade was seen to follow its
    scrolling (once is enough)."""

    axe_violations: Callable[[Any], list[dict[str, Any]]]
    problems: list[str] = field(default_factory=list)
    inaccessible: dict[str, str] = field(default_factory=dict)
    fade_followed: bool = False


def _photograph(person: Any, site_page: SitePage, data: SiteData, found: Findings) -> None:
    """The page at each size: photographed, and what scrolls sideways, shows an id or
    fails axe added to ``found``."""
    for visit, (size_name, size) in enumerate(SIZES.items()):
        person.page.set_viewport_size(size)
        response = open_page(person.page, person.base_url, site_page, data)
        assert response is not None, site_page.name
        assert response.status == site_page.expected_status(visit), site_page.name
        path = ARTIFACTS / f"{site_page.name}-{size_name}.png"
        person.page.screenshot(path=str(path), full_page=True)
        assert path.stat().st_size > 0
        where = f"{site_page.name} at {size_name}"
        found.problems += layout_problems(person.page, where, tables_as_cards=size_name == "phone")
        found.problems += ids_shown(person.page, where)
        if violations := found.axe_violations(person.page):
            found.inaccessible[f"{where} width"] = describe(violations)
        if (
            not found.fade_followed
            and size_name == "phone"
            and person.page.evaluate(FIRST_SCROLLER)
        ):
            # Scrolled to its end, the fade moves to the other side.
            box = person.page.locator("[data-first-scroller]")
            expect(box).to_have_attribute("data-more", "right")
            box.evaluate("box => box.scrollTo(box.scrollWidth, 0)")
            expect(box).to_have_attribute("data-more", "left")
            found.fade_followed = True


@pytest.mark.parametrize("language", ["mk", "sr-cyrl"])
def test_the_table_is_photographed_in_a_longer_language_without_clipped_text(
    language: str, player_factory: Callable[..., Any]
) -> None:
    data = make_site_data()
    Profile.objects.update(language=language)
    member = player_factory(SIGNED_IN_AS)
    member.log_in(SIGNED_IN_AS, PASSWORD)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    table = next(site_page for site_page in PAGES if site_page.name == "table")

    problems: list[str] = []
    for size_name, size in SIZES.items():
        member.page.set_viewport_size(size)
        response = open_page(member.page, member.base_url, table, data)
        assert response is not None and response.ok
        expect(member.page.locator("html")).to_have_attribute("lang", language)
        member.page.screenshot(
            path=str(ARTIFACTS / f"table-{language}-{size_name}.png"), full_page=True
        )
        problems += layout_problems(member.page, size_name, tables_as_cards=size_name == "phone")

    assert not problems, f"the table in {language}:\n" + "\n".join(problems)
