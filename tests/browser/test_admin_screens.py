"""The admin at a phone's width and a desktop's, in the pseudo-locale's longer words: a
moderator may act from a phone. Every page of tests/moderation/admin_walk_kit.py (each
model's list, add page and first object, each action on an object) at 360×640 and at
1280×800 neither widens the page past the screen nor clips or breaks a word of a button,
label or heading, and draws no text too small to read. The admin's own tables scroll in
their box (Django's layout for a narrow screen), so a box that scrolls sideways is not a
fault here as on the site's pages. A photograph of each page at each width goes to
artifacts/screenshots/."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import Profile
from tests import pseudo_locale_kit as pseudo
from tests.browser.layout_kit import BROKEN_MID_WORD, CLIPPED, STICKING_OUT, TOO_SMALL
from tests.browser.player_kit import ROOT
from tests.browser.site_pages import make_site_data
from tests.moderation.admin_walk_kit import admin_pages

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

SCREENSHOTS = ROOT / "artifacts" / "screenshots"
PHONE = (360, 640)
DESKTOP = (1280, 800)
PASSWORD = "pw-boss-1"


def admin_layout_problems(page: Any, where: str) -> list[str]:
    problems = []
    width = page.evaluate("() => document.documentElement.scrollWidth")
    if width > page.viewport_size["width"]:
        sticking_out = ", ".join(page.evaluate(STICKING_OUT))
        problems.append(f"{where}: the page is {width}px wide ({sticking_out})")
    problems += [f"{where}: clipped {text}" for text in page.evaluate(CLIPPED)]
    problems += [f"{where}: broken mid-word {text}" for text in page.evaluate(BROKEN_MID_WORD)]
    problems += [f"{where}: too small {text}" for text in page.evaluate(TOO_SMALL)]
    return problems


def signed_in_to_the_admin(moderator: Any) -> Any:
    moderator.goto("/admin/login/")
    moderator.page.fill("#id_username", "boss")
    moderator.page.fill("#id_password", PASSWORD)
    moderator.page.click("form [type=submit]")
    moderator.page.wait_for_url(f"{moderator.base_url}/admin/")
    return moderator


def test_every_admin_page_fits_a_phone_and_a_desktop_in_the_pseudo_locale(
    player_factory: Callable[..., Any], settings: Any
) -> None:
    language = pseudo.enable(settings)
    make_site_data()
    boss = get_user_model().objects.create_superuser("boss", "boss@example.org", PASSWORD)
    Profile.objects.filter(user=boss).update(language=language)
    # The moderator on a phone and at a desk: a browser of each kind.
    screens = {
        "phone": signed_in_to_the_admin(
            player_factory("boss", *PHONE, has_touch=True, is_mobile=True)
        ),
        "desktop": signed_in_to_the_admin(player_factory("boss", *DESKTOP)),
    }
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    problems: list[str] = []
    walked = 0
    for url in admin_pages(Client()):
        # One name per page whatever its row's id, so that each run replaces its photographs.
        name = re.sub(r"/\d+/", "/first/", url).strip("/").replace("/", "-")
        for size_name, moderator in screens.items():
            answer = moderator.page.goto(moderator.base_url + url)
            assert answer is not None and answer.status in (200, 403), url
            if answer.status == 403:
                break
            walked += 1
            moderator.page.screenshot(path=str(SCREENSHOTS / f"{name}-{size_name}-xa.png"))
            problems += admin_layout_problems(moderator.page, f"{url} at {size_name} width")

    assert walked > 2 * 40
    assert not problems, "the admin in the pseudo-locale:\n" + "\n".join(problems)
