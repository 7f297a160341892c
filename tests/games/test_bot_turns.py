"""Built-in bots playing on the server against a person who never lays anything.

A player reported that "Greedy Goran" laid no meld in 128 moves of a live game.
These tests play the same kind of game through the platform's own path (a play-now
game, the bot's Celery task, eager here) on fixed deals, and pin that the bot lays
melds down: the report was the strategy's honest outcome on one unlucky deal (in
Remik 51 an unopened player may not take the discard to build an opening, so a
hand can wait a long time for 51 points), not a bot that was stuck.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from games.models import Game, Move
from games.play.bot_turns import game_play_now
from games.play.pause import game_deal_ready
from tests.turn_kit import passive_move

pytestmark = pytest.mark.django_db(transaction=True)

PASSIVE_TURNS = 150


def play_passively(game: Game, user: Any, turns: int) -> None:
    """The person draws from the stock and throws back the last card of their hand,
    ``turns`` times or until the game ends; the bot answers in between. Between two
    deals of the live table the person is ready at once."""
    for _ in range(turns):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return
        if game.next_deal_at is not None:
            game_deal_ready(game=game, user=user)
            continue
        passive_move(game, user)


@pytest.mark.parametrize("preset", ["serbian", "macedonian", "polish51"])
def test_greedy_goran_lays_melds_against_a_player_who_never_does(
    preset: str,
    user: Any,
    deals_seeded: Callable[[int], None],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="games.play.bot_turns")
    game = game_play_now(user=user, preset=preset, bots_count=1, level=2)

    play_passively(game, user, PASSIVE_TURNS)

    bot_moves = Counter(
        Move.objects.filter(deal__game=game).exclude(seat__user=user).values_list("kind", flat=True)
    )
    assert bot_moves["lay"] >= 1, bot_moves
    # The bot decided every move itself: no fallback to the server's plain move.
    assert not [record for record in caplog.records if record.name == "games.play.bot_turns"]
