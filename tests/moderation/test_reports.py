"""Reports: a player reports an account from a chat line, a game or a profile, over the
API and the report page (one rate for both); moderators work the queue in the admin,
where each report shows its game, the chat around the line and the account's record,
and close it with their reason."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.throttling import ScopedRateThrottle

from accounts.models import ModAction, Report
from accounts.moderation import services
from games.models import ChatMessage
from tests.gamekit import error_of
from tests.user_kit import logged_in

pytestmark = pytest.mark.django_db

REPORTS = "/api/v1/reports"


def say(client: Any, game: Any, text: str) -> int:
    response = client.post(f"/api/v1/games/{game.public_id}/chat", {"text": text}, format="json")
    assert response.status_code == 201
    return int(response.json()["id"])


def test_a_player_reports_a_chat_line_its_game_and_a_profile(
    started: Callable[..., Any], client_for: Callable[[Any], Any], user_factory: Callable[..., Any]
) -> None:
    game, (alice, bob) = started(players=2)
    alice_api, bob_api = client_for(alice), client_for(bob)
    line = say(bob_api, game, "you are an idiot")
    rude_name = user_factory(username="rudename")

    from_chat = alice_api.post(REPORTS, {"message": line, "reason": "abuse"}, format="json")
    from_game = alice_api.post(
        REPORTS,
        {"username": bob.username, "game": game.public_id, "reason": "stalling", "text": "slow"},
        format="json",
    )
    from_profile = alice_api.post(
        REPORTS, {"username": "RudeName", "reason": "name"}, format="json"
    )
    mine = alice_api.get(REPORTS)

    assert [r.status_code for r in (from_chat, from_game, from_profile)] == [201, 201, 201]
    assert from_chat.json()["username"] == bob.username
    assert (from_chat.json()["origin"], from_chat.json()["game"]) == ("chat", game.public_id)
    assert from_chat.json()["message"] == line
    assert (from_game.json()["origin"], from_game.json()["text"]) == ("game", "slow")
    assert (from_profile.json()["origin"], from_profile.json()["game"]) == ("profile", None)
    assert [r["status"] for r in mine.json()["results"]] == ["open", "open", "open"]
    assert [r["outcome"] for r in mine.json()["results"]] == [None, None, None]
    assert (mine.json()["next"], mine.json()["previous"]) == (None, None)
    stored = Report.objects.get(reason="abuse")
    assert (stored.reporter, stored.reported, stored.game) == (alice, bob, game)
    assert stored.chat_message_id == line
    assert Report.objects.get(reason="name").reported == rude_name


def test_a_report_names_only_what_the_reporter_may_see_and_fits_together(
    started: Callable[..., Any],
    lobby: Callable[..., Any],
    client_for: Callable[[Any], Any],
    user_factory: Callable[..., Any],
) -> None:
    game, (alice, bob) = started(players=2)
    secret, (host, _guest) = lobby(2, visibility="private")
    outsider = client_for(user_factory())
    alice_api = client_for(alice)
    hidden_line = say(client_for(bob), game, "spam")
    ChatMessage.objects.filter(pk=hidden_line).update(hidden_at=timezone.now())

    cases = {
        "self": ({"username": alice.username, "reason": "other"}, 400, "report_self"),
        "nobody": ({"username": "nobody", "reason": "other"}, 404, "not_found"),
        "no target": ({"reason": "other"}, 400, "report_target"),
        "not seated": (
            {"username": host.username, "game": game.public_id, "reason": "cheating"},
            400,
            "report_not_seated",
        ),
        "private game": (
            {"username": host.username, "game": secret.public_id, "reason": "cheating"},
            404,
            "not_found",
        ),
        "hidden line": ({"message": hidden_line, "reason": "abuse"}, 404, "not_found"),
        "bad reason": ({"username": bob.username, "reason": "ugly"}, 400, "invalid"),
    }
    for name, (body, status, code) in cases.items():
        response = alice_api.post(REPORTS, body, format="json")
        assert (response.status_code, error_of(response)["code"]) == (status, code), name
    private = outsider.post(
        REPORTS, {"username": host.username, "game": secret.public_id, "reason": "other"}
    )
    assert private.status_code == 404
    assert not Report.objects.exists()


def test_the_same_report_is_refused_while_it_is_open(
    user: Any, user_factory: Callable[..., Any], client_for: Callable[[Any], Any], moderator: Any
) -> None:
    target = user_factory(username="target")
    api = client_for(user)
    body = {"username": "target", "reason": "name"}

    first = api.post(REPORTS, body, format="json")
    again = api.post(REPORTS, body, format="json")
    services.report_close(
        report=Report.objects.get(), moderator=moderator, outcome="dismissed", reason="fine"
    )
    later = api.post(REPORTS, body, format="json")

    assert first.status_code == 201
    assert again.status_code == 409 and error_of(again)["code"] == "already_reported"
    assert later.status_code == 201
    assert Report.objects.filter(reported=target).count() == 2


def test_reports_are_rate_limited_across_the_api_and_the_page(
    user: Any,
    user_factory: Callable[..., Any],
    client_for: Callable[[Any], Any],
    monkeypatch: pytest.MonkeyPatch,
    clear_cache: None,
) -> None:
    rates = {**ScopedRateThrottle.THROTTLE_RATES, "report": "2/hour"}
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", rates)
    names = [user_factory(username=f"someone{n}").username for n in range(4)]
    api, page = client_for(user), logged_in(user)

    first = api.post(REPORTS, {"username": names[0], "reason": "name"}, format="json")
    second = page.post(f"/moderation/report/?user={names[1]}", {"reason": "name"})
    over_api = api.post(REPORTS, {"username": names[2], "reason": "name"}, format="json")
    over_page = page.post(f"/moderation/report/?user={names[3]}", {"reason": "name"})

    assert (first.status_code, second.status_code) == (201, 200)
    assert over_api.status_code == 429 and int(over_api["Retry-After"]) > 0
    assert over_page.status_code == 429 and b"You have sent many reports" in over_page.content
    assert api.get(REPORTS).status_code == 200  # reading is not limited
    assert Report.objects.count() == 2


def test_the_report_page_reports_a_chat_line(
    started: Callable[..., Any], client_for: Callable[[Any], Any]
) -> None:
    game, (alice, bob) = started(players=2)
    line = say(client_for(bob), game, "cheater!!")
    page = logged_in(alice)

    form = page.get(f"/moderation/report/?message={line}")
    sent = page.post(f"/moderation/report/?message={line}", {"reason": "abuse", "text": "again"})
    refused = page.get("/moderation/report/?user=nobody")

    assert form.status_code == 200 and b"cheater!!" in form.content
    assert sent.status_code == 200 and b"Thank you" in sent.content
    report = Report.objects.get()
    assert (report.reported, report.chat_message_id, report.text) == (bob, line, "again")
    assert refused.status_code == 404
    assert Client().get("/moderation/report/?user=nobody").status_code == 302  # sign in first
    profile = page.get(f"/accounts/players/{bob.username}/").content.decode()
    assert f"/moderation/report/?user={bob.username}" in profile  # the link to the page


def test_the_queue_shows_a_reports_game_chat_and_the_accounts_record(
    started: Callable[..., Any],
    client_for: Callable[[Any], Any],
    moderator: Any,
    moderator_client: Client,
) -> None:
    game, (alice, bob) = started(players=2)
    alice_api, bob_api = client_for(alice), client_for(bob)
    say(alice_api, game, "good luck")
    line = say(bob_api, game, "you will lose, idiot")
    say(alice_api, game, "please stop")
    old = services.report_create(reporter=alice, reported=bob, reason="stalling", game=game)
    services.mute_create(
        user=bob,
        moderator=moderator,
        reason="earlier insults",
        ends_at=timezone.now() + timedelta(hours=1),
    )
    alice_api.post(REPORTS, {"message": line, "reason": "abuse"}, format="json")
    report = Report.objects.get(reason="abuse")

    queue = moderator_client.get("/admin/accounts/report/", {"status__exact": "open"})
    page = moderator_client.get(f"/admin/accounts/report/{report.pk}/change/")

    assert queue.status_code == 200 and bob.username.encode() in queue.content
    assert page.status_code == 200
    text = page.content.decode()
    for shown in ("good luck", "you will lose, idiot", "please stop", "earlier insults"):
        assert shown in text, shown
    assert game.public_id in text  # the game, linked
    deal = game.deals.get()
    assert f"/admin/games/deal/{deal.pk}/change/?reason=report+%23{report.pk}" in text
    assert f"/admin/accounts/report/{old.pk}/change/" in text  # the earlier report
    assert f"/admin/auth/user/{bob.pk}/change/" in text  # the account, to act on
    assert f"/admin/accounts/report/{report.pk}/act/resolve/" in text  # the buttons


def test_a_moderator_resolves_and_dismisses_reports_with_a_reason(
    user: Any, user_factory: Callable[..., Any], moderator: Any, moderator_client: Client
) -> None:
    first = services.report_create(reporter=user, reported=user_factory(), reason="name")
    second = services.report_create(reporter=user, reported=user_factory(), reason="other")
    third = services.report_create(reporter=user, reported=user_factory(), reason="other")

    resolved = moderator_client.post(
        f"/admin/accounts/report/{first.pk}/act/resolve/", {"reason": "renamed the account"}
    )
    asked = moderator_client.post(
        "/admin/accounts/report/",
        {"action": "dismiss_reports", "_selected_action": [second.pk, third.pk]},
    )
    dismissed = moderator_client.post(
        "/admin/accounts/report/",
        {
            "action": "dismiss_reports",
            "_selected_action": [second.pk, third.pk],
            "apply": "1",
            "reason": "nothing wrong",
        },
        follow=True,
    )

    assert resolved.status_code == 302
    assert asked.status_code == 200 and b"Required. Recorded in the modlog" in asked.content
    assert b"2 reports dismissed." in dismissed.content
    statuses = dict(Report.objects.values_list("pk", "status"))
    assert statuses == {first.pk: "resolved", second.pk: "dismissed", third.pk: "dismissed"}
    first.refresh_from_db()
    assert (first.resolved_by, first.resolution) == (moderator, "renamed the account")
    logged = set(ModAction.objects.values_list("action", "report_id", "reason"))
    assert logged == {
        ("resolve_report", first.pk, "renamed the account"),
        ("dismiss_report", second.pk, "nothing wrong"),
        ("dismiss_report", third.pk, "nothing wrong"),
    }
    again = moderator_client.post(
        f"/admin/accounts/report/{first.pk}/act/dismiss/", {"reason": "changed my mind"}
    )
    assert again.status_code == 200 and b"is closed already (Action taken)" in again.content
