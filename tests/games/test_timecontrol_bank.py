"""The live time bank: each seat's seconds for the whole game, used by the part of a
turn that runs past ``seconds_per_turn`` (games.clock)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db.models import F
from django.utils import timezone

from games.models import Game, Seat
from games.play.act import game_act
from games.read.selectors import current_deal
from tests.gamekit import SchemaChecker, error_of, greedy_action

GAMES = "/api/v1/games"


def to_move(game: Game) -> Seat:
    game.refresh_from_db()
    deal = current_deal(game)
    assert deal is not None
    return game.seats.select_related("user").get(position=deal.to_move)


def age_turn(game: Game, seconds: float) -> None:
    """Make the current turn look ``seconds`` older (its start and its deadline)."""
    by = timedelta(seconds=seconds)
    Game.objects.filter(pk=game.pk).update(
        turn_started_at=F("turn_started_at") - by, deadline_at=F("deadline_at") - by
    )
    game.refresh_from_db()


def play_turn(game: Game) -> Seat:
    """The player to move plays their whole turn (greedy); returns their seat."""
    seat = to_move(game)
    for _ in range(10):
        deal = current_deal(game)
        assert deal is not None
        game_act(game=game, user=seat.user, action=greedy_action(deal), expected_ply=game.ply)
        if to_move(game).pk != seat.pk or game.status != Game.Status.ACTIVE:
            break
    seat.refresh_from_db()
    return seat


def close_to(moment: Any, expected: Any, slack: float = 2.0) -> bool:
    return abs((moment - expected).total_seconds()) <= slack


@pytest.fixture
def live_bank(started: Callable[..., tuple[Game, list[Any]]]) -> Callable[..., Game]:
    def make(bank: int, players: int = 2, seconds: int = 30) -> Game:
        game, _ = started(players, time_control="live", seconds_per_turn=seconds, time_bank_s=bank)
        return game

    return make


def test_the_deadline_includes_the_movers_bank(live_bank: Callable[..., Game]) -> None:
    game = live_bank(60)
    assert game.time_bank_s == 60
    assert game.turn_started_at is not None and game.deadline_at is not None
    assert game.deadline_at - game.turn_started_at == timedelta(seconds=90)


def test_a_slow_turn_uses_the_bank_and_the_next_deadline_is_shorter(
    live_bank: Callable[..., Game],
) -> None:
    game = live_bank(60)
    age_turn(game, 50)  # 20 s past the turn's own 30 s

    slow = play_turn(game)

    assert 19_000 <= slow.time_bank_used_ms <= 22_000
    # The other player's turn: their own full bank.
    game.refresh_from_db()
    assert game.deadline_at - game.turn_started_at == timedelta(seconds=90)
    assert to_move(game).time_bank_used_ms == 0
    play_turn(game)  # quick: no bank used
    game.refresh_from_db()
    assert to_move(game).pk == slow.pk
    left = game.deadline_at - game.turn_started_at - timedelta(seconds=30)
    assert timedelta(seconds=38) <= left <= timedelta(seconds=41)


def test_a_quick_turn_keeps_the_whole_bank(live_bank: Callable[..., Game]) -> None:
    game = live_bank(30)
    age_turn(game, 25)  # within the turn's own 30 s
    assert play_turn(game).time_bank_used_ms == 0


def test_the_bank_never_goes_below_empty(live_bank: Callable[..., Game]) -> None:
    game = live_bank(30)
    # The player was away far past the deadline (e.g. the table waited for them).
    Game.objects.filter(pk=game.pk).update(
        turn_started_at=timezone.now() - timedelta(seconds=600),
        deadline_at=timezone.now() + timedelta(seconds=60),
    )
    seat = play_turn(game)
    assert seat.time_bank_used_ms == 30_000
    play_turn(game)
    game.refresh_from_db()
    assert to_move(game).pk == seat.pk
    assert game.deadline_at - game.turn_started_at == timedelta(seconds=30)


def test_without_a_bank_the_clock_is_as_before(live_bank: Callable[..., Game]) -> None:
    game = live_bank(0)
    assert game.deadline_at - game.turn_started_at == timedelta(seconds=30)
    age_turn(game, 25)
    assert play_turn(game).time_bank_used_ms == 0
    game.refresh_from_db()
    assert game.deadline_at - game.turn_started_at == timedelta(seconds=30)


def test_correspondence_games_have_no_bank(started: Callable[..., tuple[Game, list[Any]]]) -> None:
    game, _ = started(2, days_per_move=2)
    assert game.time_bank_s == 0
    assert game.deadline_at - game.turn_started_at == timedelta(days=2)


# ------------------------------------------------------------------ the API


def test_a_live_game_is_created_with_a_bank_and_shows_it(players, started) -> None:
    host, guest = players(2)
    created = host.post(
        GAMES,
        {
            "preset": "serbian",
            "players": 2,
            "time_control": "live",
            "seconds_per_turn": 30,
            "time_bank_s": 120,
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    body = created.json()
    SchemaChecker(host).check("POST", GAMES, 201, body)
    assert body["time_control"]["time_bank_s"] == 120
    assert body["seats"][0]["time_bank_remaining_s"] == 120
    assert body["turn_ends_at"] is None and body["deadline_at"] is None

    url = f"{GAMES}/{body['id']}"
    assert guest.post(f"{url}/join", {}, format="json").status_code == 200
    assert host.post(f"{url}/start").status_code == 200
    view = guest.get(url).json()
    SchemaChecker(guest).check("GET", GAMES + "/{game_id}", 200, view)
    assert [s["time_bank_remaining_s"] for s in view["seats"]] == [120, 120]
    game = Game.objects.get(public_id=body["id"])
    assert view["turn_ends_at"] is not None and view["deadline_at"] is not None
    ends = timezone.datetime.fromisoformat(view["turn_ends_at"])
    deadline = timezone.datetime.fromisoformat(view["deadline_at"])
    assert deadline - ends == timedelta(seconds=120)
    assert close_to(ends, game.turn_started_at + timedelta(seconds=30), 0.01)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"time_control": "live", "time_bank_s": -1}, "time_bank_s must be from 0 to 600"),
        ({"time_control": "live", "time_bank_s": 601}, "time_bank_s must be from 0 to 600"),
        ({"time_control": "correspondence", "time_bank_s": 60}, "time_bank_s is for live games"),
        ({"time_control": "correspondence", "time_bank_s": 0}, "time_bank_s is for live games"),
    ],
)
def test_a_bad_bank_is_refused_with_a_clear_error(players, fields, message) -> None:
    (host,) = players(1)
    response = host.post(GAMES, {"preset": "serbian", "players": 2, **fields}, format="json")
    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "invalid_time_control"
    assert message in error["message"]
    assert not Game.objects.exists()


def test_a_bank_that_is_not_a_number_is_refused(players) -> None:
    (host,) = players(1)
    response = host.post(
        GAMES,
        {"preset": "serbian", "players": 2, "time_control": "live", "time_bank_s": "lots"},
        format="json",
    )
    assert response.status_code == 400 and error_of(response)["code"] == "invalid"


def test_correspondence_views_have_no_bank(players) -> None:
    (host,) = players(1)
    body = host.post(GAMES, {"preset": "serbian", "players": 2}, format="json").json()
    assert body["time_control"]["time_bank_s"] is None
    assert body["seats"][0]["time_bank_remaining_s"] is None
