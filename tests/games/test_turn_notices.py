"""The "your turn" notice: one per turn of a person (a queued draw's new ply included),
held only while the game's table is actually seen (its script reports that) and sent
if the turn is still unseen a few minutes later, never held by a tab merely left open;
and it names only the players still in the game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import Group
from django.db import OperationalError
from rest_framework.test import APIClient

from accounts.moderation import services as moderation
from accounts.moderation.roles import MODERATOR_GROUP
from games import tasks
from games.live import presence
from games.models import Game
from games.notify import notices
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from games.play.moderation import ban_enforce
from games.play.premoves import premove_queue
from tests.games.notify_kit import duel, mails_to, person, play_turn

pytestmark = pytest.mark.django_db(transaction=True)


def turn_mails(outbox: list[Any], user: Any) -> list[str]:
    return [m.subject for m in mails_to(outbox, user) if m.subject.startswith("Your turn")]


@pytest.fixture
def later(monkeypatch: pytest.MonkeyPatch) -> list[tuple[tuple[Any, ...], int]]:
    """The "your turn" tasks queued to run again later, with their countdown, held here
    instead of running at once (Celery runs eagerly in the tests): a test runs them
    when the wait is over."""
    held: list[tuple[tuple[Any, ...], int]] = []
    run_now = tasks.your_turn_email.apply_async

    def hold(args: Any = None, kwargs: Any = None, **options: Any) -> Any:
        if "countdown" not in options:  # the publisher's ``delay``: runs as ever
            return run_now(args, kwargs, **options)
        held.append((tuple(args), options["countdown"]))
        return None

    monkeypatch.setattr(tasks.your_turn_email, "apply_async", hold)
    return held


def report_seen(client: Any, game_id: str) -> None:
    """What the table's script sends while the page is visible and used."""
    response = client.post(f"/api/v1/games/{game_id}/seen")
    assert response.status_code == 204, response.content


# ------------------------------------------------------------------ one per turn


def test_a_queued_draw_does_not_bring_a_second_your_turn_email(
    user_factory: Callable[..., Any], deals_seeded: Any, mailoutbox: list[Any], monkeypatch: Any
) -> None:
    """As a worker may run them: the turn's notice first, then the queued draw, whose
    new ply queues a notice of its own."""
    table = duel(user_factory)
    mover, waiting = table.mover, table.waiting
    premove_queue(game=table.game, user=waiting)
    draws: list[tuple[Any, ...]] = []
    monkeypatch.setattr(tasks.premove_apply, "delay", lambda *args: draws.append(args))
    mailoutbox.clear()

    play_turn(table.game_id, mover)  # the turn passes: its notice runs, the draw waits
    monkeypatch.undo()
    [draw] = draws
    assert tasks.premove_apply(*draw) is True  # the server draws for the player: a new ply

    assert table.game.ply == draw[1] + 1
    assert len(turn_mails(mailoutbox, waiting)) == 1


def test_each_new_turn_still_gets_its_notice(
    user_factory: Callable[..., Any], deals_seeded: Any, mailoutbox: list[Any]
) -> None:
    table = duel(user_factory)
    first, second = table.mover, table.waiting
    mailoutbox.clear()

    play_turn(table.game_id, first)
    play_turn(table.game_id, second)
    play_turn(table.game_id, first)

    assert len(turn_mails(mailoutbox, second)) == 2
    assert len(turn_mails(mailoutbox, first)) == 1


def test_a_notice_whose_task_finds_the_database_down_is_sent_once_it_answers(
    user_factory: Callable[..., Any],
    deals_seeded: Any,
    mailoutbox: list[Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The worker's first read fails as it does while PostgreSQL restarts; the task is
    tried again (at once here: Celery runs eagerly in the tests, and retries eagerly
    where a failure is not propagated to the caller, as a worker's is not) and sends
    one mail."""
    monkeypatch.setitem(tasks.your_turn_email.app.conf, "task_eager_propagates", False)
    table = duel(user_factory)
    mover, waiting = table.mover, table.waiting
    tries: list[int] = []
    notice = notices.turn_notice

    def database_down_once(**kwargs: Any) -> Any:
        tries.append(kwargs["ply"])
        if len(tries) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return notice(**kwargs)

    monkeypatch.setattr(notices, "turn_notice", database_down_once)
    mailoutbox.clear()

    play_turn(table.game_id, mover)

    assert len(tries) == 2 and tries[0] == tries[1]
    assert len(turn_mails(mailoutbox, waiting)) == 1
    for task in (tasks.your_turn_email, tasks.game_over_notice, tasks.push_deliver):
        assert task.autoretry_for == tasks.WHILE_THE_DATABASE_IS_DOWN["autoretry_for"]


# ------------------------------------------------------------------ seen or not


def test_a_tab_left_open_but_unseen_holds_nothing_back(
    user_factory: Callable[..., Any], deals_seeded: Any, mailoutbox: list[Any], later: Any
) -> None:
    table = duel(user_factory)
    mover, waiting = table.mover, table.waiting
    # Connected all along (an open tab), but its page never says it is seen.
    presence.presence_touch(user_id=waiting.pk, channel="test!idle", games=[table.game_id])
    try:
        mailoutbox.clear()
        play_turn(table.game_id, mover)
    finally:
        presence.presence_drop(user_id=waiting.pk, channel="test!idle", games=[table.game_id])
        presence.presence_drop(user_id=waiting.pk, channel="test!idle", games=[])

    assert len(turn_mails(mailoutbox, waiting)) == 1
    assert later == []


def test_a_turn_seen_at_the_table_gets_no_email(
    user_factory: Callable[..., Any],
    deals_seeded: Any,
    mailoutbox: list[Any],
    later: Any,
    client_for: Callable[[Any], Any],
) -> None:
    table = duel(user_factory)
    mover, waiting = table.mover, table.waiting
    browser = client_for(waiting)
    report_seen(browser, table.game_id)  # watching the opponent's turn
    mailoutbox.clear()

    play_turn(table.game_id, mover)
    [(args, countdown)] = later
    assert countdown == settings.TURN_NOTICE_UNSEEN_S
    assert turn_mails(mailoutbox, waiting) == []  # not yet
    report_seen(browser, table.game_id)  # the table showed the new turn
    assert tasks.your_turn_email(*args) is False

    assert turn_mails(mailoutbox, waiting) == []


def test_a_turn_still_unseen_after_the_wait_is_sent_then(
    user_factory: Callable[..., Any],
    deals_seeded: Any,
    mailoutbox: list[Any],
    later: Any,
    client_for: Callable[[Any], Any],
) -> None:
    table = duel(user_factory)
    mover, waiting = table.mover, table.waiting
    report_seen(client_for(waiting), table.game_id)  # then the person walked away
    mailoutbox.clear()

    play_turn(table.game_id, mover)
    [(args, _countdown)] = later
    assert turn_mails(mailoutbox, waiting) == []

    assert tasks.your_turn_email(*args) is True
    assert tasks.your_turn_email(*args) is False  # once
    assert len(turn_mails(mailoutbox, waiting)) == 1


def test_only_a_player_of_the_game_may_say_its_table_is_seen(
    user_factory: Callable[..., Any], deals_seeded: Any, client_for: Callable[[Any], Any]
) -> None:
    table = duel(user_factory)
    stranger = client_for(user_factory(username="stranger"))

    refused = stranger.post(f"/api/v1/games/{table.game_id}/seen")
    unknown = client_for(table.mover).post("/api/v1/games/nosuchgame/seen")

    assert refused.status_code == 404 and refused.json()["error"]["code"] == "not_found"
    assert unknown.status_code == 404
    assert APIClient().post(f"/api/v1/games/{table.game_id}/seen").status_code in (401, 403)


# ------------------------------------------------------------------ who is named


def make_moderator(user_factory: Callable[..., Any]) -> Any:
    staff = user_factory(username="mod", display_name="Mod")
    staff.is_staff = True
    staff.save()
    staff.groups.add(Group.objects.get(name=MODERATOR_GROUP))
    return staff


def test_after_a_ban_the_your_turn_email_names_only_the_players_still_in(
    user_factory: Callable[..., Any], deals_seeded: Any, mailoutbox: list[Any]
) -> None:
    names = ("ana", "marko", "zoran")
    people = [person(user_factory, name) for name in names]
    game = game_create(owner=people[0], preset="serbian", players=3, days_per_move=2)
    for other in people[1:]:
        game_join(game=game, user=other)
    game = game_start(game=game, user=people[0])
    banned = next(p for p in people if game.seats.get(user=p).position != game.to_move)
    moderation.ban_create(
        user=banned, moderator=make_moderator(user_factory), reason="abuse", permanent=True
    )
    ban_enforce(user=banned)
    mailoutbox.clear()

    game = Game.objects.get(pk=game.pk)
    mover = game.seats.get(position=game.to_move).user
    play_turn(game.public_id, mover)

    game.refresh_from_db()
    told = game.seats.get(position=game.to_move).user
    [message] = [m for m in mails_to(mailoutbox, told) if m.subject.startswith("Your turn")]
    mover_name = mover.profile.display_name
    assert message.subject.startswith(f"Your turn against {mover_name} —")
    assert banned.profile.display_name not in message.subject + str(message.body)
