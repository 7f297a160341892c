"""Safe sanctions: a ban has a length or is chosen as permanent, warnings are read and
acknowledged, built-in bots and staff are out of a moderator's reach, and a report
ends as "action taken" once its account was sanctioned, linked to what it led to."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import ModAction, Report, Sanction
from accounts.moderation import services
from accounts.moderation.errors import InvalidRequest, NotAllowed
from tests.gamekit import error_of
from tests.user_kit import logged_in

pytestmark = pytest.mark.django_db


def test_a_ban_without_a_length_is_refused_unless_chosen_permanent(
    user: Any, moderator: Any
) -> None:
    with pytest.raises(InvalidRequest) as refused:
        services.ban_create(user=user, moderator=moderator, reason="threats")
    assert refused.value.code == "duration_required"
    assert not Sanction.objects.exists()

    ban = services.ban_create(user=user, moderator=moderator, reason="threats", permanent=True)

    assert ban.ends_at is None


def test_the_admins_ban_form_refuses_an_empty_length(user: Any, moderator_client: Client) -> None:
    response = moderator_client.post(
        f"/admin/auth/user/{user.pk}/act/ban/", {"reason": "threats", "length": "", "unit": "days"}
    )

    assert response.status_code == 200
    assert b"Give a length, or choose a permanent ban." in response.content
    assert not Sanction.objects.exists()


def test_a_mute_may_last_hours(user: Any, moderator_client: Client) -> None:
    moderator_client.post(
        f"/admin/auth/user/{user.pk}/act/mute/",
        {"preset": "spam", "reason": "", "length": "2", "unit": "hours"},
    )

    mute = Sanction.objects.get(kind="mute")
    assert timedelta(minutes=119) < mute.ends_at - timezone.now() <= timedelta(hours=2)
    assert (mute.preset, mute.reason) == ("spam", "Spamming the chat")


def test_built_in_bots_and_staff_cannot_be_sanctioned(
    bots: list[Any], staff_factory: Callable[..., Any], moderator: Any
) -> None:
    colleague = staff_factory(moderator=False)
    for target, code in ((bots[0], "builtin_bot"), (colleague, "staff_account")):
        with pytest.raises(NotAllowed) as refused:
            services.ban_create(user=target, moderator=moderator, reason="oops", permanent=True)
        assert refused.value.code == code
        with pytest.raises(NotAllowed) as refused:
            services.warning_create(user=target, moderator=moderator, reason="oops")
        assert refused.value.code == code
    assert services.sanction_allowed(bots[0]) is False
    assert not Sanction.objects.exists()


def test_a_warning_is_shown_at_the_next_page_in_the_players_language_until_acknowledged(
    user_factory: Callable[..., Any], moderator: Any
) -> None:
    player = user_factory(language="pl")
    services.warning_create(
        user=player, moderator=moderator, preset="abuse", reason="Stop calling people names."
    )
    browser = logged_in(player)

    background = browser.get("/jsi18n/", HTTP_SEC_FETCH_DEST="script")
    shown = browser.get("/settings/", follow=True, HTTP_ACCEPT="text/html")
    text = shown.content.decode()
    acknowledged = browser.post(
        "/moderation/warning/",
        {"warning": Sanction.objects.get().pk, "next": "/settings/"},
    )
    afterwards = browser.get("/settings/", HTTP_ACCEPT="text/html")

    assert background.status_code == 200
    assert shown.redirect_chain == [("/moderation/warning/?next=%2Fsettings%2F", 302)]
    assert "Obraźliwy lub znieważający czat" in text
    assert "Stop calling people names." in text
    assert (acknowledged.status_code, acknowledged["Location"]) == (302, "/settings/")
    assert afterwards.status_code == 200
    assert Sanction.objects.get().acknowledged_at is not None


def test_the_api_lists_unread_warnings_and_acknowledges_them(
    user: Any, moderator: Any, client_for: Callable[[Any], Any]
) -> None:
    warning = services.warning_create(user=user, moderator=moderator, reason="be kind")
    api = client_for(user)

    listed = api.get("/api/v1/me/sanctions").json()["warnings"]
    acknowledged = api.post(f"/api/v1/me/warnings/{warning.pk}/acknowledge")
    foreign = api.post("/api/v1/me/warnings/999999/acknowledge")

    assert [(w["id"], w["reason"]) for w in listed] == [(warning.pk, "be kind")]
    assert acknowledged.status_code == 200
    assert api.get("/api/v1/me/sanctions").json()["warnings"] == []
    assert (foreign.status_code, error_of(foreign)["code"]) == (404, "not_found")


def test_a_report_about_an_account_sanctioned_since_ends_as_action_taken(
    started: Callable[..., Any], moderator: Any, user_factory: Callable[..., Any]
) -> None:
    game, (alice, bob) = started(players=2)
    first = services.report_create(reporter=alice, reported=bob, reason="abuse", game=game)
    second = services.report_create(reporter=user_factory(), reported=bob, reason="abuse")
    services.mute_create(
        user=bob,
        moderator=moderator,
        reason="insults",
        ends_at=timezone.now() + timedelta(hours=2),
        report=first,
    )

    closed = services.report_close(
        report=second, moderator=moderator, outcome=Report.Status.DISMISSED, reason="the rest"
    )

    assert closed.status == Report.Status.RESOLVED
    mute_row = ModAction.objects.get(action=ModAction.Action.MUTE)
    assert (mute_row.report, mute_row.game) == (first, game)
    assert list(first.mod_actions.values_list("action", flat=True)) == ["mute"]


def test_the_reporter_reads_the_outcome_but_not_the_sanction(
    user: Any, user_factory: Callable[..., Any], moderator: Any, client_for: Callable[[Any], Any]
) -> None:
    bob = user_factory()
    report = services.report_create(reporter=user, reported=bob, reason="name")
    services.warning_create(user=bob, moderator=moderator, reason="rename", report=report)
    services.report_close(
        report=report, moderator=moderator, outcome=Report.Status.RESOLVED, reason="warned"
    )

    listed = client_for(user).get("/api/v1/reports").json()["results"]

    assert [(r["status"], r["outcome"]) for r in listed] == [("resolved", "action_taken")]
    assert "warn" not in str(listed) and "rename" not in str(listed)


def test_a_player_cannot_acknowledge_someone_elses_warning(
    user: Any, user_factory: Callable[..., Any], moderator: Any
) -> None:
    other = user_factory()
    warning = services.warning_create(user=other, moderator=moderator, reason="be kind")

    refused = logged_in(user).post("/moderation/warning/", {"warning": warning.pk})

    assert refused.status_code == 404
    warning.refresh_from_db()
    assert warning.acknowledged_at is None


def test_the_reports_admin_page_shows_the_modlog_rows_it_led_to(
    user: Any, user_factory: Callable[..., Any], moderator: Any, moderator_client: Client
) -> None:
    bob = user_factory()
    report = services.report_create(reporter=user, reported=bob, reason="abuse")
    services.warning_create(user=bob, moderator=moderator, reason="mind your words", report=report)

    page = moderator_client.get(f"/admin/accounts/report/{report.pk}/change/").content.decode()

    assert "modlog rows this report led to" in page.lower()
    assert "Warning" in page and "mind your words" in page
