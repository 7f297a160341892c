"""What the browser tests of a live game's clocks share: work in a thread of its own
(the services publish with ``async_to_sync``), the seat to move, and a deadline passing
with the sweep's step for it. The ``live_table`` fixture (conftest.py) starts such a
game."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games.models import Game, Seat
from games.play import timeouts
from games.read.selectors import current_deal


def to_move(game: Game) -> Seat:
    game.refresh_from_db()
    deal = current_deal(game)
    assert deal is not None
    return game.seats.select_related("user").get(position=deal.to_move)


def timeout_step(game: Game) -> str | None:
    """The current deadline passes; the sweep's step for it."""
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    game.refresh_from_db()
    return timeouts.timeout_apply(game_pk=game.pk, ply=game.ply)
