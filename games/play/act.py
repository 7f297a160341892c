"""A player's move: checked against the locked game (the expected ply, the turn, an
idempotency key seen before), applied by the engine, logged and saved in one
statement (``store.save_play``). This is the hottest path of the site."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from games.engine import Action, IllegalAction, action_from_dict
from games.engine import Deal as EngineDeal
from games.errors import (
    Conflict,
    IdempotencyKeyReused,
    NotAllowed,
    StalePly,
    illegal_move,
)
from games.models import Deal, Game, Move, Seat
from games.play import events, moves, store, turns


@dataclass
class ActResult:
    """What ``game_act`` did: the move logged for the request (the first result again
    for a retried idempotency key), and the engine state after everything it caused."""

    game: Game
    seat: Seat
    move: Move
    replayed: bool = False
    deal: EngineDeal | None = None
    seats: list[Seat] = field(default_factory=list)
    # Views of ``deal`` per seat built by the after-commit work (shared with the answer).
    views: dict[int, dict[str, Any]] = field(default_factory=dict)


def game_act(
    *,
    game: Game | str,
    user: User,
    action: Action | Mapping[str, Any],
    expected_ply: int,
    idempotency_key: str | None = None,
) -> ActResult:
    """Apply ``user``'s ``action`` if the game is still at ``expected_ply``.

    A stale ply raises ``StalePly`` (nothing applied). A repeated
    ``idempotency_key`` returns the move logged the first time, whatever the ply
    is now; the same key with another action raises ``IdempotencyKeyReused``.
    When a deal ends the next one is dealt at once (a live table first pauses: see
    ``pause.game_deal_ready``; moves meanwhile raise ``Conflict`` ``deal_paused``), or
    the match ends. Turns of seats that are out (resigned) are then played by the
    server.

    ``game`` may be given by its public id: the game row is then read only once,
    locked (this is the hottest path of the site).
    """
    parsed = parse_action(action)
    payload = parsed.to_dict()
    try:
        with transaction.atomic():
            return _act(game, user, parsed, payload, expected_ply, idempotency_key)
    except IntegrityError:
        # The only unique index a sound move can meet is the idempotency key's: a key
        # already used (at an earlier ply) for another request of this user.
        if idempotency_key is not None and _key_used(game, user, idempotency_key):
            raise IdempotencyKeyReused(
                gettext("this idempotency key was used for another action")
            ) from None
        raise


def _act(
    game_ref: Game | str,
    user: User,
    parsed: Action,
    payload: dict[str, Any],
    expected_ply: int,
    idempotency_key: str | None,
) -> ActResult:
    game, row, seats = store.lock_for_move(game_ref)
    seat = store.player_seat(game, seats, user)
    if idempotency_key is not None and expected_ply != game.ply:
        # A retry of a move that was applied comes with the ply it was made at, now
        # stale: answer it with the move logged the first time. (A key reused with the
        # current ply can only be a new request: the insert below refuses it.)
        first = (
            Move.objects.filter(game=game, user=user, idempotency_key=idempotency_key)
            .select_related("deal")
            .first()
        )
        if first is not None:
            if first.payload != payload:
                raise IdempotencyKeyReused(
                    gettext("this idempotency key was used for another action"),
                    details={"ply": first.ply},
                )
            return ActResult(game=game, seat=seat, move=first, replayed=True, seats=seats)
    deal = deal_to_move(game, row, seat, expected_ply)
    assert row is not None  # deal_to_move found the game's deal
    try:
        deal = deal.apply(parsed)
    except IllegalAction as error:
        raise illegal_move(error) from None

    deal_number = game.deal_number
    changed_seats = seat_playing(seat)
    move = moves.log(
        game,
        row,
        seat,
        deal,
        user=user,
        payload=payload,
        idempotency_key=idempotency_key,
        save=False,
    )
    deal, row = turns.after_move(
        game, row, deal, seats, changed_seats, mover=seat.position, save_deal=False
    )
    for changed in changed_seats:
        changed.save(update_fields=store.SEAT_PLAY_FIELDS)
    store.save_play(game, row, [move])
    new_deal = game.deal_number != deal_number
    state = events.committed(
        game,
        deal,
        seats,
        hands=None if new_deal else events.hands_played(seats, seat),
        new_turn=new_deal or deal.to_move != seat.position,
    )
    views = state.views if state is not None else {}
    return ActResult(game=game, seat=seat, move=move, deal=deal, seats=seats, views=views)


def deal_to_move(game: Game, row: Deal | None, seat: Seat, expected_ply: int) -> EngineDeal:
    """The current deal, if ``seat`` may move in the locked ``game`` at ``expected_ply``;
    else the refusal a client can act on."""
    if game.status != Game.Status.ACTIVE:
        raise Conflict(gettext("the game is not being played"), code="game_not_active")
    if game.next_deal_at is not None:
        raise Conflict(
            gettext("the deal is over: the next deal starts when every player is ready"),
            code="deal_paused",
            details={"next_deal_at": game.next_deal_at.isoformat()},
        )
    if expected_ply != game.ply:
        raise StalePly(game.ply, expected_ply)
    if seat.status == Seat.Status.OUT:
        raise NotAllowed(gettext("you resigned from this game"), code="seat_out")
    assert row is not None  # an active game has a deal
    deal = store.restore(game, row)
    if deal.to_move != seat.position:
        raise NotAllowed(gettext("it is not your turn"), code="not_your_turn")
    return deal


def seat_playing(seat: Seat) -> set[Seat]:
    """Playing is coming back: a seat that had left (or had strikes) is active again.
    The seats changed, to save."""
    if seat.status == Seat.Status.ACTIVE and not seat.strikes:
        return set()
    seat.status = Seat.Status.ACTIVE
    seat.strikes = 0
    return {seat}


def _key_used(game: Game | str, user: User, key: str) -> bool:
    games = Game.objects.filter(public_id=game) if isinstance(game, str) else [game]
    return Move.objects.filter(game__in=games, user=user, idempotency_key=key).exists()


def parse_action(action: Action | Mapping[str, Any]) -> Action:
    if isinstance(action, Mapping):
        try:
            return action_from_dict(action)
        except IllegalAction as error:
            raise illegal_move(error) from None
    return action
