"""The queue of games waiting for a player: "my turn" by urgency, the header's count,
the "next game" button, and "my games" on the web."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from accounts.models import Profile
from accounts.moderation.roles import MODERATOR_GROUP, moderator_group_ensure
from games.models import Game
from games.read import queue
from tests.accounts.account_kit import web_client

pytestmark = pytest.mark.django_db


def _waiting_games(started: Any, user_factory: Any, count: int) -> tuple[Any, list[Game]]:
    """``count`` correspondence games in which one player (returned) is to move."""
    me = user_factory()
    games = []
    for _ in range(count):
        game, users = started(2)
        seat = game.seats.get(position=game.to_move)
        seat.user = me
        seat.save(update_fields=["user"])
        games.append(game)
    return me, games


def _with_deadline(game: Game, days: float) -> None:
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() + timedelta(days=days))


def test_my_turn_is_ordered_by_deadline_with_a_flag_on_each_item(
    started: Any, user_factory: Any, client_for: Any
) -> None:
    me, games = _waiting_games(started, user_factory, 3)
    for game, days in zip(games, (2.5, 0.5, 1.5), strict=True):
        _with_deadline(game, days)
    theirs, _ = started(2)  # a game of others: not in my queue

    body = client_for(me).get("/api/v1/games?status=my_turn").json()

    assert [item["id"] for item in body["results"]] == [
        games[1].public_id,
        games[2].public_id,
        games[0].public_id,
    ]
    assert all(item["my_turn"] for item in body["results"])
    assert theirs.public_id not in {item["id"] for item in body["results"]}


def test_the_queue_pages_by_deadline(started: Any, user_factory: Any, client_for: Any) -> None:
    me, games = _waiting_games(started, user_factory, 3)
    for game, days in zip(games, (3, 1, 2), strict=True):
        _with_deadline(game, days)
    client = client_for(me)

    first = client.get("/api/v1/games?status=my_turn&page_size=2").json()
    second = client.get(first["next"]).json()

    ids = [item["id"] for item in first["results"] + second["results"]]
    assert ids == [games[1].public_id, games[2].public_id, games[0].public_id]


def test_a_list_item_says_whose_turn_it_is(started: Any, client_for: Any) -> None:
    game, users = started(2)
    mover = users[game.to_move]
    other = users[1 - game.to_move]

    mine = client_for(mover).get("/api/v1/games?mine=true").json()["results"][0]
    theirs = client_for(other).get("/api/v1/games?mine=true").json()["results"][0]

    assert (mine["my_turn"], theirs["my_turn"]) == (True, False)


def test_the_count_is_one_query(
    started: Any, user_factory: Any, django_assert_num_queries: Any
) -> None:
    me, _games = _waiting_games(started, user_factory, 2)

    with django_assert_num_queries(1):
        assert queue.my_turn_count(me) == 2


NEXT_GAME = re.compile(r'<a class="([^"]*)" href="/games/next/"[^>]*data-next-game>(.*?)</a>', re.S)


def _header_next_game(page: str) -> tuple[set[str], str]:
    """The header's "Next game": its classes and what it holds."""
    found = NEXT_GAME.search(page)
    assert found, "no Next game in the header"
    return set(found[1].split()), found[2]


def test_the_header_shows_how_many_games_wait(started: Any, user_factory: Any) -> None:
    me, _games = _waiting_games(started, user_factory, 2)

    page = web_client(me).get("/play/").content.decode()

    classes, inside = _header_next_game(page)
    assert {"button", "waiting"} <= classes
    # The count's meaning in words a screen reader reads, hidden from sight.
    assert (
        '<span class="queue-count"><span class="sr-only">games waiting for your move: </span>2'
        "</span>" in inside
    )


def _moderator(user_factory: Any) -> Any:
    moderator_group_ensure()
    mona = user_factory(username="mona")
    mona.groups.add(Group.objects.get(name=MODERATOR_GROUP))
    return mona


@pytest.mark.parametrize("who", ["new player", "moderator", "player waiting for others"])
def test_with_no_game_waiting_the_header_has_no_count_and_no_highlight(
    who: str, started: Any, user_factory: Any
) -> None:
    if who == "moderator":
        person = _moderator(user_factory)
    elif who == "new player":
        person = user_factory()
    else:
        game, users = started(2)
        person = users[(game.to_move + 1) % 2]  # seated, but the other player is to move

    page = web_client(person).get("/play/").content.decode()

    classes, inside = _header_next_game(page)
    assert classes == {"next-game"}  # a plain menu link, not the gold button
    assert re.fullmatch(r'Next game <span class="queue-count" [^>]*hidden></span>', inside)


@pytest.mark.parametrize(
    ("language", "shown"), [("mk", "1.234"), ("pl", "1234"), ("en", "1,234"), ("sr-cyrl", "1.234")]
)
def test_the_headers_count_is_written_as_the_readers_language_writes_numbers(
    language: str, shown: str, user_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(queue, "my_turn_count", lambda user: 1234)
    person = user_factory(language=language)

    page = web_client(person).get("/games/").content.decode()

    assert _header_next_game(page)[1].endswith(f">{shown}</span>")
    assert f'<span class="queue-count">{shown}</span>' in page  # the "my turn" tab


def test_next_goes_to_the_most_urgent_game(started: Any, user_factory: Any) -> None:
    me, games = _waiting_games(started, user_factory, 2)
    _with_deadline(games[0], 2)
    _with_deadline(games[1], 1)

    response = web_client(me).get("/games/next/")

    assert response.status_code == 302
    assert response["Location"] == f"/games/{games[1].public_id}/"


def test_next_goes_to_my_games_when_none_waits(user_factory: Any) -> None:
    response = web_client(user_factory()).get("/games/next/")

    assert response.status_code == 302
    assert response["Location"] == "/games/"


def test_my_games_marks_my_turn_first_and_shows_only_my_deadlines(
    started: Any, user_factory: Any
) -> None:
    me, (waiting,) = _waiting_games(started, user_factory, 1)
    _with_deadline(waiting, 2)
    not_mine, users = started(2)
    seat = not_mine.seats.exclude(position=not_mine.to_move).get()
    seat.user = me
    seat.save(update_fields=["user"])
    Game.objects.filter(pk=not_mine.pk).update(
        created_at=timezone.now() + timedelta(hours=1),  # newer, yet listed after
        deadline_at=timezone.now() + timedelta(hours=5),
    )
    client = web_client(me)

    page = client.get("/games/").content.decode()

    assert page.index(waiting.public_id) < page.index(not_mine.public_id)
    assert page.count("your turn ends in") == 1
    assert "their turn" in page
    assert 'class="status-pill your-turn"' in page
    tab = client.get("/games/?status=my_turn").content.decode()
    assert waiting.public_id in tab and not_mine.public_id not in tab


def test_my_games_filters_by_time_control(started: Any, user_factory: Any) -> None:
    me, (correspondence,) = _waiting_games(started, user_factory, 1)
    client = web_client(me)

    assert (
        correspondence.public_id
        in client.get("/games/?time_control=correspondence").content.decode()
    )
    assert correspondence.public_id not in client.get("/games/?time_control=live").content.decode()


def test_each_row_of_my_games_says_what_the_game_is_at(
    lobby: Any, started: Any, user_factory: Any
) -> None:
    from tests.accounts.account_kit import finished_game

    me, (waiting,) = _waiting_games(started, user_factory, 1)
    _with_deadline(waiting, 2)
    forming, users = lobby(3, seated=1)
    host = users[0]
    won = finished_game(started, players=2, winner=1)
    for game, user in ((forming, host), (won, won.users[1])):
        seat = game.seats.get(user=user)
        seat.user = me
        seat.save(update_fields=["user"])
    client = web_client(me)

    active = client.get("/games/").content.decode()
    assert f'href="/games/{waiting.public_id}/"' in active
    assert "Serbian Remi · vs " in active
    # (CLDR's durations, through remi_site.formats.)
    assert "Deal 1 · your total 0 · your turn ends in 1 day, 23 hours · public" in active
    lobby_tab = client.get("/games/?status=lobby").content.decode()
    assert "Serbian Remi · waiting for players" in lobby_tab
    assert "1 of 3 seats taken · public" in lobby_tab
    assert '<span class="status-pill">waiting</span>' in lobby_tab
    finished = client.get("/games/?status=finished").content.decode()
    assert f"your total {won.seats.get(user=me).total} · public" in finished
    assert '<span class="status-pill won">won</span>' in finished

    Profile.objects.filter(user=me).update(language="mk")
    in_macedonian = client.get("/games/").content.decode()
    assert "Делење 1 · твој збир 0 · " in in_macedonian
    assert "твој потег" in in_macedonian
