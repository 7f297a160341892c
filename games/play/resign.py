"""A seat leaving a running game: a player resigns, or the system puts a seat out
(a live player away past the wait, a ban), with or without ending the match."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.errors import Conflict
from games.models import Deal, Game, Seat
from games.play import finish, moves, pause, store, turns


def game_resign(*, game: Game, user: User) -> Game:
    """Give up: the seat is out (its total stays and its cards stay in the deal;
    the server plays its turns). With fewer than two players left the game ends
    and the others win."""
    with transaction.atomic():
        game = store.lock(game)
        seats = store.seats(game)
        seat = store.player_seat(game, seats, user)
        if game.status != Game.Status.ACTIVE:
            raise Conflict(gettext("the game is not being played"), code="game_not_active")
        if seat.status == Seat.Status.OUT:
            raise Conflict(gettext("you have already resigned"), code="seat_out")
        changed = {seat}
        row = store.current_deal(game)
        moves.log_seat_out(game, row, seat, by=user)
        still_in = [s for s in seats if s.status != Seat.Status.OUT]
        if len(still_in) < 2:
            winners = [s.position for s in still_in]
            finish.game_over(game, seats, winners=winners, reason="resigned", now=timezone.now())
        elif game.next_deal_at is not None:
            pause.resume_if_ready(game, row, seats)
        else:
            deal = row.restore(game.engine_ruleset())
            turns.after_move(game, row, deal, seats, changed, mover=deal.to_move)
        for changed_seat in changed:
            changed_seat.save(update_fields=store.SEAT_PLAY_FIELDS)
        game.save(update_fields=store.GAME_PLAY_FIELDS)
    return game


def game_seat_out(*, game: Game, position: int, expected_ply: int, reason: str) -> Game | None:
    """The system takes a seat out of a running game (a live player away past the
    wait): as a resignation, logged with ``user=None`` and the reason. None when the
    game moved on from ``expected_ply`` or is not active."""
    with transaction.atomic():
        locked = store.lock_at_ply(game, expected_ply)
        if locked is None:
            return None
        game, seats = locked
        seat = seats[position]
        if seat.status == Seat.Status.OUT:
            return game
        changed: set[Seat] = {seat}
        seat_out(game, store.current_deal(game), seat, seats, changed, reason=reason)
        for changed_seat in changed:
            changed_seat.save(update_fields=store.SEAT_PLAY_FIELDS)
        game.save(update_fields=store.GAME_PLAY_FIELDS)
    return game


def seat_out(
    game: Game, row: Deal, seat: Seat, seats: list[Seat], changed: set[Seat], *, reason: str
) -> None:
    """Mark ``seat`` out (logged as a server ``resign`` with the reason); end the game
    when fewer than two seats are left, else play on (its turns by the server)."""
    changed.add(seat)
    moves.log_seat_out(game, row, seat, reason=reason)
    still_in = [s for s in seats if s.status != Seat.Status.OUT]
    if len(still_in) < 2:
        winners = [s.position for s in still_in]
        finish.game_over(game, seats, winners=winners, reason=reason, now=timezone.now())
        return
    if game.next_deal_at is not None:
        pause.resume_if_ready(game, row, seats)
        return
    deal = row.restore(game.engine_ruleset())
    turns.after_move(game, row, deal, seats, changed, mover=deal.to_move)


def game_seat_out_and_end(
    *, game: Game, position: int, expected_ply: int, reason: str
) -> Game | None:
    """The system takes a seat out and ends the match at once (a live table's host
    ending the game for an absent player, docs/rules.md §10): logged as a server ``resign``
    with the reason; the lowest total among the seats still in wins (2 players: the
    other one). None when the game moved on from ``expected_ply`` or is not active."""
    with transaction.atomic():
        locked = store.lock_at_ply(game, expected_ply)
        if locked is None:
            return None
        game, seats = locked
        seat = seats[position]
        moves.log_seat_out(game, store.current_deal(game), seat, reason=reason)
        finish.game_finish(game, seats, reason=reason, now=timezone.now())
        seat.save(update_fields=store.SEAT_PLAY_FIELDS)
        game.save(update_fields=store.GAME_PLAY_FIELDS)
    return game
