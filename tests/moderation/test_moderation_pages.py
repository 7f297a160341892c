"""The moderators' pages on the site: the queue (grouped by account, oldest first,
claimed by one moderator at a time), a player's page (record, actions shown only when
they can be used), a ban confirmed with what it will end, and acting on all of an
account's reports in one step. And the reporter's page of outcomes."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import ModAction, Report, Sanction
from accounts.moderation import services
from games.challenges.services import challenge_create
from games.models import Game
from games.play.create import game_create
from tests.user_kit import logged_in

pytestmark = pytest.mark.django_db


def mute_form(**fields: str) -> dict[str, str]:
    return {
        "mute-preset": "abuse",
        "mute-reason": "",
        "mute-length": "2",
        "mute-unit": "hours",
        **fields,
    }


def test_the_queue_groups_open_reports_by_account_oldest_first(
    user_factory: Callable[..., Any], moderator_client: Client
) -> None:
    early, late, reporter = user_factory(), user_factory(), user_factory()
    services.report_create(reporter=reporter, reported=late, reason="name")
    services.report_create(reporter=reporter, reported=early, reason="abuse")
    services.report_create(reporter=user_factory(), reported=early, reason="other")
    Report.objects.filter(reported=early).update(created_at=timezone.now() - timedelta(hours=3))

    page = moderator_client.get("/moderation/queue/")
    text = page.content.decode()

    assert page.status_code == 200
    assert text.index(f'data-account="{early.username}"') < text.index(
        f'data-account="{late.username}"'
    )
    counts = re.findall(r'<td class="count[^"]*"[^>]*>(\d+)</td>', text)
    assert counts == ["2", "1"]


def test_only_moderators_see_the_moderation_pages(
    user: Any, user_factory: Callable[..., Any], staff_factory: Callable[..., Any]
) -> None:
    target = user_factory()
    for client in (logged_in(user), logged_in(staff_factory(moderator=False))):
        for url in ("/moderation/queue/", f"/moderation/players/{target.username}/"):
            assert client.get(url).status_code == 403, url
        refused = client.post(f"/moderation/players/{target.username}/act/mute/", mute_form())
        assert refused.status_code == 403
    assert Client().get("/moderation/queue/").status_code == 302  # to sign in
    assert not Sanction.objects.exists()


def test_two_moderators_cannot_take_the_same_reports(
    user: Any, user_factory: Callable[..., Any], moderator_client: Client, staff_factory: Any
) -> None:
    bob = user_factory()
    services.report_create(reporter=user, reported=bob, reason="abuse")
    other = logged_in(staff_factory(username="mod2"))

    first = moderator_client.post(f"/moderation/queue/{bob.username}/claim/")
    second = other.post(f"/moderation/queue/{bob.username}/claim/", follow=True)
    acting = other.post(f"/moderation/players/{bob.username}/act/mute/", mute_form(reports="on"))

    assert first.status_code == 302 and first["Location"] == f"/moderation/players/{bob.username}/"
    assert "Mod is working on these reports." in second.content.decode()
    assert Report.objects.get().claimed_by.username == "mod"
    assert acting.status_code == 409 and not Sanction.objects.exists()


def test_a_two_hour_mute_acts_on_all_of_the_accounts_reports_in_one_step(
    started: Callable[..., Any], user_factory: Callable[..., Any], moderator_client: Client
) -> None:
    game, (alice, bob) = started(players=2)
    first = services.report_create(reporter=alice, reported=bob, reason="abuse", game=game)
    second = services.report_create(reporter=user_factory(), reported=bob, reason="abuse")
    moderator_client.post(f"/moderation/queue/{bob.username}/claim/")

    done = moderator_client.post(
        f"/moderation/players/{bob.username}/act/mute/", mute_form(reports="on"), follow=True
    )

    assert done.status_code == 200
    mute = Sanction.objects.get(user=bob, kind="mute")
    assert timedelta(minutes=119) < mute.ends_at - timezone.now() <= timedelta(hours=2)
    assert set(Report.objects.values_list("status", flat=True)) == {"resolved"}
    row = ModAction.objects.get(action="mute")
    assert (row.report, row.game) == (first, game)
    assert second.mod_actions.get().action == "resolve_report"
    assert "2 reports closed: action taken." in done.content.decode()


def listing(page: str, list_id: str) -> str:
    found = re.search(rf'<ul id="{list_id}">(.*?)</ul>', page, re.S)
    assert found, list_id
    return found.group(1)


# A transaction of its own: the ban's lifecycle runs when the ban commits, as on the site.
@pytest.mark.django_db(transaction=True)
def test_the_ban_confirmation_lists_what_the_ban_then_ends(
    rated_game: Callable[..., Any], user_factory: Callable[..., Any], moderator_client: Client
) -> None:
    game, (cheat, rival) = rated_game(2)
    hosted = game_create(owner=cheat, preset="serbian", players=3)
    challenge_create(challenger=cheat, destination=rival, preset="polish51")
    form = {"ban-preset": "cheating", "ban-reason": "", "ban-length": "3", "ban-unit": "days"}

    asked = moderator_client.post(f"/moderation/players/{cheat.username}/act/ban/", form)
    text = asked.content.decode()
    nothing_yet = Sanction.objects.exists()
    banned = moderator_client.post(
        f"/moderation/players/{cheat.username}/act/ban/", {**form, "confirm": "1"}, follow=True
    )

    assert asked.status_code == 200 and not nothing_yet
    # Each game by its rules and start, linked; each challenge by its rules and players.
    listed = {name: listing(text, name) for name in ("forfeited", "left", "challenges")}
    assert f'href="/games/{game.public_id}/"' in listed["forfeited"]
    assert f'href="/games/{hosted.public_id}/"' in listed["left"]
    assert "Serbian" in listed["left"] and game.public_id not in re.sub(r"<[^>]+>", "", text)
    assert f"Polish Remik 51: {cheat.username} to {rival.username}, sent" in listed["challenges"]
    assert "1 running game forfeited. 1 lobby seat given up." in banned.content.decode()
    game.refresh_from_db()
    assert (game.status, game.end_reason) == (Game.Status.FINISHED, "banned")
    ban = Sanction.objects.get(kind="ban")
    assert timedelta(days=3) - ban.ends_at.__sub__(timezone.now()) < timedelta(minutes=1)


def test_a_ban_on_the_page_needs_a_length_or_permanent(user: Any, moderator_client: Client) -> None:
    refused = moderator_client.post(
        f"/moderation/players/{user.username}/act/ban/",
        {"ban-reason": "threats", "ban-length": "", "ban-unit": "days"},
    )

    assert refused.status_code == 400
    assert "Give a length, or choose a permanent ban." in refused.content.decode()
    assert not Sanction.objects.exists()


def test_lifting_is_offered_only_while_a_sanction_is_in_force_and_never_on_a_bot(
    user: Any, bots: list[Any], moderator: Any, moderator_client: Client
) -> None:
    before = moderator_client.get(f"/moderation/players/{user.username}/").content.decode()
    services.mute_create(
        user=user, moderator=moderator, reason="spam", ends_at=timezone.now() + timedelta(hours=1)
    )
    after = moderator_client.get(f"/moderation/players/{user.username}/").content.decode()
    bot_page = moderator_client.get(f"/moderation/players/{bots[0].username}/").content.decode()

    assert 'id="action-mute"' in before and 'id="action-unmute"' not in before
    assert 'id="action-unmute"' in after and 'id="action-unban"' not in after
    assert 'id="action-ban"' not in bot_page and 'id="action-warn"' not in bot_page
    assert 'id="not-allowed"' in bot_page


def test_a_warning_and_a_note_from_the_players_page(user: Any, moderator_client: Client) -> None:
    warned = moderator_client.post(
        f"/moderation/players/{user.username}/act/warn/",
        {"warn-preset": "spam", "warn-reason": "Three links in a minute."},
    )
    noted = moderator_client.post(
        f"/moderation/players/{user.username}/act/note/", {"note-text": "Watch the next games."}
    )
    page = moderator_client.get(f"/moderation/players/{user.username}/").content.decode()

    assert (warned.status_code, noted.status_code) == (302, 302)
    assert Sanction.objects.get().kind == "warning"
    assert "Three links in a minute." in page and "Watch the next games." in page


def test_the_reporter_sees_the_outcome_on_the_site_without_the_sanction(
    user: Any, user_factory: Callable[..., Any], moderator: Any
) -> None:
    bob, carol = user_factory(), user_factory()
    acted = services.report_create(reporter=user, reported=bob, reason="abuse")
    services.report_create(reporter=user, reported=carol, reason="name")
    services.mute_create(
        user=bob,
        moderator=moderator,
        reason="private: third time this week",
        ends_at=timezone.now() + timedelta(hours=2),
        report=acted,
    )
    services.report_close(report=acted, moderator=moderator, outcome="dismissed", reason="x")

    page = logged_in(user).get("/moderation/reports/").content.decode()

    assert "Action taken" in page and "Waiting for a moderator" in page
    assert "third time" not in page and "Chat mute" not in page and "Mute" not in page


def test_the_reporter_who_chose_it_is_emailed_the_outcome_in_their_language(
    user_factory: Callable[..., Any],
    moderator_client: Client,
    client_for: Callable[[Any], Any],
    mailoutbox: list[Any],
    django_capture_on_commit_callbacks: Any,
) -> None:
    keen = user_factory(language="pl")
    keen.email = "keen@example.com"
    keen.save()
    quiet = user_factory()
    quiet.email = "quiet@example.com"
    quiet.save()
    chose = client_for(keen).patch(
        "/api/v1/me/settings", {"email_report_outcomes": True}, format="json"
    )
    bob = user_factory()
    for reporter in (keen, quiet):
        services.report_create(reporter=reporter, reported=bob, reason="name")
    moderator_client.post(f"/moderation/queue/{bob.username}/claim/")

    with django_capture_on_commit_callbacks(execute=True):
        closed = moderator_client.post(
            f"/moderation/players/{bob.username}/close/",
            {"close-outcome": "dismissed", "close-reason": "a fine name"},
        )

    assert chose.status_code == 200 and chose.json()["email_report_outcomes"] is True
    assert closed.status_code == 302
    assert [mail.to for mail in mailoutbox] == [["keen@example.com"]]
    assert bob.username in mailoutbox[0].subject
    assert "Wynik: bez działania." in mailoutbox[0].body
    assert "a fine name" not in mailoutbox[0].body
