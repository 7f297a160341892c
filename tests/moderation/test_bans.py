"""Bans take effect at once: the session, the API tokens and the websocket handshake
of the account are refused, its open websockets close, and its running games end for
the others as forfeits (rated as such, the table told); an unban or the ban's end
gives the account back."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import ModAction, RatingChange, Sanction
from accounts.moderation import services
from accounts.moderation.errors import NotAllowed
from games.models import Game, Move, Seat
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from games.play.moderation import ban_enforce
from tests.gamekit import error_of
from tests.user_kit import logged_in

pytestmark = pytest.mark.django_db


def ban(user: Any, moderator: Any, *, hours: float | None = None, reason: str = "threats") -> Any:
    ends_at = None if hours is None else timezone.now() + timedelta(hours=hours)
    return services.ban_create(
        user=user, moderator=moderator, reason=reason, ends_at=ends_at, permanent=ends_at is None
    )


def test_a_ban_ends_the_players_session_at_once(user: Any, moderator: Any) -> None:
    browser = logged_in(user)
    assert browser.get("/accounts/profile/").status_code == 200

    ban(user, moderator, hours=72, reason="threats in the chat")

    refused = browser.get("/accounts/profile/")
    assert refused.status_code == 403
    page = refused.content.decode()
    assert "This account is banned until" in page and "threats in the chat" in page
    # Signed out: the session is gone for good, not only while the ban lasts.
    assert browser.get("/accounts/profile/").status_code == 302


def test_a_ban_refuses_the_session_over_the_api_with_the_reason(user: Any, moderator: Any) -> None:
    browser = logged_in(user)
    assert browser.get("/api/v1/me").status_code == 200

    ban(user, moderator, reason="a second account")

    refused = browser.get("/api/v1/me")
    assert refused.status_code == 403
    error = error_of(refused)
    assert error["code"] == "banned"
    assert error["details"]["reason"] == "a second account"
    assert error["details"]["until"] is None  # for good
    assert "banned for good" in error["message"]


def test_a_ban_stops_the_api_tokens_until_the_unban(
    user: Any, moderator: Any, client_for: Callable[[Any], Any]
) -> None:
    api = client_for(user)
    assert api.get("/api/v1/me").status_code == 200

    ban(user, moderator, hours=1)
    refused = api.get("/api/v1/me")
    services.ban_lift(user=user, moderator=moderator, reason="appeal accepted")
    back = api.get("/api/v1/me")

    assert refused.status_code == 403 and error_of(refused)["code"] == "banned"
    assert error_of(refused)["details"]["until"] is not None
    assert back.status_code == 200
    assert list(
        ModAction.objects.filter(target=user).order_by("id").values_list("action", "reason")
    ) == [("ban", "threats"), ("unban", "appeal accepted")]


def test_a_temporary_ban_ends_by_itself(
    user: Any, moderator: Any, client_for: Callable[[Any], Any]
) -> None:
    api = client_for(user)
    sanction = ban(user, moderator, hours=1)
    assert api.get("/api/v1/me").status_code == 403

    Sanction.objects.filter(pk=sanction.pk).update(ends_at=timezone.now() - timedelta(seconds=1))

    assert api.get("/api/v1/me").status_code == 200


def test_a_moderator_bans_neither_staff_nor_themselves(
    moderator: Any, staff_factory: Callable[..., Any], user: Any
) -> None:
    colleague = staff_factory(moderator=True)
    for target in (colleague, moderator):
        with pytest.raises(NotAllowed):
            ban(target, moderator)
    assert not Sanction.objects.exists()


# A transaction of its own: the ban's lifecycle runs when the ban commits, as it does
# on the site, and the admin's message says what it did.
@pytest.mark.django_db(transaction=True)
def test_a_ban_from_the_admin_forfeits_the_players_games_for_the_others(
    rated_game: Callable[..., Any],
    user_factory: Callable[..., Any],
    moderator: Any,
    moderator_client: Client,
    client_for: Callable[[Any], Any],
) -> None:
    duel, (cheat, rival) = rated_game(2)
    others = [user_factory(), user_factory()]
    table = game_create(owner=others[0], preset="serbian", players=3)
    game_join(game=table, user=cheat)
    game_join(game=table, user=others[1])
    table = game_start(game=table, user=others[0])
    hosted = game_create(owner=cheat, preset="serbian", players=2)
    waiting = game_create(owner=others[1], preset="serbian", players=3)
    game_join(game=waiting, user=cheat)
    api = client_for(cheat)

    response = moderator_client.post(
        f"/admin/auth/user/{cheat.pk}/act/ban/",
        {"reason": "cheating with a second account", "permanent": "on", "unit": "days"},
        follow=True,
    )

    assert response.status_code == 200
    assert b"2 running games forfeited. 2 lobby seats given up." in response.content
    # The two-player game ends at once: the rival wins, and it is rated as such.
    duel.refresh_from_db()
    assert (duel.status, duel.end_reason) == (Game.Status.FINISHED, "banned")
    assert duel.winners == [1]
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=duel)}
    assert changes[rival.pk].rank == 1 and changes[cheat.pk].rank == 2
    assert changes[rival.pk].rating_after > changes[rival.pk].rating_before
    told = Move.objects.filter(game=duel, kind="resign").get()
    assert told.public == {"type": "resign", "seat": 0, "reason": "banned"}
    # The three-player game goes on without them (the server plays their seat).
    table.refresh_from_db()
    assert table.status == Game.Status.ACTIVE
    assert table.seats.get(user=cheat).status == Seat.Status.OUT
    # Lobbies: the game they host is aborted, their seat in another is given up.
    hosted.refresh_from_db()
    assert hosted.status == Game.Status.ABORTED
    assert not waiting.seats.filter(user=cheat).exists()
    # Refused everywhere, and on the record.
    assert api.get("/api/v1/me").status_code == 403
    logged = ModAction.objects.get(action=ModAction.Action.BAN)
    assert (logged.moderator, logged.target, logged.reason) == (
        moderator,
        cheat,
        "cheating with a second account",
    )


def test_unbanning_from_the_admin_gives_the_tokens_back(
    user: Any, moderator: Any, moderator_client: Client, client_for: Callable[[Any], Any]
) -> None:
    api = client_for(user)
    ban(user, moderator)
    ban_enforce(user=user)

    response = moderator_client.post(
        f"/admin/auth/user/{user.pk}/act/unban/", {"reason": "wrong account"}
    )

    assert response.status_code == 302
    assert api.get("/api/v1/me").status_code == 200
    assert ModAction.objects.filter(action="unban", target=user, moderator=moderator).exists()
