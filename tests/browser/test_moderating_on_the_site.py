"""A moderator works from the site: from a chat report in the queue to a two-hour mute
that closes the account's reports, then a warning the player reads and acknowledges
at their next page; she appeals the mute and the moderator grants it from the queue;
the reporter sees "Action taken". The moderator's steps to the mute and the warning
are counted (pages loaded and interactions), against the admin's path from report to
ban (about 12 interactions)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import Group
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import Report, Sanction
from accounts.moderation import services
from accounts.moderation.roles import MODERATOR_GROUP, moderator_group_ensure
from games.models import ChatMessage, Game
from tests.browser.deal_end import PASSWORD
from tests.browser.moderation_steps import Steps


def test_a_moderator_goes_from_a_chat_report_to_a_two_hour_mute_and_a_warning(
    serbian_game: tuple[Game, list[Any]],
    player_factory: Callable[..., Any],
    django_user_model: Any,
) -> None:
    game, (mila, nina) = serbian_game
    line = ChatMessage.objects.create(game=game, user=nina, ply=game.ply, text="idiot")
    services.report_create(reporter=mila, reported=nina, reason="abuse", chat_message=line)
    moderator_group_ensure()
    mod = django_user_model.objects.create_user(username="mod", password=PASSWORD, is_staff=True)
    mod.groups.add(Group.objects.get(name=MODERATOR_GROUP))
    desk = player_factory("mod")
    desk.log_in("mod", PASSWORD)
    page = desk.page
    steps = Steps(page, desk.base_url)

    # The mute: the queue, take the account's reports, fill the mute's form.
    steps.start()
    steps.goto("/moderation/queue/")
    expect(page.locator('tr[data-account="nina"] .count')).to_have_text("1")
    steps.click(page.locator('tr[data-account="nina"]').get_by_role("button", name="Take"))
    expect(page.locator("#open-reports")).to_contain_text("idiot")
    mute = page.locator("#action-mute")
    steps.click(mute.locator("summary"))
    steps.select(mute.get_by_label("Reason"), "abuse")
    steps.fill(mute.get_by_label("For"), "2")
    steps.select(mute.get_by_label("Unit"), "hours")
    expect(mute.get_by_label("Act on all of this account's open reports")).to_be_checked()
    steps.click(mute.get_by_role("button", name="Mute in chat"))
    expect(page.locator(".message").first).to_contain_text("nina is muted in chat until")
    expect(page.locator("#action-unmute")).to_have_count(1)
    mute_steps = steps.done("report to a two-hour mute (moderator)")

    # The warning, from the same page.
    steps.start()
    warn = page.locator("#action-warn")
    steps.click(warn.locator("summary"))
    steps.select(warn.get_by_label("Reason"), "abuse")
    steps.click(warn.get_by_role("button", name="Warn"))
    expect(page.locator(".message").first).to_contain_text("nina is warned")
    warn_steps = steps.done("then a warning (moderator)")

    muted = Sanction.objects.get(user=nina, kind="mute")
    assert timedelta(minutes=118) < muted.ends_at - timezone.now() <= timedelta(hours=2)
    report = Report.objects.get()
    assert report.status == Report.Status.RESOLVED
    assert report.mod_actions.filter(action="mute", game=game).exists()
    assert (mute_steps, warn_steps) == ((3, 6), (1, 3))

    # The player reads the warning at her next page and acknowledges it.
    player = player_factory("nina")
    own = Steps(player.page, player.base_url)
    own.start()
    own.goto("/accounts/login/")
    own.fill(player.page.locator("#id_username"), "nina")
    own.fill(player.page.locator("#id_password"), PASSWORD)
    own.click(player.page.get_by_role("button", name="Log in"))
    expect(player.page.locator("#warning")).to_contain_text("Abusive or insulting chat")
    player.goto(f"/games/{game.public_id}/")
    expect(player.page.locator("#warning")).to_be_visible()  # until acknowledged
    own.start()
    own.click(player.page.get_by_role("button", name="I have read this warning"))
    player.page.wait_for_url(f"**/games/{game.public_id}/")
    own.done("the warning acknowledged (player)")
    assert Sanction.objects.get(user=nina, kind="warning").acknowledged_at is not None

    # She appeals the mute from her sanctions page; the moderator answers from the queue.
    own.start()
    own.goto("/moderation/sanctions/")
    own.click(player.page.locator(f'li[data-sanction="{muted.pk}"]').get_by_role("link"))
    own.fill(player.page.get_by_label("Why should the sanction be lifted?"), "I was provoked.")
    own.click(player.page.get_by_role("button", name="Send the appeal"))
    expect(player.page.locator("#my-sanctions")).to_contain_text("Waiting for a moderator")
    own.done("an appeal sent (player)")
    steps.start()
    steps.goto("/moderation/queue/")
    steps.click(page.locator('#appeals li[data-account="nina"]').get_by_role("link"))
    answer = page.locator(".appeal form")
    steps.select(answer.get_by_label("Answer", exact=True), "grant")
    steps.fill(
        answer.get_by_label("Your words to the player"), "Lifted: the other side started it."
    )
    steps.click(answer.get_by_role("button", name="Answer the appeal"))
    expect(page.locator("#action-unmute")).to_have_count(0)
    steps.done("the appeal answered (moderator)")
    own.start()
    own.goto(f"/moderation/sanctions/{muted.pk}/appeal/")
    expect(player.page.locator("#appeal-status")).to_contain_text("Granted")
    expect(player.page.locator("#appeal-answer")).to_contain_text("the other side started it")
    own.done("the answer read (player)")

    # The reporter sees the outcome, not the sanction.
    reporter = player_factory("mila")
    reporter.log_in("mila", PASSWORD)
    theirs = Steps(reporter.page, reporter.base_url)
    theirs.start()
    theirs.goto("/moderation/reports/")
    expect(reporter.page.locator("#my-reports .outcome")).to_have_text("Action taken")
    expect(reporter.page.locator("#my-reports")).not_to_contain_text("mute")
    theirs.done("the outcome read (reporter)")
