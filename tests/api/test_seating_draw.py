"""Remik 51's seating by drawn cards through the API: the cards are in the game state
and in the move log, the seats follow them clockwise from the highest, and the
highest card plays first."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import parse_cards
from games.engine.seating import SeatingDraw, draw_value
from games.models import Game
from games.play import shuffle
from games.read.replay import game_replay
from tests.gamekit import SchemaChecker

pytestmark = pytest.mark.django_db

GAMES = "/api/v1/games"

# The Polish seed, verbatim.
SEED_SEATING = (
    "Na początku każdej partii ustala się kolejność graczy, każdy gracz otrzymuje losową "
    "kartę, a gracz z najwyższą kartą rozpoczyna grę, kolejność pozostałych graczy ustala "
    "się w zależności od wartości ich kart, zgodnie z ruchem wskazówek zegara."
)


def start(clients: list[Any], preset: str = "polish51") -> dict[str, Any]:
    """The host creates the game, the others join in order, the host starts it."""
    created = clients[0].post(GAMES, {"preset": preset, "players": len(clients)}, format="json")
    assert created.status_code == 201, created.json()
    game_id = created.json()["id"]
    for client in clients[1:]:
        assert client.post(f"{GAMES}/{game_id}/join", {}, format="json").status_code == 200
    started = clients[0].post(f"{GAMES}/{game_id}/start")
    assert started.status_code == 200, started.json()
    body: dict[str, Any] = started.json()
    return body


def scripted_draw(monkeypatch: pytest.MonkeyPatch, *cards: str) -> None:
    """The players, in lobby order, draw these cards (a tie's redraws after a space)."""
    drawn = SeatingDraw.from_draws([parse_cards(player) for player in cards])
    monkeypatch.setattr(shuffle, "seating_source", lambda players: drawn)


def values_clockwise(seating: dict[str, Any]) -> list[tuple[int, ...]]:
    cards = seating["cards"]
    n = len(cards)
    return [
        tuple(draw_value(card) for card in parse_cards(cards[(seating["starter"] + k) % n]))
        for k in range(n)
    ]


def test_the_drawn_cards_are_in_the_state_and_the_log_and_the_seats_follow_them(
    players, deals_seeded, spectator
):
    clients = players(4)
    view = start(clients)

    seating = view["seating"]
    assert SEED_SEATING.startswith("Na początku każdej partii")
    # The highest card starts; clockwise from it every card is lower (ties drew again).
    values = values_clockwise(seating)
    assert values == sorted(values, reverse=True) and len(set(values)) == 4
    assert view["to_move"] == seating["starter"]
    assert view["deal"]["to_move"] == seating["starter"]
    # Everyone sits where the draw put them: the player of lobby seat L is now at S.
    lobby = [client.user.username for client in clients]
    assert [seat["user"]["username"] for seat in view["seats"]] == [
        lobby[before] for before in seating["lobby_seats"]
    ]
    # Everyone sees the same draw, spectators too, and the move log keeps it.
    game_id = view["id"]
    for reader in [*clients, spectator]:
        assert reader.get(f"{GAMES}/{game_id}").json()["seating"] == seating
        log = reader.get(f"{GAMES}/{game_id}/moves").json()
        assert log["seating"] == seating
    SchemaChecker(clients[0]).check("POST", GAMES + "/{game_id}/start", 200, view)
    # The replay rebuilds the seats from the recorded cards.
    report = game_replay(Game.objects.get(public_id=game_id))
    assert report.ok and report.seating is not None
    assert report.seating.view() == seating


def test_players_move_to_the_seats_their_cards_give(players, deals_seeded, monkeypatch):
    # Lobby order: 7, Q, 3, K. Clockwise from the king: K, Q, 7, 3. Of the four
    # rotations of that order the one that keeps two players in place is taken.
    scripted_draw(monkeypatch, "7H", "QS", "3D", "KC")
    clients = players(4)
    lobby = [client.user.username for client in clients]

    view = start(clients)

    assert [seat["user"]["username"] for seat in view["seats"]] == [
        lobby[1],
        lobby[0],
        lobby[2],
        lobby[3],
    ]
    assert view["seating"] == {
        "cards": [["QS"], ["7H"], ["3D"], ["KC"]],
        "starter": 3,
        "lobby_seats": [1, 0, 2, 3],
    }
    assert view["to_move"] == 3
    # Each client finds itself where it now sits.
    for client in clients:
        me = client.get(f"{GAMES}/{view['id']}").json()
        assert me["seats"][me["you"]]["user"]["username"] == client.user.username


def test_a_tie_is_drawn_again_and_the_log_shows_every_card(players, deals_seeded, monkeypatch):
    # Two kings draw again: 4 beats 2. The ace starts.
    scripted_draw(monkeypatch, "KH 4C", "KS 2C", "AD")
    clients = players(3)

    view = start(clients)

    log = clients[1].get(f"{GAMES}/{view['id']}/moves").json()
    assert sorted(map(tuple, log["seating"]["cards"])) == [("AD",), ("KH", "4C"), ("KS", "2C")]
    assert values_clockwise(log["seating"]) == [(14,), (13, 4), (13, 2)]


def test_two_players_keep_their_seats_and_the_higher_card_starts(
    players, deals_seeded, monkeypatch
):
    scripted_draw(monkeypatch, "5D", "JC")
    clients = players(2)

    view = start(clients)

    assert [seat["user"]["username"] for seat in view["seats"]] == [
        client.user.username for client in clients
    ]
    assert view["seating"]["starter"] == 1 and view["to_move"] == 1


def test_rules_without_the_draw_record_none(players, deals_seeded):
    view = start(players(3), preset="serbian")

    assert view["seating"] is None
    assert view["seats"][0]["user"]["username"] == view["owner"]


def test_a_house_rule_turns_the_draw_on_for_other_rules(players, deals_seeded):
    clients = players(3)
    created = clients[0].post(
        GAMES,
        {"preset": "serbian", "players": 3, "overrides": {"seating_by_card_draw": True}},
        format="json",
    )
    game_id = created.json()["id"]
    for client in clients[1:]:
        client.post(f"{GAMES}/{game_id}/join", {}, format="json")
    view = clients[0].post(f"{GAMES}/{game_id}/start").json()

    assert view["ruleset"]["seating_by_card_draw"] is True
    assert view["to_move"] == view["seating"]["starter"]
