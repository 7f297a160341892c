"""A game its player muted sends them nothing, its deadline in the calendar feed
included; unmuted, it is back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from icalendar import Calendar

from tests.games.notify_kit import duel, person, play_turn, site_path, web_client

pytestmark = pytest.mark.django_db(transaction=True)


def deadlines_in_feed(client: Any) -> list[str]:
    """The games whose deadlines the player's feed lists (fetched as a calendar app
    would, without logging in)."""
    path = site_path(client.get("/api/v1/me/notifications").json()["calendar_url"])
    response = web_client().get(path)
    assert response.status_code == 200
    events = Calendar.from_ical(response.content).walk("VEVENT")
    return sorted(str(event["url"]).rstrip("/").rsplit("/", 1)[-1] for event in events)


def test_a_muted_game_leaves_the_calendar_feed_and_comes_back_unmuted(
    user_factory: Callable[..., Any], deals_seeded: Any, client_for: Callable[[Any], Any]
) -> None:
    me = person(user_factory, "ana")
    games = [duel(user_factory, users=[me, person(user_factory, name)]) for name in ("iva", "rade")]
    for table in games:
        if table.mover.pk != me.pk:
            play_turn(table.game_id, table.mover)  # my move now, in both
    client = client_for(me)
    before = deadlines_in_feed(client)
    muted = games[0].game_id

    assert client.post(f"/api/v1/games/{muted}/mute").json() == {"muted": True}
    while_muted = deadlines_in_feed(client)
    assert client.delete(f"/api/v1/games/{muted}/mute").json() == {"muted": False}

    assert before == sorted(table.game_id for table in games)
    assert while_muted == [game_id for game_id in before if game_id != muted]
    assert deadlines_in_feed(client) == before
