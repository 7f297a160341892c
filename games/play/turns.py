"""After a move: the deal ended (``games.play.finish``), the turns of seats that are
out played by the server, and the clock of the next turn started."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from accounts.models import is_builtin_bot
from games import clock
from games.bots import server_moves
from games.engine import Deal as EngineDeal
from games.models import Deal, Game, PlayerSettings, Seat
from games.play import finish, moves


def after_move(
    game: Game,
    row: Deal,
    deal: EngineDeal,
    seats: list[Seat],
    changed: set[Seat],
    *,
    mover: int | None,
    save_deal: bool = True,
) -> tuple[EngineDeal, Deal]:
    """Save the deal after a move by seat ``mover``: end it, deal the next one (or pause
    a live table before it) or end the match; play the turns of seats that are out;
    restart the turn clock when the turn has passed. ``mover`` None: ``deal`` was just
    dealt. Returns the current engine deal and its row (``save_deal=False``: its new
    state is left for the caller to save, see ``store.save_play``)."""
    new_deal = mover is None
    while True:
        if deal.is_over:
            row = finish.deal_finish(game, row, deal, seats, changed)
            if game.status != Game.Status.ACTIVE:
                return deal, row
            if game.next_deal_at is not None:
                if mover is not None and clock.bank_charge(game, seats[mover], timezone.now()):
                    changed.add(seats[mover])
                return deal, row
            deal = row.restore(deal.ruleset)
            new_deal = True
            continue
        seat = seats[deal.to_move]
        if seat.status != Seat.Status.OUT:
            break
        # A resigned seat keeps its cards and plays on: draw, discard the worst card.
        action = server_moves.server_action(deal)
        deal = deal.apply(action)
        moves.log(game, row, seat, deal, user=None, payload=action.to_dict())
    row.keep(deal)
    if save_deal:
        row.save(update_fields=["state"])
    if new_deal or deal.to_move != mover:
        now = timezone.now()
        if mover is not None and clock.bank_charge(game, seats[mover], now):
            changed.add(seats[mover])
        turn_start(game, now, seats[deal.to_move])
    return deal, row


def turn_start(game: Game, now: datetime, to_move: Seat) -> None:
    """Start the clock of ``to_move``'s turn: its start and its deadline."""
    game.turn_started_at = now
    game.deadline_at = _deadline(game, now, to_move)
    game.bot_to_move = is_builtin_bot(to_move.user)
    game.to_move = to_move.position


def _deadline(game: Game, now: datetime, to_move: Seat) -> datetime | None:
    # The live-play part (games.clock) owns the rule: vacations move a
    # correspondence clock, a live mover's time bank extends theirs. ``to_move`` is
    # the seat whose turn starts (loaded by ``store.seats`` with its player's
    # settings: no query).
    return clock.turn_deadline(
        game,
        now,
        away_until=_away_until(to_move),
        bank_ms=clock.bank_left_ms(game, to_move),
    )


def _away_until(seat: Seat) -> datetime | None:
    """The end of the vacation of the seat's player, if they ever took one."""
    try:
        prefs = seat.user.play_settings
    except PlayerSettings.DoesNotExist:
        return None
    return prefs.vacation_until
