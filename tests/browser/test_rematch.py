"""A rematch in the browser: at the finished table of two people and a built-in bot, one
offers it, the bot has accepted at once, the other sees who has answered and accepts,
and both pages go to the new game (the answers arrive on the account's event stream,
or by the table's poll)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from accounts import services as account_services
from games.challenges.services import challenge_decline
from games.models import Challenge, Game
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from games.play.resign import game_resign
from tests.browser.deal_end import PASSWORD
from tests.browser.network_kit import Held, record_frames

pytestmark = pytest.mark.django_db(transaction=True)


def finished_with_a_bot() -> tuple[Game, str]:
    """vera, mila and a built-in bot; both people resign, the bot is left the winner."""
    users = {
        name: get_user_model().objects.create_user(username=name, password=PASSWORD)
        for name in ("vera", "mila")
    }
    bot = account_services.bots_ensure()[0]
    game = game_create(owner=users["vera"], preset="serbian", players=3, bots=[bot])
    game_join(game=game, user=users["mila"])
    game = game_start(game=game, user=users["vera"])
    for name in ("mila", "vera"):
        game = game_resign(game=game, user=users[name])
    assert game.status == Game.Status.FINISHED
    return game, bot.profile.display_name


# Pushed on the account's event stream (the ASGI site's websocket), or read by the
# table's poll (a site without websockets).
@pytest.mark.parametrize("site", ["asgi_player_factory", "player_factory"])
def test_a_rematch_offered_at_the_table_starts_when_the_other_person_accepts(
    site: str, request: pytest.FixtureRequest
) -> None:
    new_player: Callable[..., Any] = request.getfixturevalue(site)
    game, bot_name = finished_with_a_bot()
    vera = new_player("vera")
    vera.log_in("vera", PASSWORD)
    vera.goto(f"/games/{game.public_id}/")
    mila = new_player("mila", width=390, height=844)
    mila.log_in("mila", PASSWORD)
    mila.goto(f"/games/{game.public_id}/")
    expect(mila.page.locator("#rematch-offer")).to_be_visible()

    vera.page.get_by_role("button", name="Offer a rematch").click()

    expect(vera.page.locator("#rematch-status")).to_contain_text("You offered a rematch")
    answers = mila.page.locator("#rematch-answers")
    expect(mila.page.locator("#rematch-status")).to_contain_text("vera offers a rematch.")
    expect(answers.locator('li[data-answer="accepted"]')).to_have_count(2)
    expect(answers).to_contain_text(bot_name)
    expect(answers.locator('li[data-answer="pending"]')).to_contain_text("mila")
    expect(vera.page.locator("#rematch-cancel")).to_be_visible()
    mila.screenshot("rematch-offered-phone")

    mila.page.get_by_role("button", name="Accept the rematch").click()

    # The URL polled, not a navigation awaited: a load that another aborts would fail
    # the wait, though the page ends where it should.
    another_game = re.compile(rf"/games/(?!{game.public_id}/)\w+/$")
    for player in (mila, vera):
        expect(player.page).to_have_url(another_game)
    challenge = Challenge.objects.select_related("game").get(rematch_of=game)
    assert challenge.status == Challenge.Status.ACCEPTED and challenge.game is not None
    assert challenge.game.status == Game.Status.ACTIVE
    for player in (mila, vera):
        expect(player.page).to_have_url(re.compile(f"/games/{challenge.game.public_id}/$"))
        expect(player.page.locator("#hand .pcard").first).to_be_visible()


def test_a_decline_that_comes_while_the_offer_is_answered_is_not_hidden_by_the_answer(
    asgi_player_factory: Callable[..., Any],
) -> None:
    # The answer to "offer a rematch" is the offer as it was made. A frame that mila
    # declined may come while that answer is on its way: the panel must end on the
    # decline, not on the older answer (with the stream open, nothing polls the offer).
    game, _bot_name = finished_with_a_bot()
    vera = asgi_player_factory("vera")
    vera.log_in("vera", PASSWORD)
    page = vera.page
    record_frames(page)
    vera.goto(f"/games/{game.public_id}/")
    expect(page.locator("#rematch-offer")).to_be_visible()
    page.wait_for_function(
        "() => window.__frames.some((f) => f.type === 'subscribed' && f.stream === 'events')"
    )
    offers = Held(page, "**/rematch", method="POST")
    page.get_by_role("button", name="Offer a rematch").click()
    offered, answer = offers.played_late()
    offer = Challenge.objects.get(rematch_of=game)
    mila = get_user_model().objects.get(username="mila")
    challenge_decline(public_id=offer.public_id, user=mila)
    page.wait_for_function(
        "() => window.__frames.some((f) => f.challenge && f.challenge.status === 'declined')"
    )
    offered.fulfill(response=answer)
    offers.stop()
    expect(page.locator("#rematch-status")).to_have_text("The rematch was declined.", timeout=5000)
