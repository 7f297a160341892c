"""The NDJSON event streams over HTTP, against the whole site served by uvicorn: a game's
stream (the whole game first, then each change, ending with the game), the account's
stream (its state first, then each challenge), keep-alive lines, and who may follow
what. Every frame but the first game line is checked against docs/asyncapi.yaml."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from games import tasks
from games.live import ndjson
from games.models import DealReview, Game
from games.play.act import game_act
from tests.asyncapi_contract import contract
from tests.gamekit import current_engine_deal, quick_actions

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def account(
    user_factory: Callable[..., Any], token_factory: Callable[..., tuple[Any, str]]
) -> Callable[[str], tuple[Any, httpx.Client]]:
    made: list[httpx.Client] = []

    def make(name: str) -> tuple[Any, httpx.Client]:
        user = user_factory(username=name)
        _token, raw = token_factory(user)
        client = httpx.Client(headers={"Authorization": f"Bearer {raw}"}, timeout=20)
        made.append(client)
        return user, client

    yield make
    for client in made:
        client.close()


def lines(response: httpx.Response) -> Iterator[dict[str, Any] | None]:
    """Each line of a stream as JSON; None for a keep-alive line."""
    for text in response.iter_lines():
        yield json.loads(text) if text.strip() else None


def frames_until(stream: Iterator[dict[str, Any] | None], done: Callable[[dict], bool]) -> list:
    """The frames (keep-alives skipped) up to the first for which ``done`` is true."""
    seen = []
    for frame in stream:
        if frame is None:
            continue
        seen.append(frame)
        if done(frame):
            return seen
    raise AssertionError(f"the stream ended before the frame awaited: {seen}")


def test_a_games_stream_starts_with_the_game_and_follows_it_to_its_end(asgi_server, account, bots):
    _user, api = account("mila")
    game = api.post(
        f"{asgi_server}/api/v1/games/play-now",
        json={"preset": "polish51", "bots": 1, "level": 1, "time_control": "correspondence"},
    ).json()
    url = f"{asgi_server}/api/v1/games/{game['id']}/stream"

    with api.stream("GET", url) as response:
        assert response.status_code == 200
        assert response.headers["content-type"] == "application/x-ndjson"
        stream = lines(response)
        first = next(stream)
        assert first["type"] == "game_full" and first["game"] == game["id"]
        assert first["view"]["you"] == game["you"] and first["view"]["deal"]["hand"]
        resigned = api.post(f"{asgi_server}/api/v1/games/{game['id']}/resign")
        assert resigned.status_code == 200, resigned.text
        frames = frames_until(stream, lambda frame: frame["type"] == "game_over")
        assert any(f["type"] == "move" and f["move"]["type"] == "resign" for f in frames)
        # The stream ends with the game.
        assert list(stream) == []
    for frame in frames:
        contract().check_server_frame(frame)
        assert frame["game"] == game["id"] and frame["ply"] >= first["ply"]


ONE_DEAL = {"match_deals": [1, 1, 1, 1, 1]}


@pytest.fixture
def one_deal_game(started, quick_deals, token_factory):
    """A correspondence game of two over one deal that its starter ends in one turn
    (``quick_actions``); ``(game, users by seat, a client of the seat that waits)``."""
    game, users = started(players=2, overrides=ONE_DEAL)
    waiting = users[1 - current_engine_deal(game).to_move]
    _token, raw = token_factory(waiting)
    with httpx.Client(headers={"Authorization": f"Bearer {raw}"}, timeout=20) as client:
        yield game, users, client


def starter_goes_out(game) -> None:
    users = {seat.position: seat.user for seat in game.seats.select_related("user")}
    starter = users[current_engine_deal(game).to_move]
    for action in quick_actions():
        game_act(game=game, user=starter, action=action, expected_ply=game.ply)
        game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_a_games_stream_ends_once_its_last_deal_s_review_is_announced(asgi_server, one_deal_game):
    game, _users, client = one_deal_game
    url = f"{asgi_server}/api/v1/games/{game.public_id}/stream"

    with client.stream("GET", url) as response:
        stream = lines(response)
        assert next(stream)["type"] == "game_full"
        starter_goes_out(game)  # the review is made at once (Celery eager)
        frames = [frame for frame in stream if frame is not None]  # to the stream's end

    kinds = [frame["type"] for frame in frames]
    assert {"deal_over", "game_over", "review_ready"} <= set(kinds), kinds
    assert kinds.index("deal_over") < kinds.index("game_over")
    assert [frame["deal"] for frame in frames if frame["type"] == "review_ready"] == [1]
    assert DealReview.objects.filter(deal__game=game, deal__number=1).exists()
    for frame in frames:
        contract().check_server_frame(frame)


def test_a_games_stream_whose_last_review_never_comes_ends_after_its_wait(
    asgi_server, one_deal_game, monkeypatch
):
    monkeypatch.setattr(tasks.deal_review, "delay", lambda *args, **kwargs: None)  # lost
    monkeypatch.setattr(ndjson, "REVIEW_WAIT_S", 0.5)
    game, _users, client = one_deal_game

    with client.stream("GET", f"{asgi_server}/api/v1/games/{game.public_id}/stream") as response:
        stream = lines(response)
        assert next(stream)["type"] == "game_full"
        starter_goes_out(game)
        kinds = [frame["type"] for frame in stream if frame is not None]  # to the end

    assert kinds[-1] == "game_over" and "review_ready" not in kinds
    assert not DealReview.objects.exists()


def test_a_ban_ends_the_banned_player_s_game_stream(asgi_server, one_deal_game, user_factory):
    from accounts.moderation.services import ban_create

    game, users, client = one_deal_game
    banned = users[1 - current_engine_deal(game).to_move]  # the seat that follows it
    moderator = user_factory(username="mod")
    moderator.is_staff = True
    moderator.save()

    with client.stream("GET", f"{asgi_server}/api/v1/games/{game.public_id}/stream") as response:
        stream = lines(response)
        assert next(stream)["type"] == "game_full"
        ban_create(user=banned, moderator=moderator, reason="abuse", permanent=True)
        # It ends at once (a read that outlived it would time out and fail the test),
        # not held for the forfeited game's review.
        kinds = [frame["type"] for frame in stream if frame is not None]

    assert "review_ready" not in kinds, kinds
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED  # forfeited by the ban


def test_the_stream_of_a_game_already_over_ends_after_the_whole_game(asgi_server, one_deal_game):
    game, _users, client = one_deal_game
    starter_goes_out(game)

    with client.stream("GET", f"{asgi_server}/api/v1/games/{game.public_id}/stream") as response:
        received = list(lines(response))

    assert [frame["type"] for frame in received] == ["game_full"]
    assert received[0]["view"]["status"] == "finished"


def test_the_account_stream_sends_its_state_then_each_challenge(asgi_server, account, bots):
    _mila, mila = account("mila")
    _ivo, ivo = account("ivo")
    game = mila.post(
        f"{asgi_server}/api/v1/games/play-now", json={"preset": "serbian", "bots": 1}
    ).json()

    with mila.stream("GET", f"{asgi_server}/api/v1/stream/events") as response:
        assert response.status_code == 200
        stream = lines(response)
        state = frames_until(stream, lambda frame: frame["type"] == "game_start")
        assert state[-1]["game"] == game["id"]
        challenged = ivo.post(
            f"{asgi_server}/api/v1/challenges", json={"to": "mila", "preset": "serbian"}
        )
        assert challenged.status_code == 201, challenged.text
        (challenge, *_) = [
            frame
            for frame in frames_until(stream, lambda frame: frame["type"] == "challenge")
            if frame["type"] == "challenge"
        ]
    assert challenge["direction"] == "in"
    assert challenge["challenge"]["challenger"]["username"] == "ivo"
    contract().check_server_frame(challenge)


def test_a_quiet_stream_sends_keep_alive_lines(asgi_server, account, bots, monkeypatch):
    monkeypatch.setattr(ndjson, "KEEPALIVE_S", 0.2)
    _user, api = account("mila")

    with api.stream("GET", f"{asgi_server}/api/v1/stream/events") as response:
        received = [line for _, line in zip(range(3), lines(response), strict=False)]

    assert received == [None, None, None]


def test_a_private_game_is_no_ones_stream_but_its_players(asgi_server, account):
    _host, host = account("mila")
    _other, other = account("ivo")
    game = host.post(
        f"{asgi_server}/api/v1/games",
        json={"preset": "serbian", "players": 2, "visibility": "private"},
    ).json()

    answer = other.get(f"{asgi_server}/api/v1/games/{game['id']}/stream")
    anonymous = httpx.get(f"{asgi_server}/api/v1/games/{game['id']}/stream", timeout=10)

    assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"
    assert anonymous.status_code == 404


def test_the_account_stream_needs_an_account(asgi_server):
    answer = httpx.get(
        f"{asgi_server}/api/v1/stream/events",
        headers={"Accept": "application/x-ndjson"},
        timeout=10,
    )

    assert answer.status_code == 401
    assert json.loads(answer.text)["error"]["code"] == "not_authenticated"


def test_a_ban_ends_the_accounts_streams(asgi_server, account, user_factory):
    from accounts.moderation.services import ban_create

    user, api = account("mila")
    moderator = user_factory(username="mod")
    moderator.is_staff = True
    moderator.save()

    with api.stream("GET", f"{asgi_server}/api/v1/stream/events") as response:
        assert response.status_code == 200
        ban_create(user=user, moderator=moderator, reason="abuse", permanent=True)
        # The stream ends (a read that outlived it would time out and fail the test).
        assert [frame for frame in lines(response) if frame is not None] == []


def test_leaving_a_private_lobby_ends_its_stream(asgi_server, account):
    _host, host = account("host")
    _mila, mila = account("mila")
    game = host.post(
        f"{asgi_server}/api/v1/games",
        json={"preset": "serbian", "players": 3, "visibility": "private"},
    ).json()
    joined = mila.post(
        f"{asgi_server}/api/v1/games/{game['id']}/join", json={"invite_code": game["invite_code"]}
    )
    assert joined.status_code == 200, joined.text

    with mila.stream("GET", f"{asgi_server}/api/v1/games/{game['id']}/stream") as response:
        stream = lines(response)
        assert next(stream)["type"] == "game_full"
        assert mila.post(f"{asgi_server}/api/v1/games/{game['id']}/leave").status_code == 204
        frames = frames_until(stream, lambda frame: frame["type"] == "unsubscribed")
        assert frames[-1] == {"type": "unsubscribed", "game": game["id"]}
        assert list(stream) == []
    assert mila.get(f"{asgi_server}/api/v1/games/{game['id']}/stream").status_code == 404


def test_visitors_streams_count_against_their_addresss_connections(asgi_server, account, settings):
    settings.WS_MAX_WATCHERS_PER_ADDRESS = 1
    _host, host = account("host")
    game = host.post(f"{asgi_server}/api/v1/games", json={"preset": "serbian", "players": 2}).json()
    url = f"{asgi_server}/api/v1/games/{game['id']}/stream"

    with httpx.Client(timeout=20) as visitor, visitor.stream("GET", url) as first:
        assert first.status_code == 200
        # (The lines are kept: an iterator dropped closes its response, and the server
        # ends a stream whose client went away.)
        stream = lines(first)
        assert next(stream)["type"] == "game_full"
        second = httpx.get(url, timeout=20)
        assert second.status_code == 429
        assert second.json()["error"]["code"] == "too_many_connections"


def test_a_stream_its_client_closed_gives_its_connection_back(asgi_server, account, settings):
    # One connection allowed: a second stream opens only once the first has ended on
    # the server, which only the client's disconnect can tell it (writing to a closed
    # connection fails silently, and a quiet stream would wait for ever).
    settings.WS_MAX_CONNECTIONS_PER_USER = 1
    _user, api = account("mila")
    url = f"{asgi_server}/api/v1/stream/events"
    for _ in range(3):
        with httpx.Client(headers=api.headers, timeout=20) as client:
            deadline = time.monotonic() + 10
            while True:
                with client.stream("GET", url) as response:
                    if response.status_code == 200:  # (its slot is taken before it starts)
                        break
                    assert response.status_code == 429, response.read()
                    assert time.monotonic() < deadline, "the closed stream kept its slot"
