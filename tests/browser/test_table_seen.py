"""The table's script tells the server while a player has the table in view (the page
visible and used lately): only then does a "your turn" email wait. A spectator's page
and a hidden one say nothing."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from games.notify import recipients
from tests.games.notify_kit import duel

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery-staple"
DEADLINE_S = 15


def wait_until(condition: Callable[[], bool]) -> bool:
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


def test_a_player_at_the_table_is_reported_seen_and_a_spectator_is_not(
    player_factory: Callable[..., Any],
    user_factory: Callable[..., Any],
    deals_seeded: Any,
) -> None:
    table = duel(user_factory)
    player, watcher = table.users[0], user_factory(username="watcher")
    at_table = player_factory("player")
    at_table.log_in(player.username, PASSWORD)
    looking = player_factory("watcher")
    looking.log_in(watcher.username, PASSWORD)

    looking.goto(f"/games/{table.game_id}/")
    at_table.goto(f"/games/{table.game_id}/")

    assert wait_until(lambda: recipients.table_seen_now(player.pk, table.game_id))
    assert not recipients.table_seen_now(watcher.pk, table.game_id)


def test_a_hidden_table_is_not_reported(
    player_factory: Callable[..., Any],
    user_factory: Callable[..., Any],
    deals_seeded: Any,
) -> None:
    table = duel(user_factory)
    player = table.users[0]
    tab = player_factory("player")
    tab.log_in(player.username, PASSWORD)
    # The tab is in the background from the start (another tab in front of it).
    tab.page.add_init_script(
        "Object.defineProperty(document, 'visibilityState', {get: () => 'hidden'});"
        "Object.defineProperty(document, 'hidden', {get: () => true});"
    )
    reports: list[str] = []
    tab.page.on(
        "request",
        lambda request: reports.append(request.url) if request.url.endswith("/seen") else None,
    )

    tab.goto(f"/games/{table.game_id}/")
    tab.page.wait_for_function("() => document.querySelector('#hand .pcard') !== null")
    tab.page.mouse.move(10, 10)
    tab.page.mouse.move(40, 40)

    assert reports == []
    assert not recipients.table_seen_now(player.pk, table.game_id)
