"""A moderator at the table, in a browser: from a chat report to the table, a line
hidden (gone from the players' chat at once, over the websocket) and shown again, and a
warning from the seat's menu, the game and the report linked in the modlog; a ban whose
confirmation lists exactly the games it then forfeits, the seat it gives up and the
challenge it cancels; and a moderator seated at a phone keeps the whole hand on the
first screen. The steps of each path are counted (``moderation_steps``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from playwright.sync_api import expect

from accounts.models import ModAction, Profile
from accounts.moderation import services
from accounts.moderation.roles import MODERATOR_GROUP, moderator_group_ensure
from games.challenges.services import challenge_create
from games.models import Challenge, ChatMessage, Game, Seat
from games.play import chat
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from tests.browser.deal_end import PASSWORD
from tests.browser.moderation_steps import Steps
from tests.browser.phone_hand_kit import one_screen_problems, phone_table

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def a_moderator(name: str = "mod") -> Any:
    moderator_group_ensure()
    person = get_user_model().objects.create_user(username=name, password=PASSWORD)
    person.groups.add(Group.objects.get(name=MODERATOR_GROUP))
    return person


def test_a_moderator_hides_a_reported_line_for_the_players_at_once_and_warns_from_the_seat(
    serbian_game: tuple[Game, list[Any]],
    asgi_player_factory: Callable[..., Any],
) -> None:
    game, (mila, nina) = serbian_game
    rude = chat.post_message(game=game, user=nina, text="idiot")
    chat.post_message(game=game, user=mila, text="calm down")
    report = services.report_create(reporter=mila, reported=nina, reason="abuse", chat_message=rude)
    a_moderator()
    player = asgi_player_factory("mila")
    player.log_in("mila", PASSWORD)
    player.goto(f"/games/{game.public_id}/")
    player.page.wait_for_function("() => window.__remiLive && window.__remiLive.connected")
    expect(player.page.locator("#chat-log")).to_contain_text("idiot")
    expect(player.page.locator(".chat-mod, #mod-table")).to_have_count(0)  # a player's view

    desk = asgi_player_factory("mod")
    desk.log_in("mod", PASSWORD)
    page = desk.page
    steps = Steps(page, desk.base_url)
    steps.start()
    steps.goto("/moderation/players/nina/")
    steps.click(page.locator(f'#open-reports a[href^="/games/{game.public_id}/"]'))
    line = page.locator(f'#chat-log li[data-id="{rude.pk}"]')
    steps.click(line.get_by_role("button", name="Hide for everyone the message from nina"))
    expect(line).to_have_class("chat-hidden")
    expect(player.page.locator("#chat-log")).not_to_contain_text("idiot")
    expect(player.page.locator("#chat-log")).to_contain_text("calm down")
    steps.done("report to the line hidden, at the table (moderator)")
    hidden = ModAction.objects.get(action="hide_chat")
    assert (hidden.game, hidden.report, hidden.target) == (game, report, nina)

    # A warning from nina's seat: her page opens on the warning's form.
    steps.start()
    seat = page.locator('#mod-seats li[data-account="nina"]')
    steps.click(seat.locator("summary"))
    steps.click(seat.get_by_role("link", name="Warn"))
    warn = page.locator("#action-warn")
    expect(warn).to_have_attribute("open", "")
    steps.select(warn.get_by_label("Reason"), "abuse")
    steps.click(warn.get_by_role("button", name="Warn"))
    expect(page.locator(".message").first).to_contain_text("nina is warned")
    steps.done("then a warning from the seat's menu (moderator)")
    warned = ModAction.objects.get(action="warn")
    assert (warned.game, warned.report, warned.target) == (game, report, nina)

    # Shown again, the line comes back for the players in its place.
    desk.goto(f"/games/{game.public_id}/")
    line = page.locator(f'#chat-log li[data-id="{rude.pk}"]')
    line.get_by_role("button", name="Show again the message from nina").click()
    expect(line).not_to_have_class("chat-hidden")
    expect(player.page.locator("#chat-log li").first).to_contain_text("idiot")
    assert ChatMessage.objects.get(pk=rude.pk).hidden_at is None


def test_a_ban_forfeits_exactly_the_games_and_cancels_the_challenges_its_preview_listed(
    player_factory: Callable[..., Any], user_factory: Callable[..., Any]
) -> None:
    nina, mila, olga = (user_factory(username=name) for name in ("nina", "mila", "olga"))
    running = []
    for other in (mila, olga):
        game = game_create(owner=other, preset="serbian", players=2)
        game_join(game=game, user=nina)
        running.append(game_start(game=game, user=other))
    lobby = game_create(owner=olga, preset="serbian", players=3)
    game_join(game=lobby, user=nina)
    challenge = challenge_create(challenger=nina, destination=mila, preset="polish51")
    untouched = challenge_create(challenger=mila, destination=olga, preset="polish51")
    services.report_create(reporter=mila, reported=nina, reason="abuse")
    a_moderator()
    desk = player_factory("mod")
    desk.log_in("mod", PASSWORD)
    page = desk.page
    steps = Steps(page, desk.base_url)

    steps.start()
    steps.goto("/moderation/queue/")
    steps.click(page.locator('tr[data-account="nina"]').get_by_role("button", name="Take"))
    ban = page.locator("#action-ban")
    steps.click(ban.locator("summary"))
    steps.select(ban.get_by_label("Reason"), "abuse")
    steps.fill(ban.get_by_label("For"), "3")
    steps.select(ban.get_by_label("Unit"), "days")
    steps.click(ban.get_by_role("button", name="Ban"))
    expect(page.locator("#forfeited li")).to_have_count(2)
    # Each game listed by its rules and start, linked to its table; each challenge by
    # its rules and players.
    listed = {
        what: set(
            page.locator(f"#{what} li a").evaluate_all("links => links.map((a) => a.pathname)")
        )
        for what in ("forfeited", "left")
    }
    challenges_listed = page.locator("#challenges li:not(.muted)").all_inner_texts()
    steps.click(page.locator("#ban-confirm").get_by_role("button", name="Ban"))
    expect(page.locator(".message").first).to_contain_text("nina is banned until")
    expect(page.locator(".message").first).to_contain_text(
        "2 running games forfeited. 1 lobby seat given up."
    )
    steps.done("report to a three-day ban, its preview confirmed (moderator)")

    assert listed["forfeited"] == {f"/games/{game.public_id}/" for game in running}
    assert listed["left"] == {f"/games/{lobby.public_id}/"}
    assert len(challenges_listed) == 1 and "Polish Remik 51: nina to mila" in challenges_listed[0]
    ended = Game.objects.filter(pk__in=[game.pk for game in running], status="finished")
    ended_paths = {
        f"/games/{public_id}/" for public_id in ended.values_list("public_id", flat=True)
    }
    assert ended_paths == listed["forfeited"]
    assert not Seat.objects.filter(user=nina, game=lobby).exists()
    cancelled = Challenge.objects.exclude(status=Challenge.Status.PENDING)
    assert set(cancelled.values_list("public_id", flat=True)) == {challenge.public_id}
    assert Challenge.objects.get(pk=untouched.pk).status == Challenge.Status.PENDING


def test_a_moderator_seated_at_a_phone_keeps_the_whole_hand_on_the_first_screen(
    starter_hand: Callable[[str], None], player_factory: Callable[..., Any]
) -> None:
    game, starter = phone_table(starter_hand, "serbian", 2, {})
    other = Seat.objects.exclude(user__username=starter).get(game=game).user
    for n in range(4):
        chat.post_message(game=game, user=other, text=f"a rather long line of chat number {n}")
    moderator_group_ensure()
    get_user_model().objects.get(username=starter).groups.add(
        Group.objects.get(name=MODERATOR_GROUP)
    )
    Profile.objects.filter(user__username=starter).update(language="en")
    phone = player_factory(starter, 360, 640, has_touch=True, is_mobile=True)
    phone.log_in(starter, PASSWORD)
    page = phone.page
    phone.goto(f"/games/{game.public_id}/")
    expect(page.locator("#hand .hand-card")).to_have_count(15)
    expect(page.locator("#chat-log .chat-mod")).to_have_count(4)
    expect(page.locator(f'#mod-seats li[data-account="{other.username}"]')).to_have_count(1)

    assert one_screen_problems(page, 360, 640, "a moderator's table at 360×640") == []
    hand = page.locator("#hand").bounding_box()
    panel = page.locator("#mod-table").bounding_box()
    assert hand is not None
    if panel is not None and panel["width"] and panel["height"]:
        apart = (
            panel["y"] >= hand["y"] + hand["height"]
            or panel["y"] + panel["height"] <= hand["y"]
            or panel["x"] >= hand["x"] + hand["width"]
            or panel["x"] + panel["width"] <= hand["x"]
        )
        assert apart, f"the moderator's panel {panel} overlaps the hand {hand}"
