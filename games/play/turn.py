"""A whole turn in one command: its actions (draw or take, lays, lay-offs, joker swaps,
the discard) applied in order, all or none, in one transaction at the expected ply.

Each action is logged as the move it is, with its own ply, exactly as if it had been
sent alone: the log, the replay, the events and every reader see no difference. What
changes is the cost: one request, one lock, one snapshot written and one commit for
the whole turn, instead of one of each per action."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.translation import gettext, ngettext

from games.engine import Action, IllegalAction
from games.engine import Deal as EngineDeal
from games.errors import GameError, IdempotencyKeyReused, IllegalMove, NotAllowed, illegal_move
from games.models import Game, Move, Seat
from games.play import events, moves, store, turns
from games.play.act import deal_to_move, parse_action, seat_playing
from remi_site import formats

# A turn is a draw, a few lays, lay-offs and swaps, a discard: far fewer than this.
MAX_TURN_ACTIONS = 40
# The key of the turn's n-th move is the request's key with ``#n``: the move log's key
# column holds 128 characters.
TURN_KEY_SUFFIX = 4


@dataclass
class TurnResult:
    game: Game
    seat: Seat
    moves: list[Move]
    replayed: bool = False
    deal: EngineDeal | None = None
    seats: list[Seat] = field(default_factory=list)
    views: dict[int, dict[str, Any]] = field(default_factory=dict)


def game_turn(
    *,
    game: Game | str,
    user: User,
    actions: Sequence[Action | Mapping[str, Any]],
    expected_ply: int,
    idempotency_key: str | None = None,
) -> TurnResult:
    """Apply ``user``'s ``actions`` in order if the game is at ``expected_ply``; if any
    is refused, none is (the refusal's ``details.action`` is its index). Every action
    but the last must leave the turn with the player; the last may end it or not.

    A repeated ``idempotency_key`` returns the moves logged the first time."""
    if not 1 <= len(actions) <= MAX_TURN_ACTIONS:
        raise IllegalMove(
            ngettext(
                "a turn is from 1 to %(most)s action",
                "a turn is from 1 to %(most)s actions",
                MAX_TURN_ACTIONS,
            )
            % {"most": formats.number(MAX_TURN_ACTIONS)},
            code="bad_turn",
        )
    parsed = [_indexed(index, parse_action, action) for index, action in enumerate(actions)]
    payloads = [action.to_dict() for action in parsed]
    keys = [
        None if idempotency_key is None else f"{idempotency_key}#{i}" for i in range(len(parsed))
    ]
    try:
        with transaction.atomic():
            return _turn(game, user, parsed, payloads, keys, expected_ply)
    except IntegrityError:
        # As for one move: the only unique index a sound turn can meet is the key's.
        if idempotency_key is not None:
            raise IdempotencyKeyReused(
                gettext("this idempotency key was used for another action")
            ) from None
        raise


def _turn(
    game_ref: Game | str,
    user: User,
    parsed: list[Action],
    payloads: list[dict[str, Any]],
    keys: list[str | None],
    expected_ply: int,
) -> TurnResult:
    game, row, seats = store.lock_for_move(game_ref)
    seat = store.player_seat(game, seats, user)
    if keys[0] is not None and expected_ply != game.ply:
        replay = _replayed(game, seat, user, keys, payloads)
        if replay is not None:
            return replay
    deal = deal_to_move(game, row, seat, expected_ply)
    assert row is not None
    deal_number = game.deal_number
    changed_seats = seat_playing(seat)
    logged: list[Move] = []
    for index, action in enumerate(parsed):
        if index and (deal.is_over or deal.to_move != seat.position):
            raise NotAllowed(
                gettext("the turn ended before this action"),
                code="turn_over",
                details={"action": index},
            )
        deal = _indexed(index, deal.apply, action)
        logged.append(
            moves.log(
                game,
                row,
                seat,
                deal,
                user=user,
                payload=payloads[index],
                idempotency_key=keys[index],
                save=False,
            )
        )
    deal, row = turns.after_move(
        game, row, deal, seats, changed_seats, mover=seat.position, save_deal=False
    )
    for changed in changed_seats:
        changed.save(update_fields=store.SEAT_PLAY_FIELDS)
    # The turn's moves go in with the snapshot and the game, in one statement.
    store.save_play(game, row, logged)
    new_deal = game.deal_number != deal_number
    state = events.committed(
        game,
        deal,
        seats,
        hands=None if new_deal else events.hands_played(seats, seat),
        new_turn=new_deal or deal.to_move != seat.position,
    )
    views = state.views if state is not None else {}
    return TurnResult(game=game, seat=seat, moves=logged, deal=deal, seats=seats, views=views)


def _indexed(index: int, apply: Any, action: Any) -> Any:
    """``apply(action)``, its refusal carrying the action's index in the turn."""
    refused: GameError
    try:
        return apply(action)
    except IllegalAction as error:
        refused = illegal_move(error)
    except GameError as error:
        refused = error
    refused.details = {**refused.details, "action": index}
    raise refused


def _replayed(
    game: Game, seat: Seat, user: User, keys: list[str | None], payloads: list[dict[str, Any]]
) -> TurnResult | None:
    """The moves a retried turn logged the first time, or None for a new request."""
    first = list(
        Move.objects.filter(game=game, user=user, idempotency_key__in=keys)
        .select_related("deal")
        .order_by("ply")
    )
    if not first:
        return None
    if [move.payload for move in first] != payloads:
        raise IdempotencyKeyReused(
            gettext("this idempotency key was used for another action"),
            details={"ply": first[0].ply},
        )
    return TurnResult(game=game, seat=seat, moves=first, replayed=True, seats=[])
