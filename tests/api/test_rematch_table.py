"""A rematch at a table of three to six: the offer invites every other person and bot
account of the finished game (built-in bots are seated again without asking), each
answers for themselves, the game starts with the last acceptance, and a decline, the
offerer's cancellation, the expiry or an invitee's account closing ends it for all."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import services
from accounts.deletion import account_delete
from accounts.moderation import services as moderation
from games.challenges.services import challenges_expire
from games.models import Challenge
from tests.api.rematch_kit import table_finished
from tests.gamekit import SERVER_ONLY_KEYS, SchemaChecker, card_pairs, error_of, keys_in
from tests.user_kit import PASSWORD

pytestmark = pytest.mark.django_db


def rematch(client: APIClient, game_id: str) -> Any:
    return client.post(f"/api/v1/games/{game_id}/rematch")


def answers(challenge: dict[str, Any]) -> dict[str, str]:
    return {i["user"]["username"]: i["answer"] for i in challenge["invitees"]}


@pytest.fixture
def table(
    user_factory: Callable[..., Any], client_for: Callable[[Any], APIClient], bots: list[Any]
) -> dict[str, Any]:
    """Two people (mila, ivo), a bot account (robo) and a built-in bot, finished."""
    people = {
        name: client_for(user_factory(username=name, display_name=name.title()))
        for name in ("mila", "ivo", "robo")
    }
    assert people["robo"].post("/api/v1/me/bot").status_code == 200
    builtin = bots[0].username
    game_id = table_finished(people["mila"], [people["ivo"], people["robo"]], bots=[builtin])
    return {**people, "game": game_id, "builtin": builtin}


@pytest.fixture
def after_commit(django_capture_on_commit_callbacks: Callable[..., Any]) -> Callable[[], Any]:
    """``with after_commit():`` runs what the block hands to ``on_commit``, as a request's
    commit would (the test's own transaction never commits)."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def test_a_four_seat_rematch_starts_when_every_invitee_has_accepted(
    table: dict[str, Any], deals_seeded: Any
) -> None:
    mila, ivo, robo, game_id = table["mila"], table["ivo"], table["robo"], table["game"]

    offered = rematch(mila, game_id)

    assert offered.status_code == 201, offered.json()
    body = offered.json()
    SchemaChecker(mila).check("POST", "/api/v1/games/{game_id}/rematch", 201, body)
    assert (body["status"], body["players"], body["bots"]) == ("pending", 4, [table["builtin"]])
    assert [i["user"]["username"] for i in body["invitees"]] == ["ivo", "robo"]
    assert answers(body) == {"ivo": "pending", "robo": "pending"}
    assert body["destination"]["username"] == "ivo" and body["expires_at"] is not None
    for invited in (ivo, robo):
        waiting = invited.get("/api/v1/challenges?direction=in").json()["results"]
        assert [c["id"] for c in waiting] == [body["id"]]

    first = ivo.post(f"/api/v1/challenges/{body['id']}/accept")

    assert first.status_code == 200, first.json()
    assert first.json()["status"] == "pending" and first.json()["game"] is None
    assert answers(first.json()) == {"ivo": "accepted", "robo": "pending"}
    again = ivo.post(f"/api/v1/challenges/{body['id']}/accept")
    assert again.status_code == 200 and answers(again.json())["ivo"] == "accepted"

    last = robo.post(f"/api/v1/challenges/{body['id']}/accept")

    assert last.status_code == 200, last.json()
    started = last.json()
    assert started["status"] == "accepted" and started["accepted_by"]["username"] == "robo"
    new_game = mila.get(f"/api/v1/games/{started['game']}").json()
    assert new_game["status"] == "active"
    assert [s["user"]["username"] for s in new_game["seats"]] == [
        "mila",
        table["builtin"],
        "ivo",
        "robo",
    ]


def test_the_state_of_a_rematch_shows_who_has_answered_to_its_players_only(
    table: dict[str, Any], client_for: Callable[[Any], APIClient], user_factory: Any
) -> None:
    mila, ivo, game_id = table["mila"], table["ivo"], table["game"]
    state = f"/api/v1/games/{game_id}/rematch"
    assert mila.get(state).status_code == 404  # none offered yet
    offered = rematch(ivo, game_id).json()
    mila.post(f"/api/v1/challenges/{offered['id']}/accept")

    seen = mila.get(state)

    assert seen.status_code == 200
    SchemaChecker(mila).check("GET", "/api/v1/games/{game_id}/rematch", 200, seen.json())
    assert seen.json()["id"] == offered["id"]
    assert answers(seen.json()) == {"mila": "accepted", "robo": "pending"}
    assert table["robo"].get(state).status_code == 200
    assert client_for(user_factory()).get(state).status_code == 404
    # A rematch names terms and people: no card of the finished game, nothing of its deck.
    assert not list(card_pairs(seen.json())) and not SERVER_ONLY_KEYS & keys_in(seen.json())


def test_one_decline_ends_the_rematch_for_everyone(table: dict[str, Any]) -> None:
    mila, ivo, robo = table["mila"], table["ivo"], table["robo"]
    offered = rematch(mila, table["game"]).json()
    ivo.post(f"/api/v1/challenges/{offered['id']}/accept")

    declined = robo.post(
        f"/api/v1/challenges/{offered['id']}/decline", {"reason": "later"}, format="json"
    )

    assert declined.status_code == 200, declined.json()
    assert (declined.json()["status"], declined.json()["decline_reason"]) == ("declined", "later")
    assert answers(declined.json()) == {"ivo": "accepted", "robo": "declined"}
    late = ivo.post(f"/api/v1/challenges/{offered['id']}/accept")
    assert late.status_code == 409 and error_of(late)["code"] == "challenge_not_pending"
    refused = rematch(ivo, table["game"])
    assert refused.status_code == 409 and error_of(refused)["code"] == "rematch_exists"


def test_the_offerer_cancels_and_an_invitee_may_not(table: dict[str, Any]) -> None:
    mila, ivo = table["mila"], table["ivo"]
    offered = rematch(mila, table["game"]).json()

    not_theirs = ivo.post(f"/api/v1/challenges/{offered['id']}/cancel")
    own_decline = mila.post(f"/api/v1/challenges/{offered['id']}/decline", {}, format="json")
    cancelled = mila.post(f"/api/v1/challenges/{offered['id']}/cancel")

    assert not_theirs.status_code == 403 and error_of(not_theirs)["code"] == "not_challenger"
    assert own_decline.status_code == 403 and error_of(own_decline)["code"] == "not_challenged"
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert ivo.get("/api/v1/challenges?direction=in").json()["results"] == []


def test_a_second_offer_from_another_seat_is_an_acceptance_of_the_first(
    table: dict[str, Any],
) -> None:
    mila, ivo, robo, game_id = table["mila"], table["ivo"], table["robo"], table["game"]
    first = rematch(mila, game_id).json()

    joined = rematch(ivo, game_id)
    by_the_offerer = rematch(mila, game_id)
    last = rematch(robo, game_id)

    assert joined.status_code == 200 and joined.json()["id"] == first["id"]
    assert answers(joined.json())["ivo"] == "accepted"
    assert by_the_offerer.status_code == 409
    assert error_of(by_the_offerer)["details"] == {"challenge": first["id"]}
    assert last.status_code == 200 and last.json()["status"] == "accepted"
    assert Challenge.objects.filter(rematch_of__public_id=game_id).count() == 1


def test_a_rematch_nobody_finished_answering_expires_for_everyone(
    table: dict[str, Any], after_commit: Callable[[], Any]
) -> None:
    mila, ivo = table["mila"], table["ivo"]
    offered = rematch(mila, table["game"]).json()
    ivo.post(f"/api/v1/challenges/{offered['id']}/accept")
    Challenge.objects.filter(public_id=offered["id"]).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )

    unswept = table["robo"].post(f"/api/v1/challenges/{offered['id']}/accept")
    with after_commit():
        swept = challenges_expire()

    assert unswept.status_code == 409 and error_of(unswept)["code"] == "challenge_expired"
    assert swept == [offered["id"]]
    seen = ivo.get(f"/api/v1/challenges/{offered['id']}").json()
    assert (seen["status"], seen["cancel_reason"]) == ("cancelled", "expired")
    assert seen["cancel_message"] == "Not everyone answered in time."
    assert challenges_expire() == []


def test_a_live_rematch_expires_after_the_sites_wait(table: dict[str, Any], settings: Any) -> None:
    settings.REMATCH_LIVE_EXPIRY_S = 90
    before = timezone.now()

    offered = rematch(table["mila"], table["game"]).json()

    expires = Challenge.objects.get(public_id=offered["id"]).expires_at
    assert expires is not None
    assert timedelta(seconds=89) < expires - before < timedelta(seconds=100)


@pytest.mark.parametrize("change", ["ban", "deletion", "deactivation"])
def test_an_invitee_whose_account_closes_ends_the_rematch_with_their_name(
    table: dict[str, Any], user_factory: Any, after_commit: Callable[[], Any], change: str
) -> None:
    mila, ivo, robo = table["mila"], table["ivo"], table["robo"]
    offered = rematch(mila, table["game"]).json()
    ivo.post(f"/api/v1/challenges/{offered['id']}/accept")

    with after_commit():
        if change == "ban":
            moderation.ban_create(
                user=robo.user, moderator=user_factory(), reason="spam", permanent=True
            )
        elif change == "deletion":
            account_delete(user=robo.user, password=PASSWORD)
        else:
            robo.user.is_active = False
            robo.user.save()

    seen = ivo.get(f"/api/v1/challenges/{offered['id']}").json()
    reason = {"ban": "banned", "deletion": "deleted", "deactivation": "closed"}[change]
    assert (seen["status"], seen["cancel_reason"]) == ("cancelled", reason)
    assert seen["invitees"][1]["answer"] == "unavailable"
    name = seen["invitees"][1]["user"]["display_name"]
    assert name in seen["cancel_message"]
    assert mila.get(f"/api/v1/challenges/{offered['id']}").json()["status"] == "cancelled"


def test_a_banned_offerer_ends_the_rematch_and_the_invitees_read_who(
    table: dict[str, Any], user_factory: Any, after_commit: Callable[[], Any]
) -> None:
    offered = rematch(table["mila"], table["game"]).json()

    with after_commit():
        moderation.ban_create(
            user=table["mila"].user, moderator=user_factory(), reason="spam", permanent=True
        )

    seen = table["ivo"].get(f"/api/v1/challenges/{offered['id']}").json()
    assert (seen["status"], seen["cancel_reason"]) == ("cancelled", "banned")
    assert seen["cancel_message"] == "Mila's account is suspended."
    assert answers(seen) == {"ivo": "pending", "robo": "pending"}


def test_a_playbanned_invitee_ends_a_rated_rematch(
    players: Callable[[int], list[APIClient]],
    user_factory: Any,
    after_commit: Callable[[], Any],
    deals_seeded: Any,
) -> None:
    host, one, two = players(3)
    made = host.post(
        "/api/v1/games",
        {"preset": "serbian", "players": 3, "rated": True, "time_control": "correspondence"},
        format="json",
    ).json()
    for other in (one, two):
        other.post(f"/api/v1/games/{made['id']}/join", {}, format="json")
    host.post(f"/api/v1/games/{made['id']}/start")
    for player in (one, two):
        player.post(f"/api/v1/games/{made['id']}/resign")
    offered = rematch(host, made["id"]).json()
    assert offered["rated"] is True and offered["expires_at"] is not None

    with after_commit():
        moderation.playban_create(
            user=two.user,
            moderator=user_factory(),
            reason="abandoning",
            ends_at=timezone.now() + timedelta(days=1),
        )

    seen = one.get(f"/api/v1/challenges/{offered['id']}").json()
    assert (seen["status"], seen["cancel_reason"]) == ("cancelled", "playban")
    assert answers(seen)[two.user.username] == "unavailable"


def test_a_muted_invitee_still_answers(
    table: dict[str, Any], user_factory: Any, after_commit: Callable[[], Any]
) -> None:
    mila, ivo, robo = table["mila"], table["ivo"], table["robo"]
    offered = rematch(mila, table["game"]).json()
    with after_commit():
        moderation.mute_create(
            user=ivo.user,
            moderator=user_factory(),
            reason="rude",
            ends_at=timezone.now() + timedelta(hours=1),
        )

    ivo.post(f"/api/v1/challenges/{offered['id']}/accept")
    last = robo.post(f"/api/v1/challenges/{offered['id']}/accept")

    assert last.status_code == 200 and last.json()["status"] == "accepted"


def test_answering_a_rematch_needs_the_challenge_scope(table: dict[str, Any]) -> None:
    offered = rematch(table["mila"], table["game"]).json()
    _token, raw = services.token_create(user=table["ivo"].user, name="read", scopes=["read"])
    reader = APIClient()
    reader.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")

    refused = reader.post(f"/api/v1/challenges/{offered['id']}/accept")
    state = reader.get(f"/api/v1/games/{table['game']}/rematch")

    assert refused.status_code == 403 and error_of(refused)["details"] == {"scope": "challenge"}
    assert state.status_code == 200


def test_a_six_seat_table_is_offered_again_whole(
    user_factory: Callable[..., Any], client_for: Callable[[Any], APIClient], bots: list[Any]
) -> None:
    people = [client_for(user_factory()) for _ in range(5)]
    assert people[4].post("/api/v1/me/bot").status_code == 200  # a bot account among them
    game_id = table_finished(
        people[0],
        people[1:],
        bots=[bots[0].username],
        preset="polish51",
        overrides={"max_players": 6},
    )

    offered = rematch(people[2], game_id).json()
    for invited in [people[0], people[1], people[3], people[4]]:
        answered = invited.post(f"/api/v1/challenges/{offered['id']}/accept")
        assert answered.status_code == 200, answered.json()

    started = people[2].get(f"/api/v1/games/{game_id}/rematch").json()
    assert started["status"] == "accepted" and started["players"] == 6
    assert started["overrides"] == {"max_players": 6}
    new_game = people[2].get(f"/api/v1/games/{started['game']}").json()
    # Remik 51 draws for seats again: the same six, in the order the cards said.
    assert sorted(s["user"]["username"] for s in new_game["seats"]) == sorted(
        [*(p.user.username for p in people), bots[0].username]
    )
