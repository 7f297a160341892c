"""The server's turn for a seat whose time ran out: the writes of the timeout policy
(``games.play.timeouts`` decides when and how hard; this plays the turn under the
game lock with the ply guard)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games import clock
from games.bots import server_moves
from games.models import Game, Move, Seat
from games.play import events, moves, resign, store, turns


@dataclass
class ServerTurn:
    """What ``game_timeout_turn`` did to the seat whose time ran out."""

    game: Game
    position: int
    strikes: int
    out: bool


def game_timeout_turn(
    *,
    game: Game,
    expected_ply: int,
    strike_limit: int | None,
    now: datetime | None = None,
) -> ServerTurn | None:
    """The deadline of ``expected_ply`` passed: the server plays the turn of the seat
    to move (draw from the stock, discard the highest-penalty card that is not a
    joker, or what the rules require: the taken card back, undo a take) and counts
    a strike. With ``strike_limit`` strikes in a row the seat is out (the server
    plays its turns from now on); fewer than two seats left ends the game and the
    others win.

    The game row is claimed with ``SKIP LOCKED``: None when another transaction
    holds it, the ply moved on, the game is not active or the deadline has not
    passed (so a sweep and an ETA task never apply a timeout twice).
    """
    now = now or timezone.now()
    with transaction.atomic():
        rows = store.CLAIM_AT_PLY(game.pk, expected_ply)
        claimed = rows[0].game if rows else None
        if claimed is None or claimed.deadline_at is None or claimed.deadline_at > now:
            return None
        game, row = claimed, rows[0]
        seats = store.seats(game)
        deal = row.restore(game.engine_ruleset())
        seat = seats[deal.to_move]
        deal_number = game.deal_number
        played = []
        for _ in range(8):  # a turn is at most: undo a take, draw, discard
            if deal.is_over or deal.to_move != seat.position:
                break
            action = server_moves.timeout_action(deal)
            deal = deal.apply(action)
            played.append(
                moves.log(game, row, seat, deal, user=None, payload=action.to_dict(), save=False)
            )
        Move.objects.bulk_create(played)  # the turn's moves in one statement
        seat.strikes += 1
        clock.bank_exhaust(game, seat)  # the deadline passed: nothing is left
        changed: set[Seat] = {seat}
        out = strike_limit is not None and seat.strikes >= strike_limit
        events.notify(
            game,
            {"type": "timed_out", "seat": seat.position, "strikes": seat.strikes, "out": out},
        )
        deal, row = turns.after_move(
            game, row, deal, seats, changed, mover=seat.position, save_deal=False
        )
        if out and game.status == Game.Status.ACTIVE:
            resign.seat_out(game, row, seat, seats, changed, reason="timeout")
        for changed_seat in changed:
            changed_seat.save(update_fields=store.SEAT_PLAY_FIELDS)
        store.save_play(game, row, ())
        if not out:
            # (A seat put out played on in ``resign.seat_out``: its deal is read after the commit.)
            new_deal = game.deal_number != deal_number
            events.committed(
                game,
                deal,
                seats,
                hands=None if new_deal else events.hands_played(seats, seat),
                new_turn=new_deal or deal.to_move != seat.position,
            )
    return ServerTurn(game=game, position=seat.position, strikes=seat.strikes, out=out)
