"""The pause of a live table between deals: the players' "ready", and the sweep that
deals the next deal once the pause is over."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.errors import Conflict, NotAllowed
from games.models import Deal, Game, Seat
from games.play import events, finish, store, turns


def game_deal_ready(*, game: Game | str, user: User) -> Game:
    """``user`` has seen the finished deal's summary of a live table: the next deal is
    dealt once every person still in the game is ready (bots always are), else when
    the pause's due time passes (``game_next_deal``). Saying it twice changes nothing."""
    with transaction.atomic():
        game, row, seats = store.lock_for_move(game)
        seat = store.player_seat(game, seats, user)
        if game.status != Game.Status.ACTIVE:
            raise Conflict(gettext("the game is not being played"), code="game_not_active")
        if game.next_deal_at is None or row is None:
            raise Conflict(gettext("no deal is waiting to be dealt"), code="no_deal_pause")
        if seat.status == Seat.Status.OUT:
            raise NotAllowed(gettext("you resigned from this game"), code="seat_out")
        if seat.position not in game.deal_ready:
            game.deal_ready = sorted([*game.deal_ready, seat.position])
            events.notify(
                game,
                {
                    "type": "deal_ready",
                    "deal": row.number,
                    "seat": seat.position,
                    "ready": list(game.deal_ready),
                },
            )
        if set(finish.people_in(seats)) <= set(game.deal_ready):
            _deal_after_pause(game, row, seats)
        else:
            game.save(update_fields=["deal_ready", "updated_at"])
    return game


def game_next_deal(*, game: Game, expected_ply: int, now: datetime | None = None) -> Game | None:
    """The pause of a live table is over (``next_deal_at`` passed): deal the next deal.
    The game row is claimed with ``SKIP LOCKED``: None when another transaction holds
    it, the ply moved on, or no pause is due (a sweep never deals twice)."""
    now = now or timezone.now()
    with transaction.atomic():
        rows = store.CLAIM_AT_PLY(game.pk, expected_ply)
        if not rows:
            return None
        game, row = rows[0].game, rows[0]
        if game.next_deal_at is None or game.next_deal_at > now:
            return None
        _deal_after_pause(game, row, store.seats(game))
    return game


def due_deal_pauses(now: datetime, limit: int = 500) -> list[tuple[int, int]]:
    """(game pk, ply) of the active games whose pause between deals is over, oldest
    first (the partial index ``game_active_next_deal``)."""
    rows = (
        Game.objects.filter(
            status=Game.Status.ACTIVE, next_deal_at__isnull=False, next_deal_at__lte=now
        )
        .order_by("next_deal_at")
        .values_list("pk", "ply")[:limit]
    )
    return list(rows)


def _deal_after_pause(game: Game, row: Deal, seats: list[Seat]) -> None:
    """Deal the next deal of the locked, paused ``game`` (``row``: the finished deal),
    play the turns of seats that are out, start the turn clock and save."""
    finished = row.restore(game.engine_ruleset())
    new_row = finish.next_deal(game, row, finished, finish.match_of(game, row, finished))
    changed: set[Seat] = set()
    deal, new_row = turns.after_move(
        game, new_row, new_row.restore(finished.ruleset), seats, changed, mover=None
    )
    for changed_seat in changed:
        changed_seat.save(update_fields=store.SEAT_PLAY_FIELDS)
    game.save(update_fields=store.GAME_PLAY_FIELDS)
    events.committed(game, deal, seats, hands=None, new_turn=True)


def resume_if_ready(game: Game, row: Deal, seats: list[Seat]) -> None:
    """A seat left a paused table (resigned, put out): deal on when nobody still in
    is waited for."""
    if game.next_deal_at is not None and set(finish.people_in(seats)) <= set(game.deal_ready):
        _deal_after_pause(game, row, seats)
