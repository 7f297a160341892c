"""The table chat in the browser: a line reaches the other player by websocket push, a
spectator reads but cannot write, and a line a moderator hides leaves every screen."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from playwright.sync_api import expect

from games.models import ChatMessage, Game
from games.play import chat
from tests.browser.deal_end import PASSWORD


def test_players_chat_live_a_spectator_reads_and_a_hidden_line_disappears(
    serbian_game: tuple[Game, list[Any]],
    asgi_player_factory: Callable[..., Any],
) -> None:
    game, users = serbian_game
    get_user_model().objects.create_user(username="vera", password=PASSWORD)
    people = [asgi_player_factory(user.username) for user in users]
    watcher = asgi_player_factory("vera")
    names = [user.username for user in users] + ["vera"]
    for person, username in zip((*people, watcher), names, strict=True):
        person.log_in(username, PASSWORD)
        person.goto(f"/games/{game.public_id}/")
        person.page.wait_for_function("() => window.__remiLive && window.__remiLive.connected")
    mila, nina = people
    expect(mila.page.locator(".chat")).to_contain_text("No messages yet.")

    mila.page.fill("#chat-input", "good luck <b>nina</b>")
    mila.page.keyboard.press("Enter")

    for person in (mila, nina, watcher):
        line = person.page.locator("#chat-log li").last
        expect(line).to_contain_text("good luck <b>nina</b>")  # shown as text, not HTML
        expect(line.locator("b")).to_have_text(users[0].username)
    expect(mila.page.locator("#chat-input")).to_have_value("")
    expect(watcher.page.locator("#chat-form")).to_be_hidden()
    expect(watcher.page.locator("#chat-note")).to_contain_text("Spectators read")
    nina.page.fill("#chat-input", "x" * 10)
    expect(nina.page.locator("#chat-count")).to_have_text("")
    nina.screenshot("table-chat")

    # A moderator hides it (from another thread: this one runs Playwright's event loop,
    # and the service publishes through the channel layer from a synchronous caller).
    line = ChatMessage.objects.get()
    moderator = threading.Thread(
        target=lambda: (chat.hide_message(message=line, moderator=users[1]), connection.close())
    )
    moderator.start()
    moderator.join()

    for person in (mila, nina, watcher):
        expect(person.page.locator("#chat-log li")).to_have_count(0)


def test_a_line_hidden_by_a_moderator_leaves_a_page_that_only_polls(
    serbian_game: tuple[Game, list[Any]],
    player_factory: Callable[..., Any],
) -> None:
    # The test server here speaks no websocket: the page polls.
    game, users = serbian_game
    chat.post_message(game=game, user=users[0], text="a line to hide")
    chat.post_message(game=game, user=users[0], text="a line to keep")
    nina = player_factory("nina")
    nina.log_in("nina", PASSWORD)
    nina.goto(f"/games/{game.public_id}/")
    lines = nina.page.locator("#chat-log li")
    expect(lines).to_have_count(2)
    assert not nina.page.evaluate("() => window.__remiLive.connected")

    chat.hide_message(message=ChatMessage.objects.get(text="a line to hide"), moderator=users[1])

    # A poll reads the whole chat every ten seconds (static/js/chat.js): within 20 s.
    expect(lines).to_have_count(1, timeout=20_000)
    expect(lines).to_contain_text("a line to keep")


def test_two_players_of_one_display_name_are_told_apart_at_the_table_and_in_the_chat(
    serbian_game: tuple[Game, list[Any]], player_factory: Callable[..., Any]
) -> None:
    """Display names need not be unique: where two people at one table read the same,
    each is shown with their username, on the other seats and in the chat."""
    game, users = serbian_game
    for user in users:
        user.profile.display_name = "Marko"
        user.profile.save(update_fields=["display_name"])
    mila, nina = users
    chat.post_message(game=game, user=nina, text="I am the real Marko")
    person = player_factory(mila.username)
    person.log_in(mila.username, PASSWORD)
    person.goto(f"/games/{game.public_id}/")
    page = person.page

    # One's own seat is one's own (on a phone its box has room for the name alone).
    expect(page.locator("#me-seat .seat-label")).to_have_text("Marko")
    # Another seat: the display name and the handle that tells it apart.
    other = page.locator("#opponents .seat-label")
    expect(other.locator(".name-main")).to_have_text(["Marko"])
    expect(other.locator(".name-tail")).to_have_text([f"@{nina.username}"])
    expect(other).to_have_attribute("title", f"Marko (@{nina.username})")
    expect(page.locator("#chat-log li b")).to_have_text([f"Marko (@{nina.username})"])
    # Whom a report is about, said in full.
    expect(page.locator("#chat-log .chat-report")).to_have_attribute(
        "aria-label", f"Report this message from Marko (@{nina.username})"
    )

    page.fill("#chat-input", "no, I am")
    page.keyboard.press("Enter")
    expect(page.locator("#chat-log li b")).to_have_text(
        [f"Marko (@{nina.username})", f"Marko (@{mila.username})"]
    )
