"""Appeals: one per sanction, from the page that tells the player of it (the warning,
their sanctions page, the banned page's signed link); it arrives in the queue; the
moderator's answer reaches the player on the site and by email."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import Appeal, ModAction, Sanction
from accounts.moderation import services
from tests.user_kit import logged_in

pytestmark = pytest.mark.django_db


def test_a_muted_player_appeals_once_and_the_granted_appeal_lifts_the_mute(
    user: Any,
    moderator: Any,
    moderator_client: Client,
    mailoutbox: list[Any],
    django_capture_on_commit_callbacks: Any,
) -> None:
    user.email = "ana@example.com"
    user.save()
    mute = services.mute_create(
        user=user, moderator=moderator, reason="spam", ends_at=timezone.now() + timedelta(hours=2)
    )
    player = logged_in(user)

    listed = player.get("/moderation/sanctions/").content.decode()
    sent = player.post(f"/moderation/sanctions/{mute.pk}/appeal/", {"text": "It was a joke."})
    again = player.post(f"/moderation/sanctions/{mute.pk}/appeal/", {"text": "Please."})
    queue = moderator_client.get("/moderation/queue/").content.decode()
    appeal = Appeal.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        answered = moderator_client.post(
            f"/moderation/appeals/{appeal.pk}/decide/",
            {f"appeal-{appeal.pk}-decision": "grant", f"appeal-{appeal.pk}-answer": "Fair."},
        )
    page = player.get(f"/moderation/sanctions/{mute.pk}/appeal/").content.decode()

    assert f"/moderation/sanctions/{mute.pk}/appeal/" in listed
    assert (sent.status_code, again.status_code) == (302, 409)
    assert Appeal.objects.count() == 1 and appeal.text == "It was a joke."
    assert f'data-account="{user.username}"' in queue
    assert answered.status_code == 302
    mute.refresh_from_db()
    assert mute.lifted_at is not None
    assert ModAction.objects.filter(action="grant_appeal", target=user).exists()
    assert "Granted" in page and "Fair." in page
    assert [mail.to for mail in mailoutbox] == [["ana@example.com"]]
    assert "Fair." in mailoutbox[0].body


def test_a_denied_appeal_leaves_the_sanction_and_cannot_be_answered_twice(
    user: Any, moderator: Any, moderator_client: Client
) -> None:
    warning = services.warning_create(user=user, moderator=moderator, reason="rude")
    logged_in(user).post(f"/moderation/sanctions/{warning.pk}/appeal/", {"text": "I was not."})
    appeal = Appeal.objects.get()
    answer = {f"appeal-{appeal.pk}-decision": "deny", f"appeal-{appeal.pk}-answer": "You were."}

    first = moderator_client.post(f"/moderation/appeals/{appeal.pk}/decide/", answer)
    second = moderator_client.post(f"/moderation/appeals/{appeal.pk}/decide/", answer)

    assert (first.status_code, second.status_code) == (302, 409)
    warning.refresh_from_db()
    assert warning.lifted_at is None
    assert Appeal.objects.get().status == Appeal.Status.DENIED


def test_a_banned_player_appeals_by_the_banned_pages_link(
    user: Any, moderator: Any, moderator_client: Client
) -> None:
    player = logged_in(user)
    services.ban_create(
        user=user,
        moderator=moderator,
        reason="cheating",
        ends_at=timezone.now() + timedelta(days=3),
    )

    banned = player.get("/", HTTP_ACCEPT="text/html").content.decode()
    link = re.search(r'href="(/moderation/appeal/[^"]+/)" id="appeal-link"', banned)
    assert link is not None
    sent = player.post(link.group(1), {"text": "Someone else used my account."})
    shown = player.get(link.group(1)).content.decode()
    forged = Client().get("/moderation/appeal/not-a-real-token/")

    assert sent.status_code == 302
    assert Appeal.objects.get().sanction.kind == Sanction.Kind.BAN
    assert "Waiting for a moderator" in shown
    assert forged.status_code == 404


def test_nobody_appeals_someone_elses_sanction(
    user: Any, user_factory: Callable[..., Any], moderator: Any
) -> None:
    other = user_factory()
    warning = services.warning_create(user=other, moderator=moderator, reason="rude")

    refused = logged_in(user).post(f"/moderation/sanctions/{warning.pk}/appeal/", {"text": "x"})

    assert refused.status_code == 404 and not Appeal.objects.exists()
