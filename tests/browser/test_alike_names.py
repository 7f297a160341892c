"""Six players of one long display name at one table, on a phone (360×640, holding the
starter's 15 cards) and at 1280: however short a crowded seat cuts the display name,
the username that tells that player apart stays whole."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from accounts.models import Profile
from games.models import Seat
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from tests import pseudo_locale_kit as pseudo
from tests.browser.layout_kit import layout_problems
from tests.browser.phone_hand_kit import HAND
from tests.browser.site_pages import DESKTOP, PHONE
from tests.gamekit import current_engine_deal

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

PASSWORD = "correct-horse-battery-staple"
ALIKE = "Aleksandra Marković-Petrović"
USERNAMES = ["mila", "nina_p", "vesna", "jovan88", "dragana", "emil"]
# Each other seat's label: what of its username is not shown whole, inside its seat.
USERNAMES_CUT = """() => [...document.querySelectorAll('#opponents .seat-label')].map((label) => {
  const tail = label.querySelector('.name-tail');
  if (!tail) return `no username beside "${label.textContent}"`;
  const seat = label.closest('.seat').getBoundingClientRect();
  const box = tail.getBoundingClientRect();
  if (tail.scrollWidth > tail.clientWidth + 1) return `cut: "${label.textContent}"`;
  if (box.left < seat.left - 1 || box.right > seat.right + 1) {
    return `outside its seat: "${label.textContent}"`;
  }
  return null;
}).filter(Boolean)"""


def test_on_a_crowded_table_the_username_beside_a_shared_display_name_is_never_cut(
    starter_hand: Callable[[str], None], player_factory: Callable[..., Any], settings: Any
) -> None:
    starter_hand(HAND)
    users = []
    for username in USERNAMES:
        user = get_user_model().objects.create_user(username=username, password=PASSWORD)
        Profile.objects.filter(user=user).update(display_name=ALIKE)
        users.append(user)
    game = game_create(owner=users[0], preset="macedonian", overrides={"max_players": 6}, players=6)
    for user in users[1:]:
        game_join(game=game, user=user)
    game = game_start(game=game, user=users[0])
    starter = Seat.objects.get(game=game, position=current_engine_deal(game).to_move).user
    player = player_factory(starter.username, **PHONE, has_touch=True, is_mobile=True)
    player.log_in(starter.username, PASSWORD)
    page = player.page
    others = [user.username for user in users if user != starter]

    for language, size in (("en", PHONE), (pseudo.enable(settings), PHONE), ("en", DESKTOP)):
        Profile.objects.filter(user=starter).update(language=language)
        page.set_viewport_size(size)
        player.goto(f"/games/{game.public_id}/")
        expect(page.locator("#hand .pcard")).to_have_count(15)
        labels = page.locator("#opponents .seat-label")
        expect(labels).to_have_count(5)
        for username in others:
            expect(page.locator("#opponents .name-tail", has_text=f"@{username}")).to_have_count(1)
        player.screenshot(f"alike-names-{size['width']}-{language}", full_page=False)
        assert page.evaluate(USERNAMES_CUT) == [], (language, size)
        where = f"{language} at {size['width']}"
        assert layout_problems(page, where, tables_as_cards=False) == []
