"""Who is told: no "your turn" flood in a game against bots, nothing about a muted
game, no result to a player at the table, nothing to bot accounts."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import tasks
from games.live import presence
from games.models import Game, PlayerSettings
from games.notify import preferences
from games.play.create import game_create
from games.play.lobby import game_start
from games.play.resign import game_resign
from tests.gamekit import current_engine_deal, greedy_action
from tests.games.notify_kit import duel, mails_to, person, play_turn

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def bot_game(
    user_factory: Callable[..., Any], bots: list[Any], deals_seeded: Callable[[int], None]
) -> tuple[Game, Any]:
    """A correspondence game of a person with an address against a built-in bot."""
    me = person(user_factory, "ana")
    game = game_create(owner=me, preset="serbian", players=2, days_per_move=2, bots=[bots[0]])
    return game_start(game=game, user=me), me


def play_my_turns(game: Game, me: Any, client: Any, turns: int) -> int:
    """Play ``turns`` of my turns through the API (the bot answers each at once);
    returns how many of my turns started after a bot's reply."""
    replies = 0
    for _ in range(turns):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        seat = game.seats.get(user=me).position
        assert game.to_move == seat
        action: dict[str, Any] = {}
        while action.get("type") != "discard":  # a discard ends the turn
            action = greedy_action(current_engine_deal(game)).to_dict()
            answer = client.post(
                f"/api/v1/games/{game.public_id}/actions",
                {"action": action, "ply": game.ply},
                format="json",
            )
            assert answer.status_code == 200, answer.json()
            game.refresh_from_db()
        game.refresh_from_db()
        replies += int(game.status == Game.Status.ACTIVE and game.to_move == seat)
    return replies


def test_a_player_of_a_bot_game_gets_no_your_turn_email_after_each_reply(
    bot_game, client_for, mailoutbox
):
    game, me = bot_game

    replies = play_my_turns(game, me, client_for(me), turns=4)

    assert replies >= 3  # the bot answered and the turn came back, again and again
    assert mails_to(mailoutbox, me) == []


def test_a_bot_game_still_reminds_the_player_before_the_deadline(bot_game, mailoutbox):
    game, me = bot_game
    now = timezone.now()
    Game.objects.filter(pk=game.pk).update(deadline_at=now + timedelta(hours=1))

    assert tasks.send_reminders(now=now) == 1

    assert [message.subject.split(" left ")[0] for message in mails_to(mailoutbox, me)] == [
        "1 hour"
    ]


def test_a_muted_game_sends_its_player_nothing_but_the_other_player_everything(
    user_factory, deals_seeded, mailoutbox
):
    table = duel(user_factory)
    quiet, other = table.waiting, table.mover
    preferences.game_mute(user=quiet, game=table.game)
    mailoutbox.clear()

    Game.objects.filter(public_id=table.game_id).update(
        deadline_at=timezone.now() - timedelta(seconds=1)
    )
    assert tasks.sweep_deadlines() == 1  # other's turn timed out: quiet's turn now
    game_resign(game=table.game, user=other)

    assert mails_to(mailoutbox, quiet) == []
    assert [m.subject.split(" against ")[0] for m in mails_to(mailoutbox, other)] == [
        "Your time ran out",
        "Game over",
    ]


def test_connected_is_not_seen_and_the_result_skips_a_player_at_the_table(
    user_factory, deals_seeded, mailoutbox
):
    """An open connection alone (a tab left open) holds no "your turn" back: only a
    table seen does (tests/games/test_turn_notices.py). The result is not sent to a
    player at the table, who saw it."""
    table = duel(user_factory)
    watcher, mover = table.waiting, table.mover
    presence.presence_touch(user_id=watcher.pk, channel="test!1", games=[table.game_id])
    try:
        play_turn(table.game_id, mover)
        assert table.mover.pk == watcher.pk
        game_resign(game=table.game, user=mover)
    finally:
        presence.presence_drop(user_id=watcher.pk, channel="test!1", games=[table.game_id])
        presence.presence_drop(user_id=watcher.pk, channel="test!1", games=[])

    assert [m.subject.split(" against ")[0] for m in mails_to(mailoutbox, watcher)] == [
        "Your turn"  # not the end
    ]
    assert [m.subject.split(" against ")[0] for m in mails_to(mailoutbox, mover)] == [
        "Your turn",  # the start
        "Game over",
    ]


def test_a_player_who_wants_no_results_gets_none(user_factory, deals_seeded, mailoutbox):
    table = duel(user_factory)
    mover, waiting = table.mover, table.waiting
    PlayerSettings.objects.filter(user=waiting).update(email_game_over=False)
    mailoutbox.clear()

    game_resign(game=table.game, user=mover)

    assert mails_to(mailoutbox, waiting) == []
    assert len(mails_to(mailoutbox, mover)) == 1


def test_an_external_bot_account_is_never_emailed(user_factory, deals_seeded, mailoutbox):
    program = person(user_factory, "robo")
    program.profile.is_bot = True
    program.profile.save()
    ana = person(user_factory, "ana")

    table = duel(user_factory, users=[ana, program])
    if table.mover.pk == ana.pk:
        play_turn(table.game_id, ana)
    assert table.mover.pk == program.pk  # the bot account's turn
    now = timezone.now()
    Game.objects.filter(public_id=table.game_id).update(deadline_at=now + timedelta(hours=1))
    assert tasks.send_reminders(now=now) == 0
    game_resign(game=table.game, user=ana)

    assert mails_to(mailoutbox, program) == []
