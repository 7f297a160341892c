"""Playbans: a player put out of rated games for timeouts or absence too often waits,
longer each time, before another rated game, and is told why and until when;
casual games, resignations and a ban's forfeits do not count."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import Abandonment, ModAction, Sanction
from accounts.moderation import playbans, services
from accounts.moderation.errors import Conflict
from games.errors import NotAllowed
from games.models import Game
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from games.play.moderation import ban_enforce
from games.play.resign import game_resign, game_seat_out
from games.play.timeout_turn import game_timeout_turn
from tests.gamekit import current_engine_deal, error_of

pytestmark = pytest.mark.django_db


def abandon(game: Game, position: int, reason: str = "timeout") -> None:
    """The server puts the seat out, as the timeout and absence rules do."""
    game.refresh_from_db()
    assert game_seat_out(game=game, position=position, expected_ply=game.ply, reason=reason)


@pytest.fixture
def abandons(
    rated_game: Callable[..., Any], user_factory: Callable[..., Any]
) -> Callable[[Any, int], None]:
    """``abandons(leaver, count)``: ``count`` rated games the leaver is put out of."""

    def make(leaver: Any, count: int) -> None:
        for _ in range(count):
            game, users = rated_game(2, users=[leaver, user_factory()], moved=False)
            abandon(game, users.index(leaver))

    return make


def rated_create(client: Any) -> Any:
    body = {"preset": "serbian", "players": 2, "rated": True}
    return client.post("/api/v1/games", body, format="json")


def test_three_abandoned_rated_games_bring_a_playban_shown_with_its_reason(
    abandons: Callable[[Any, int], None], user: Any, client_for: Callable[[Any], Any]
) -> None:
    api = client_for(user)
    abandons(user, 2)
    assert rated_create(api).status_code == 201  # two are not too many

    abandons(user, 1)
    refused = rated_create(api)
    casual = api.post("/api/v1/games", {"preset": "serbian", "players": 2}, format="json")
    mine = api.get("/api/v1/me/sanctions").json()

    assert refused.status_code == 403
    error = error_of(refused)
    assert error["code"] == "playban"
    assert "You may not start or join a rated game until" in error["message"]
    assert "you abandoned 3 rated games (timed out or left) within 7 days" in error["message"]
    until = error["details"]["until"]
    playban = Sanction.objects.get(user=user, kind=Sanction.Kind.PLAYBAN)
    assert playban.ends_at is not None
    assert playban.ends_at - playban.created_at == timedelta(minutes=15)
    assert until.startswith(playban.ends_at.strftime("%Y-%m-%dT%H:%M"))
    assert casual.status_code == 201  # casual games are never refused
    assert mine["playban"]["reason"] == playban.reason and mine["mute"] is None
    logged = ModAction.objects.get(action=ModAction.Action.PLAYBAN)
    assert logged.moderator is None and logged.target == user


def test_each_playban_is_longer_than_the_last(
    abandons: Callable[[Any, int], None], user: Any, settings: Any
) -> None:
    settings.PLAYBAN_ABANDONMENTS = 1
    lengths = []
    for _ in range(len(playbans.PLAYBAN_MINUTES) + 1):
        abandons(user, 1)
        last = Sanction.objects.filter(user=user, kind=Sanction.Kind.PLAYBAN).first()
        assert last is not None and last.ends_at is not None
        lengths.append(round((last.ends_at - last.created_at).total_seconds() / 60))
        # Served: the next rated game may start.
        Sanction.objects.filter(pk=last.pk).update(ends_at=timezone.now())

    assert lengths == [15, 60, 180, 720, 1440, 4320, 4320]


def test_a_playban_refuses_joining_and_starting_a_rated_game(
    abandons: Callable[[Any, int], None], user_factory: Callable[..., Any]
) -> None:
    host, guest = user_factory(), user_factory()
    full = game_create(owner=host, preset="serbian", players=2, rated=True)
    game_join(game=full, user=guest)
    abandons(guest, 3)  # playbanned while waiting in the lobby

    with pytest.raises(NotAllowed) as joined:
        game_join(
            game=game_create(owner=host, preset="serbian", players=2, rated=True),
            user=guest,
        )
    with pytest.raises(NotAllowed) as started:
        game_start(game=full, user=host)

    assert joined.value.code == started.value.code == "playban"
    assert f"{guest.username} may not play a rated game until" in started.value.message
    full.refresh_from_db()
    assert full.status == Game.Status.LOBBY


def test_only_rated_games_left_for_timeouts_or_absence_count(
    rated_game: Callable[..., Any],
    lobby: Callable[..., Any],
    user: Any,
    user_factory: Callable[..., Any],
    moderator: Any,
) -> None:
    casual, casual_users = lobby(2)
    casual = game_start(game=casual, user=casual_users[0])
    abandon(casual, 0)  # casual
    resigned, users = rated_game(2, users=[user, user_factory()], moved=False)
    game_resign(game=resigned, user=user)  # a resignation
    absent, users = rated_game(2, users=[user, user_factory()], moved=False)
    abandon(absent, 0, reason="absent")  # counts
    rated_game(2, users=[user, user_factory()], moved=False)
    services.ban_create(user=user, moderator=moderator, reason="abuse", permanent=True)
    ban_enforce(user=user)  # a ban's forfeit

    assert list(Abandonment.objects.values_list("user", "reason")) == [(user.pk, "absent")]


def test_a_timeout_out_of_a_rated_game_is_an_abandonment(
    rated_game: Callable[..., Any],
) -> None:
    game, users = rated_game(2, moved=False)
    sleeper = users[current_engine_deal(game).to_move]
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    game.refresh_from_db()

    turn = game_timeout_turn(game=game, expected_ply=game.ply, strike_limit=1)

    assert turn is not None and turn.out
    found = Abandonment.objects.get()
    assert (found.user, found.game, found.reason) == (sleeper, game, "timeout")


def test_a_moderator_lifts_a_playban_from_the_admin(
    abandons: Callable[[Any, int], None],
    user: Any,
    moderator: Any,
    moderator_client: Client,
    client_for: Callable[[Any], Any],
) -> None:
    abandons(user, 3)
    api = client_for(user)
    assert rated_create(api).status_code == 403

    response = moderator_client.post(
        f"/admin/auth/user/{user.pk}/act/lift-playban/", {"reason": "server outage"}
    )

    assert response.status_code == 302
    assert rated_create(api).status_code == 201
    lifted = ModAction.objects.get(action=ModAction.Action.LIFT_PLAYBAN)
    assert (lifted.moderator, lifted.target, lifted.reason) == (moderator, user, "server outage")


def test_lifting_a_playban_through_the_service_is_logged(
    abandons: Callable[[Any, int], None], user: Any, moderator: Any
) -> None:
    abandons(user, 3)

    assert services.playban_lift(user=user, moderator=moderator, reason="disconnects") == 1

    game_create(owner=user, preset="serbian", players=2, rated=True)
    with pytest.raises(Conflict):
        services.playban_lift(user=user, moderator=moderator, reason="again")
    assert ModAction.objects.filter(action="lift_playban").count() == 1
