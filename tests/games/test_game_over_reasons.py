"""The game-over email of a game ended by a ban or by a moderator's decision says who
won and why, naming the player it went against ("you" to that player), in each
reader's language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import Group

from accounts.models import Profile
from accounts.moderation import services as moderation
from accounts.moderation.roles import MODERATOR_GROUP
from games.play.moderation import ban_enforce, game_adjudicate
from tests.games.notify_kit import duel, mails_to

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def moderator(user_factory: Callable[..., Any]) -> Any:
    staff = user_factory(username="mod", display_name="Mod")
    staff.is_staff = True
    staff.save()
    staff.groups.add(Group.objects.get(name=MODERATOR_GROUP))
    return staff


def game_over_mail(outbox: list[Any], user: Any) -> Any:
    """The one email about the game's end (its subject names the rules, not a time)."""
    [message] = [m for m in mails_to(outbox, user) if " left" not in m.subject]
    return message


def test_a_game_ended_by_a_ban_tells_the_winner_who_was_banned(
    user_factory: Callable[..., Any], deals_seeded: Any, mailoutbox: list[Any], moderator: Any
) -> None:
    table = duel(user_factory, names=("ana", "marko"))
    ana, marko = sorted(table.users, key=lambda user: user.username)
    mailoutbox.clear()

    moderation.ban_create(user=marko, moderator=moderator, reason="abuse", permanent=True)
    ban_enforce(user=marko)

    message = game_over_mail(mailoutbox, ana)
    assert message.subject.startswith("You won against Marko")
    body = str(message.body)
    assert "is over: Marko was banned from the site and forfeited." in body
    assert "You won." in body


def test_an_adjudicated_game_says_so_to_both_in_their_own_language(
    user_factory: Callable[..., Any], deals_seeded: Any, mailoutbox: list[Any], moderator: Any
) -> None:
    table = duel(user_factory, names=("ana", "marko"))
    ana, marko = sorted(table.users, key=lambda user: user.username)
    Profile.objects.filter(user=marko).update(language="pl")
    mailoutbox.clear()

    game_adjudicate(
        game=table.game,
        position=table.game.seats.get(user=marko).position,
        moderator=moderator,
        reason="stalling",
    )

    to_ana = str(game_over_mail(mailoutbox, ana).body)
    to_marko = str(game_over_mail(mailoutbox, marko).body)
    assert "is over: a moderator decided the game against Marko." in to_ana
    assert "You won." in to_ana
    assert "moderator rozstrzygnął grę na twoją niekorzyść" in to_marko
    assert "Wygrywa Ana." in to_marko
