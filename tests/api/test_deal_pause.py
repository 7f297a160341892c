"""The pause between deals: a live table shows the finished deal's summary (every hand,
every score) before the next deal, which is dealt when every person in the game is ready
(bots never wait) or when the pause's due time passes and the deadline sweep runs. Moves
during the pause are refused; a correspondence game deals the next deal at once."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest

from games import tasks
from games.models import Game
from games.play import timeouts
from tests.asyncapi_contract import contract
from tests.gamekit import (
    SchemaChecker,
    Table,
    current_engine_deal,
    error_of,
    quick_actions,
)
from tests.group_events_kit import heard

pytestmark = pytest.mark.django_db
GAME = "/api/v1/games/{game_id}"
TWO_DEALS = {"match_deals": [2, 2, 2]}


def live_table(clients: list[Any], *, bots: tuple[str, ...] = (), kind: str = "live") -> Table:
    """A serbian match of two deals (``kind`` time control): ``clients[0]`` hosts, the
    other clients join, ``bots`` take the remaining seats."""
    players = len(clients) + len(bots)
    response = clients[0].post(
        "/api/v1/games",
        {
            "preset": "serbian",
            "players": players,
            "overrides": TWO_DEALS,
            "time_control": kind,
            "bots": list(bots),
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    game_id = response.json()["id"]
    for client in clients[1:]:
        assert client.post(f"/api/v1/games/{game_id}/join", {}, format="json").status_code == 200
    started = clients[0].post(f"/api/v1/games/{game_id}/start")
    assert started.status_code == 200, started.json()
    return Table(game_id, list(clients), None)


def view_of(table: Table) -> dict[str, Any]:
    """The game as its host sees it."""
    response = table.clients[0].get(table.url())
    assert response.status_code == 200, response.json()
    body: dict[str, Any] = response.json()
    return body


def client_of_seat(table: Table, position: int) -> Any:
    seats = {s["user"]["username"]: s["position"] for s in view_of(table)["seats"]}
    return next(c for c in table.clients if seats[c.user.username] == position)


def finish_first_deal(table: Table) -> int:
    """The starter goes out in one turn (``quick_deals``); returns the starter's seat."""
    starter = current_engine_deal(table.game).to_move
    client = client_of_seat(table, starter)
    for action in quick_actions():
        answer = client.post(
            table.url("/actions"),
            {"action": action.to_dict(), "ply": table.game.ply},
            format="json",
        )
        assert answer.status_code == 200, answer.json()
    return starter


def ready(table: Table, client: Any) -> Any:
    return client.post(table.url("/ready"))


def test_a_live_table_pauses_after_a_deal_until_every_player_is_ready(players, quick_deals):
    table = live_table(players(2))
    finish_first_deal(table)

    view = view_of(table)
    pause = view["pause"]
    assert view["deal_number"] == 1 and view["to_move"] is None
    assert pause["deal"] == 1 and pause["ready"] == []
    ended = Game.objects.get(public_id=table.game_id)
    assert ended.next_deal_at - ended.deal_over_at == timedelta(seconds=15)
    # The summary's data: every hand left, every score.
    [result] = view["deals"]
    assert result["scores"] == [-280, 400] or result["scores"] == [400, -280]
    assert all(
        len(hand)
        for hand, score in zip(result["hands_left"], result["scores"], strict=True)
        if score > 0
    )
    SchemaChecker(table.clients[0]).check("GET", GAME, 200, view)

    first = ready(table, table.clients[0])
    assert first.status_code == 200, first.json()
    assert first.json()["pause"]["ready"] == [first.json()["you"]]
    assert first.json()["deal_number"] == 1
    SchemaChecker(table.clients[0]).check("POST", GAME + "/ready", 200, first.json())

    second = ready(table, table.clients[1])
    assert second.status_code == 200, second.json()
    assert second.json()["deal_number"] == 2 and second.json()["pause"] is None
    assert second.json()["to_move"] is not None
    game = Game.objects.get(public_id=table.game_id)
    assert game.deadline_at is not None and game.next_deal_at is None

    again = ready(table, table.clients[0])
    assert again.status_code == 409 and error_of(again)["code"] == "no_deal_pause"


def test_a_move_during_the_pause_is_refused(players, quick_deals):
    table = live_table(players(2))
    starter = finish_first_deal(table)

    answer = client_of_seat(table, starter).post(
        table.url("/actions"), {"action": {"type": "draw"}, "ply": table.game.ply}, format="json"
    )

    assert answer.status_code == 409
    error = error_of(answer)
    assert error["code"] == "deal_paused" and error["details"]["next_deal_at"]
    assert table.game.deal_number == 1


def test_the_sweep_deals_the_next_deal_when_the_pause_is_over(players, quick_deals, settings):
    settings.REMI_DEAL_PAUSE_SECONDS = 1
    table = live_table(players(2))
    finish_first_deal(table)
    game = table.game
    assert game.next_deal_at is not None
    # Not yet due: the sweep leaves it.
    assert not timeouts.pause_end(
        game_pk=game.pk, ply=game.ply, now=game.next_deal_at - timedelta(milliseconds=1)
    )

    deadline = time.monotonic() + 20
    while table.game.deal_number == 1:
        assert time.monotonic() < deadline, "the sweep never dealt the next deal"
        tasks.sweep_deadlines()

    view = view_of(table)
    assert view["deal_number"] == 2 and view["pause"] is None and view["to_move"] is not None
    # A second sweep deals nothing more.
    assert not timeouts.pause_end(game_pk=game.pk, ply=game.ply)
    assert table.game.deal_number == 2


def test_a_correspondence_game_deals_the_next_deal_at_once(players, quick_deals):
    table = live_table(players(2), kind="correspondence")
    finish_first_deal(table)

    view = view_of(table)
    assert view["deal_number"] == 2 and view["pause"] is None and view["to_move"] is not None
    assert len(view["deals"]) == 1


def test_a_game_of_one_person_and_bots_waits_for_the_person(players, bots, quick_deals):
    [person] = players(1)
    table = live_table([person], bots=(bots[0].username,))
    assert current_engine_deal(table.game).to_move == 0  # the person starts the first deal
    finish_first_deal(table)

    view = view_of(table)
    assert view["deal_number"] == 1 and view["pause"]["ready"] == []

    answer = ready(table, person)
    assert answer.status_code == 200, answer.json()
    assert table.game.deal_number == 2
    assert answer.json()["pause"] is None


def test_the_deal_over_and_ready_events_say_when_the_next_deal_starts(
    players, quick_deals, django_capture_on_commit_callbacks
):
    table = live_table(players(2))
    starter = current_engine_deal(table.game).to_move
    lay, discard = quick_actions()
    client = client_of_seat(table, starter)
    assert (
        client.post(
            table.url("/actions"), {"action": lay.to_dict(), "ply": table.game.ply}, format="json"
        ).status_code
        == 200
    )

    def going_out() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            answer = client.post(
                table.url("/actions"),
                {"action": discard.to_dict(), "ply": table.game.ply},
                format="json",
            )
            assert answer.status_code == 200, answer.json()

    events = heard(table.game_id, going_out)
    [over] = [event for event in events if event["type"] == "deal_over"]
    assert over["ended_at"] and over["next_deal_at"]
    assert not [event for event in events if event["type"] in ("deal_started", "turn")]
    contract().check_server_frame({"game": table.game_id, "ply": table.game.ply, **over})

    def both_ready() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            assert ready(table, table.clients[0]).status_code == 200
            assert ready(table, table.clients[1]).status_code == 200

    events = heard(table.game_id, both_ready)
    kinds = [event["type"] for event in events]
    assert kinds.count("deal_ready") == 2 and "deal_started" in kinds and "turn" in kinds
    for event in events:
        if event["type"] in ("deal_ready", "deal_started"):
            contract().check_server_frame({"game": table.game_id, "ply": 1, **event})
