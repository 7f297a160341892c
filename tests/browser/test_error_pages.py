"""The pages said without the request's context (a request that could not be read, a
server error, the database away: templates/error_bare.html), at a phone's width and a
laptop's, in English and in the pseudo-locale: every word translated, nothing cut or
scrolled sideways. The walk of the site's pages cannot reach them (it would need the
server to fail), so each is rendered as its handler renders it and shown from the
test server's address, its stylesheet from there."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.template import loader
from django.utils import translation
from playwright.sync_api import expect

from tests import pseudo_locale_kit as pseudo
from tests.browser.layout_kit import layout_problems
from tests.browser.site_pages import DESKTOP, PHONE

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

BARE_PAGES = ("400.html", "500.html", "503.html")


def answering(html: str) -> Callable[[Any], None]:
    """A route handler that answers with ``html``."""
    return lambda route: route.fulfill(body=html, content_type="text/html")


def test_the_pages_said_without_context_read_whole_on_a_phone_and_a_laptop(
    player_factory: Callable[..., Any], settings: Any
) -> None:
    visitor = player_factory("visitor", **PHONE)
    page = visitor.page
    problems: list[str] = []
    for language in ("en", pseudo.enable(settings)):
        for name in BARE_PAGES:
            with translation.override(language):
                # Without the refresh the 503 page has: the page must hold still.
                html = loader.get_template(name).render({"retry_after": ""})
            if language != "en":
                words = re.sub(r"<[^>]*>", " ", html.split("<body>", 1)[1])
                left = pseudo.outside_markers(words)
                assert not any(character.isalpha() for character in left), (name, left)
            path = f"/bare/{language}/{name}"
            page.route(f"**{path}", answering(html))
            for size in (PHONE, DESKTOP):
                page.set_viewport_size(size)
                visitor.goto(path)
                expect(page.locator("html")).to_have_attribute("lang", language)
                expect(page.locator("h1")).to_be_visible()
                where = f"{name} in {language} at {size['width']}"
                visitor.screenshot(f"bare-{name.removesuffix('.html')}-{size['width']}-{language}")
                problems += layout_problems(page, where, tables_as_cards=False)
    assert problems == []
