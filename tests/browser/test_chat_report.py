"""Reporting a line of the table chat: someone else's line has a "Report" control that
sends the line, a reason from the fixed list and a text to the moderators, with
feedback; one's own lines have none."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from accounts.models import Report
from games.models import ChatMessage, Game
from tests.browser.deal_end import PASSWORD


def said(game: Game, user: Any, text: str) -> None:
    """A line already in the chat (written directly: the browser's event loop runs in
    this thread, where the service could not publish)."""
    ChatMessage.objects.create(game=game, user=user, ply=game.ply, text=text)


def test_a_player_reports_anothers_chat_line_but_not_their_own(
    serbian_game: tuple[Game, list[Any]],
    player_factory: Callable[..., Any],
) -> None:
    game, (mila, nina) = serbian_game
    said(game, mila, "good luck")
    said(game, nina, "you will lose, idiot")
    rude = ChatMessage.objects.get(user=nina)
    table = player_factory("mila")
    table.log_in("mila", PASSWORD)
    table.goto(f"/games/{game.public_id}/")
    lines = table.page.locator("#chat-log li")
    expect(lines).to_have_count(2)

    expect(lines.nth(0).locator(".chat-report")).to_have_count(0)  # her own line
    report = lines.nth(1).get_by_role("button", name="Report this message from nina")
    report.click()

    dialog = table.page.locator("#chat-report-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("you will lose, idiot")
    options = dialog.locator("#chat-report-reason option")
    expect(options).to_have_count(5)
    dialog.get_by_label("Reason").select_option("abuse")
    dialog.get_by_label("What happened (optional)").fill("insults after every deal")
    table.screenshot("table-chat-report")
    dialog.get_by_role("button", name="Send the report").click()

    expect(dialog).to_contain_text("Thank you: the moderators will look at it.")
    expect(report).to_have_text("Reported")
    expect(report).to_be_disabled()
    filed = Report.objects.get()
    assert (filed.reporter, filed.reported, filed.chat_message) == (mila, nina, rude)
    assert (filed.reason, filed.text) == ("abuse", "insults after every deal")
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()
    expect(table.page.locator("#chat-log")).to_be_focused()


def test_a_report_that_fails_says_why(
    serbian_game: tuple[Game, list[Any]],
    player_factory: Callable[..., Any],
) -> None:
    game, (mila, nina) = serbian_game
    said(game, nina, "spam spam")
    table = player_factory("mila")
    table.log_in("mila", PASSWORD)
    table.goto(f"/games/{game.public_id}/")
    line = table.page.locator("#chat-log li").first
    expect(line).to_contain_text("spam spam")
    nina_line = ChatMessage.objects.get()
    nina_line.delete()  # gone before the report reaches the server

    line.locator(".chat-report").click()
    dialog = table.page.locator("#chat-report-dialog")
    dialog.get_by_role("button", name="Send the report").click()

    status = dialog.locator(".chat-report-status")
    expect(status).not_to_be_empty()
    expect(status).to_have_class("chat-report-status small chat-report-error")
    expect(dialog.locator(".chat-report-form")).to_be_visible()
    assert not Report.objects.exists()
