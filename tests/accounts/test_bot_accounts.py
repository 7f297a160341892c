"""POST /me/bot: upgrading an account to an external bot account, and how such a bot
plays: through the API with its token, never moved by the server's bot task."""

from __future__ import annotations

import pytest
from django.utils import timezone

from accounts.models import RatingChange, is_builtin_bot
from games.models import Game
from games.play import bot_turns
from games.play.resign import game_resign
from games.play.timeout_turn import game_timeout_turn
from tests.gamekit import SchemaChecker, Table, current_engine_deal, error_of, greedy_action

pytestmark = pytest.mark.django_db

UPGRADE = "/api/v1/me/bot"


@pytest.fixture
def bot_client(client_for, user_factory):
    """An API client of a fresh account upgraded to a bot account."""
    client = client_for(user_factory(username="robo"))
    assert client.post(UPGRADE).status_code == 200
    return client


@pytest.fixture
def no_bot_task(monkeypatch):
    """Records every bot task scheduled (none should be, for an external bot)."""
    from games import tasks

    scheduled = []
    monkeypatch.setattr(
        tasks.bot_move, "apply_async", lambda *args, **kwargs: scheduled.append(args)
    )
    return scheduled


def game_with_bot(host, bot, *, preset="polish51", rated=False):
    """``host`` creates a two-player game, ``bot`` joins it through the API, it starts."""
    created = host.post(
        "/api/v1/games", {"preset": preset, "players": 2, "rated": rated}, format="json"
    )
    assert created.status_code == 201, created.json()
    game_id = created.json()["id"]
    joined = bot.post(f"/api/v1/games/{game_id}/join", {}, format="json")
    assert joined.status_code == 200, joined.json()
    started = host.post(f"/api/v1/games/{game_id}/start")
    assert started.status_code == 200
    # Remik 51 seats the table by drawn cards: the clients go in seat order.
    clients = [host, bot] if started.json()["you"] == 0 else [bot, host]
    return Table(game_id, clients, None)


# ------------------------------------------------------------------ the upgrade


def test_a_fresh_account_becomes_a_bot_account(auth_client, user):
    response = auth_client.post(UPGRADE)

    assert response.status_code == 200
    body = response.json()
    assert body["is_bot"] is True and body["bot_level"] is None
    SchemaChecker(auth_client).check("POST", UPGRADE, 200, body)
    user.profile.refresh_from_db()
    assert user.profile.is_bot and not user.profile.is_builtin_bot
    assert auth_client.get("/api/v1/me").json()["is_bot"] is True


def test_upgrading_twice_is_a_conflict(bot_client):
    response = bot_client.post(UPGRADE)

    assert response.status_code == 409 and error_of(response)["code"] == "already_bot"
    SchemaChecker(bot_client).check("POST", UPGRADE, 409, response.json())


def test_an_account_that_has_played_cannot_become_a_bot(started, client_for):
    game, users = started(players=2, preset="polish51")
    game_resign(game=game, user=users[1])
    client = client_for(users[1])

    response = client.post(UPGRADE)

    assert response.status_code == 409
    error = error_of(response)
    assert error["code"] == "account_has_games" and "played 1 game" in error["message"]
    users[1].profile.refresh_from_db()
    assert users[1].profile.is_bot is False


def test_a_seat_in_a_lobby_does_not_count_as_having_played(lobby, client_for):
    _game, users = lobby(players=2, seated=2)

    assert client_for(users[1]).post(UPGRADE).status_code == 200


def test_the_upgrade_needs_a_signed_in_account(api_client, db):
    response = api_client.post(UPGRADE)

    assert response.status_code == 401
    SchemaChecker(api_client).check("POST", UPGRADE, 401, response.json())


# ------------------------------------------------------------------ playing


def test_an_external_bot_plays_through_the_api_and_the_server_never_moves_it(
    client_for, user_factory, bot_client, no_bot_task, deals_seeded, settings
):
    settings.REMI_BOTS_RATED_VS_HUMANS = True  # a rated game against a person
    host = client_for(user_factory())
    table = game_with_bot(host, bot_client, rated=True)
    game = table.game
    bot_seat = table.clients.index(bot_client)
    host_seat = 1 - bot_seat

    seats = table.view(host_seat)["seats"]
    assert seats[bot_seat]["user"] == {
        "username": "robo",
        "display_name": "robo",
        "is_bot": True,
        "bot_level": None,
        "title": "BOT",
    }
    assert not is_builtin_bot(bot_client.user)
    # Whoever is to move, the bot task does nothing for the external bot's turn.
    for _ in range(10):  # the person's turn, to its end
        deal = current_engine_deal(game)
        if deal.to_move == bot_seat:
            break
        assert table.act(host_seat, greedy_action(deal), game.ply).status_code == 200
        game.refresh_from_db()
    assert current_engine_deal(game).to_move == bot_seat
    assert bot_turns.bot_play(game_pk=game.pk, ply=game.ply) == 0
    assert Game.objects.get(pk=game.pk).ply == game.ply

    moves = table.play_turns(check_every=50)  # each move by its seat's own token

    game = table.game
    assert moves > 0 and game.status == Game.Status.FINISHED
    assert no_bot_task == []
    assert game.moves.filter(user=bot_client.user).exists()
    assert not game.moves.filter(user=None).exists()  # the server played no turn
    assert RatingChange.objects.filter(game=game, user=bot_client.user).exists()


def test_built_in_bots_are_still_moved_by_the_server(bots):
    assert all(is_builtin_bot(bot) for bot in bots)


def test_deadlines_apply_to_an_external_bot(client_for, user_factory, bot_client, deals_seeded):
    host = client_for(user_factory())
    table = game_with_bot(host, bot_client)
    game = table.game
    mover = current_engine_deal(game).to_move
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now())

    turn = game_timeout_turn(game=game, expected_ply=game.ply, strike_limit=3)

    assert turn is not None and turn.position == mover and turn.strikes == 1


def test_an_external_bot_cannot_be_seated_as_a_built_in_bot(auth_client, bot_client):
    listed = auth_client.get("/api/v1/bots").json()["results"]
    response = auth_client.post(
        "/api/v1/games", {"preset": "serbian", "players": 2, "bots": ["robo"]}, format="json"
    )

    # Listed as a bot account, to challenge, not as a built-in bot to seat.
    assert {bot["username"]: bot["kind"] for bot in listed}["robo"] == "account"
    assert response.status_code == 400 and error_of(response)["code"] == "unknown_bot"
