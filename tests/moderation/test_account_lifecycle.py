"""The account's lifecycle: a ban, a deletion, a deactivation or a playban reaches every
feature that holds something of the account. Pending challenges both ways are cancelled
with a reason the other side reads (API and page); nobody challenges, seats or starts a
game with a closed or banned account; its lobby seats go; its calendar feed, push
subscriptions and emails stop. Built-in bots are never sanctioned."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.lifecycle import CLOSING, Change, handlers_for
from accounts.models import Language, Sanction
from accounts.moderation import services
from accounts.moderation.errors import NotAllowed
from games.models import Challenge, Game, PushSubscription, Seat
from games.notify import notices
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from games.play.resign import game_seat_out
from tests.gamekit import error_of
from tests.games.notify_kit import site_path, web_client
from tests.user_kit import logged_in

pytestmark = pytest.mark.django_db

CHALLENGES = "/api/v1/challenges"


@pytest.fixture
def after_commit(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> Callable[[], Any]:
    """``with after_commit():`` runs what the block hands to ``on_commit`` at its end, as
    the commit of a real request would (the test's own transaction never commits)."""

    def capture() -> Any:
        return django_capture_on_commit_callbacks(execute=True)

    return capture


@pytest.fixture
def people(
    user_factory: Callable[..., Any], client_for: Callable[[Any], APIClient]
) -> dict[str, APIClient]:
    """Three people with API clients: the one who will be sanctioned, and two others."""
    return {
        name: client_for(user_factory(username=name, display_name=name.title()))
        for name in ("cheat", "alice", "bob")
    }


def challenge(client: APIClient, **terms: Any) -> Any:
    terms.setdefault("preset", "serbian")
    return client.post(CHALLENGES, terms, format="json")


def ban(user: Any, moderator: Any, after_commit: Callable[[], Any]) -> Sanction:
    with after_commit():
        sanction = services.ban_create(
            user=user, moderator=moderator, reason="a second account", permanent=True
        )
    return sanction


def push_subscribe(user: Any, name: str) -> None:
    """A browser's push subscription row (set up as the API stores one)."""
    PushSubscription.objects.create(
        user=user, endpoint=f"https://push.example.net/{name}", p256dh="k" * 87, auth="a" * 22
    )


def calendar_path(client: APIClient) -> str:
    url = client.get("/api/v1/me/notifications").json()["calendar_url"]
    return site_path(url)


def test_every_closing_change_reaches_challenges_games_feeds_pushes_and_sockets() -> None:
    for change in CLOSING:
        names = [handler.name for handler in handlers_for(change)]
        assert names == ["websockets", "challenges", "games", "calendar", "push"], change
    assert [h.name for h in handlers_for(Change.PLAYBAN)] == ["challenges", "games"]
    assert handlers_for(Change.MUTE) == []


def test_a_ban_cancels_the_challenges_both_ways_with_a_reason_the_other_side_reads(
    people: dict[str, APIClient], moderator: Any, after_commit: Callable[[], Any]
) -> None:
    cheat, alice, bob = people["cheat"], people["alice"], people["bob"]
    to_cheat = challenge(alice, to="cheat").json()
    from_cheat = challenge(cheat, to="bob").json()
    open_one = challenge(cheat).json()

    sanction = ban(cheat.user, moderator, after_commit)

    seen_by_alice = alice.get(f"{CHALLENGES}/{to_cheat['id']}").json()
    seen_by_bob = bob.get(f"{CHALLENGES}/{from_cheat['id']}").json()
    for seen in (seen_by_alice, seen_by_bob):
        assert seen["status"] == "cancelled" and seen["cancel_reason"] == "banned"
        assert seen["cancel_message"] == "The other player's account is suspended."
    assert Challenge.objects.get(public_id=open_one["id"]).status == "cancelled"
    assert bob.get(CHALLENGES).json()["results"] == []
    refused = bob.post(f"{CHALLENGES}/{from_cheat['id']}/accept")
    assert refused.status_code == 409 and error_of(refused)["code"] == "challenge_not_pending"
    assert sorted(sanction.enforced["challenges"]) == sorted(  # type: ignore[attr-defined]
        [to_cheat["id"], from_cheat["id"], open_one["id"]]
    )
    assert not Game.objects.filter(seats__user=cheat.user).exists()


def test_the_reason_is_on_my_games_page_in_the_readers_language(
    people: dict[str, APIClient], moderator: Any, after_commit: Callable[[], Any]
) -> None:
    alice = people["alice"].user
    challenge(people["alice"], to="cheat")
    ban(people["cheat"].user, moderator, after_commit)
    browser = logged_in(alice)

    english = browser.get("/games/").content.decode()
    alice.profile.language = Language.MK
    alice.profile.save()
    macedonian = browser.get("/games/").content.decode()
    answer = people["alice"].get(CHALLENGES + "?direction=out").json()

    assert "Challenges cancelled" in english
    assert "Your challenge with Cheat was cancelled." in english
    assert "The other player&#x27;s account is suspended." in english
    assert "Challenges cancelled" not in macedonian
    assert "The other player&#x27;s account is suspended." not in macedonian
    assert answer["results"] == []  # gone from the pending ones


def test_a_banned_or_deleted_account_cannot_be_challenged(
    people: dict[str, APIClient], moderator: Any, after_commit: Callable[[], Any], password: str
) -> None:
    alice, bob = people["alice"], people["bob"]
    ban(people["cheat"].user, moderator, after_commit)
    assert bob.post("/api/v1/me/delete", {"password": password}).status_code == 204
    bob.user.refresh_from_db()

    banned = challenge(alice, to="cheat")
    deleted = challenge(alice, to=bob.user.username)

    assert banned.status_code == 403, banned.json()
    error = error_of(banned)
    assert error["code"] == "account_unavailable"
    assert error["message"] == "Cheat's account is closed or suspended: it cannot play"
    # A deleted account is no player any more: as an unknown name.
    assert deleted.status_code == 404
    assert error_of(deleted) == error_of(challenge(alice, to="nobody-of-that-name"))
    assert not Challenge.objects.filter(challenger=alice.user).exists()


def test_a_challenge_from_an_account_banned_meanwhile_is_not_accepted(
    people: dict[str, APIClient], moderator: Any
) -> None:
    made = challenge(people["cheat"], to="alice").json()
    # The ban commits while the lifecycle has not reached this challenge yet.
    services.ban_create(
        user=people["cheat"].user, moderator=moderator, reason="abuse", permanent=True
    )

    refused = people["alice"].post(f"{CHALLENGES}/{made['id']}/accept")

    assert refused.status_code == 403 and error_of(refused)["code"] == "account_unavailable"
    assert Challenge.objects.get(public_id=made["id"]).status == "pending"
    assert not Game.objects.exists()


def test_a_ban_gives_up_the_lobby_seats_and_no_game_starts_with_the_account(
    people: dict[str, APIClient], moderator: Any, after_commit: Callable[[], Any]
) -> None:
    cheat, alice, bob = (people[name].user for name in ("cheat", "alice", "bob"))
    waiting = game_create(owner=alice, preset="serbian", players=3)
    game_join(game=waiting, user=cheat)
    raced = game_create(owner=bob, preset="serbian", players=2)
    game_join(game=raced, user=cheat)
    # A ban whose lifecycle has not run yet: the start itself refuses the account.
    services.ban_create(user=cheat, moderator=moderator, reason="abuse", permanent=True)
    start = people["bob"].post(f"/api/v1/games/{raced.public_id}/start")
    assert start.status_code == 403 and error_of(start)["code"] == "account_unavailable"

    with after_commit():
        services.ban_create(user=cheat, moderator=moderator, reason="abuse, again", permanent=True)

    assert not Seat.objects.filter(user=cheat, game__status=Game.Status.LOBBY).exists()
    waiting.refresh_from_db()
    assert waiting.status == Game.Status.LOBBY and waiting.seats.count() == 1
    joined = people["alice"].get(f"/api/v1/games/{waiting.public_id}").json()
    assert [seat["user"]["username"] for seat in joined["seats"]] == ["alice"]


def test_a_deleted_or_banned_accounts_calendar_and_push_subscriptions_are_gone(
    people: dict[str, APIClient], moderator: Any, after_commit: Callable[[], Any], password: str
) -> None:
    cheat, bob = people["cheat"], people["bob"]
    feeds = {name: calendar_path(people[name]) for name in ("cheat", "bob")}
    for name in ("cheat", "bob"):
        assert web_client().get(feeds[name]).status_code == 200
        push_subscribe(people[name].user, f"{name}-laptop")
        push_subscribe(people[name].user, f"{name}-phone")

    ban(cheat.user, moderator, after_commit)
    assert bob.post("/api/v1/me/delete", {"password": password}).status_code == 204

    for name in ("cheat", "bob"):
        assert web_client().get(feeds[name]).status_code == 404
        assert not PushSubscription.objects.filter(user=people[name].user).exists()
    assert PushSubscription.objects.count() == 0


def test_no_email_or_push_reaches_a_banned_account(
    people: dict[str, APIClient], moderator: Any, after_commit: Callable[[], Any]
) -> None:
    cheat = people["cheat"].user
    cheat.email = "cheat@example.org"
    cheat.save()
    assert notices.challenge_notice(user_id=cheat.pk, challenger="Alice", url="/games/") == 1
    mail.outbox.clear()

    ban(cheat, moderator, after_commit)

    assert notices.challenge_notice(user_id=cheat.pk, challenger="Alice", url="/games/") == 0
    assert mail.outbox == []


def test_deactivating_an_account_closes_it_for_every_feature(
    people: dict[str, APIClient], after_commit: Callable[[], Any]
) -> None:
    cheat, alice = people["cheat"].user, people["alice"]
    made = challenge(alice, to="cheat").json()
    push_subscribe(cheat, "cheat-laptop")

    with after_commit():
        cheat.is_active = False
        cheat.save()

    seen = alice.get(f"{CHALLENGES}/{made['id']}").json()
    assert (seen["status"], seen["cancel_reason"]) == ("cancelled", "closed")
    assert seen["cancel_message"] == "The other player's account was closed."
    assert not PushSubscription.objects.filter(user=cheat).exists()
    assert challenge(alice, to="cheat").status_code == 404  # no such player any more


def test_a_playban_cancels_the_rated_challenges_and_rated_lobby_seats_only(
    people: dict[str, APIClient],
    rated_game: Callable[..., Any],
    after_commit: Callable[[], Any],
    settings: Any,
) -> None:
    settings.PLAYBAN_ABANDONMENTS = 1
    cheat, alice = people["cheat"], people["alice"]
    rated = challenge(alice, to="cheat", rated=True).json()
    casual = challenge(alice, to="cheat").json()
    rated_lobby = game_create(owner=alice.user, preset="serbian", players=3, rated=True)
    casual_lobby = game_create(owner=alice.user, preset="serbian", players=3)
    for lobby in (rated_lobby, casual_lobby):
        game_join(game=lobby, user=cheat.user)
    game, users = rated_game(2, users=[cheat.user, people["bob"].user], moved=False)

    with after_commit():
        game_seat_out(
            game=game, position=users.index(cheat.user), expected_ply=game.ply, reason="timeout"
        )

    assert Sanction.objects.filter(user=cheat.user, kind=Sanction.Kind.PLAYBAN).exists()
    seen = alice.get(f"{CHALLENGES}/{rated['id']}").json()
    assert (seen["status"], seen["cancel_reason"]) == ("cancelled", "playban")
    assert alice.get(f"{CHALLENGES}/{casual['id']}").json()["status"] == "pending"
    assert not rated_lobby.seats.filter(user=cheat.user).exists()
    assert casual_lobby.seats.filter(user=cheat.user).exists()
    refused = challenge(alice, to="cheat", rated=True)
    assert refused.status_code == 403 and error_of(refused)["code"] == "playban"


@pytest.fixture
def builtin_bot(bots: list[Any]) -> Any:
    return bots[0]


def test_a_built_in_bot_is_never_banned_muted_or_playbanned(
    builtin_bot: Any, moderator: Any, user_factory: Callable[..., Any], client_for: Any
) -> None:
    person = user_factory()
    game = game_start(
        game=game_create(owner=person, preset="serbian", players=2, bots=[builtin_bot]),
        user=person,
    )
    superuser = user_factory(username="root")
    superuser.is_staff = superuser.is_superuser = True
    superuser.save()
    until = timezone.now() + timedelta(days=1)

    for who in (moderator, superuser):
        with pytest.raises(NotAllowed) as banned:
            services.ban_create(user=builtin_bot, moderator=who, reason="spam", permanent=True)
        with pytest.raises(NotAllowed) as muted:
            services.mute_create(user=builtin_bot, moderator=who, reason="spam", ends_at=until)
        assert banned.value.code == muted.value.code == "builtin_bot"
        assert "the server plays it" in banned.value.message
    assert not Sanction.objects.filter(user=builtin_bot).exists()
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE  # the person's game against it goes on


def test_the_admin_refuses_to_ban_a_built_in_bot_and_says_why(
    builtin_bot: Any, moderator_client: Client
) -> None:
    response = moderator_client.post(
        f"/admin/auth/user/{builtin_bot.pk}/act/ban/",
        {"reason": "spam", "permanent": "on", "unit": "days"},
    )

    assert response.status_code == 200
    refusal = "A built-in bot cannot be banned, muted or playbanned: the server plays it."
    assert refusal in response.content.decode()
    assert not Sanction.objects.filter(user=builtin_bot).exists()


def test_staff_accounts_are_banned_by_no_moderator(
    staff_factory: Callable[..., Any], moderator: Any
) -> None:
    colleague = staff_factory(moderator=False)

    with pytest.raises(NotAllowed) as refused:
        services.ban_create(user=colleague, moderator=moderator, reason="spam", permanent=True)

    assert refused.value.code == "staff_account"
