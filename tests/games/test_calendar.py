"""The private calendar feed: an ICS file that a calendar library parses, listing
exactly my deadlines (the correspondence games waiting for my move), with my
reminders as alarms, at a secret URL that a reset retires."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from icalendar import Calendar

from games.models import Game, PlayerSettings
from games.play.create import game_create
from games.play.lobby import game_start
from games.play.resign import game_resign
from tests.gamekit import SchemaChecker, error_of
from tests.games.notify_kit import duel, person, play_turn, site_path, web_client

pytestmark = pytest.mark.django_db(transaction=True)


def feed(path: str) -> Calendar:
    """The feed at ``path``, fetched without logging in, parsed."""
    response = web_client().get(path)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return Calendar.from_ical(response.content)


def calendar_path(client: Any) -> str:
    body = client.get("/api/v1/me/notifications").json()
    return site_path(body["calendar_url"])


@pytest.fixture
def my_games(
    user_factory: Callable[..., Any], deals_seeded: Callable[[int], None], bots: list[Any]
) -> tuple[Any, list[str]]:
    """Me, and the ids of the games whose deadlines are mine, among others that are not:
    a game where it is my opponent's turn, a live game on my turn, a finished game,
    other people's game."""
    me = person(user_factory, "ana")
    mine = []
    for name in ("marko", "ivan", "mila"):
        table = duel(user_factory, users=[me, person(user_factory, name)])
        if table.mover.pk != me.pk:
            play_turn(table.game_id, table.mover)
        mine.append(table.game_id)
    theirs = duel(user_factory, users=[me, person(user_factory, "jova")])
    if theirs.mover.pk == me.pk:
        play_turn(theirs.game_id, me)
    over = duel(user_factory, users=[me, person(user_factory, "zora")])
    game_resign(game=over.game, user=me)
    duel(user_factory, names=("petar", "vesna"))
    live = game_create(owner=me, preset="serbian", players=2, time_control="live", bots=[bots[0]])
    game_start(game=live, user=me)
    return me, mine


def test_the_feed_lists_exactly_my_deadlines(my_games, client_for):
    me, mine = my_games
    PlayerSettings.objects.filter(user=me).update(reminder_hours=[24, 2])

    calendar = feed(calendar_path(client_for(me)))

    events = calendar.walk("VEVENT")
    games = {game.public_id: game for game in Game.objects.filter(public_id__in=mine)}
    assert sorted(str(event["url"]).rstrip("/").rsplit("/", 1)[1] for event in events) == sorted(
        mine
    )
    for event in events:
        game = games[str(event["url"]).rstrip("/").rsplit("/", 1)[1]]
        assert event.decoded("dtstart") == game.deadline_at.replace(microsecond=0)
        assert str(event["uid"]) == f"{game.public_id}-{game.ply}@remi-online"
        assert str(event["summary"]).startswith("Remi: your move against ")
        alarms = [alarm.decoded("trigger") for alarm in event.walk("VALARM")]
        assert alarms == [-timedelta(hours=24), -timedelta(hours=2)]
    assert str(calendar["prodid"]) == "-//Remi online//correspondence deadlines//EN"


def test_a_moved_deadline_moves_its_event(my_games, client_for):
    me, mine = my_games
    path = calendar_path(client_for(me))
    game = Game.objects.get(public_id=mine[0])
    assert game.deadline_at is not None
    later = game.deadline_at + timedelta(days=2)
    Game.objects.filter(pk=game.pk).update(deadline_at=later)

    event = next(e for e in feed(path).walk("VEVENT") if mine[0] in str(e["url"]))

    assert event.decoded("dtstart") == later.replace(microsecond=0)


def test_a_reset_gives_a_new_secret_url_and_retires_the_old_one(my_games, client_for):
    me, _mine = my_games
    client = client_for(me)
    old = calendar_path(client)

    reset = client.post("/api/v1/me/calendar/reset")

    assert reset.status_code == 200
    SchemaChecker(client).check("POST", "/api/v1/me/calendar/reset", 200, reset.json())
    new = site_path(reset.json()["calendar_url"])
    assert new != old and new == calendar_path(client)
    assert web_client().get(old).status_code == 404
    assert len(feed(new).walk("VEVENT")) == 3


def test_an_unknown_secret_is_not_found_and_the_reset_needs_a_login(api_client, db):
    assert web_client().get("/calendar/nothing-like-a-secret.ics").status_code == 404
    refused = api_client.post("/api/v1/me/calendar/reset")
    assert refused.status_code == 401 and error_of(refused)["code"] == "not_authenticated"
