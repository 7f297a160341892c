"""A correspondence player's queued draw: "draw from the stock at my next turn, unless
the top of the discard pile is one of these cards".

The draw is queued (``premove_queue``) and cancelled (``premove_cancel``) by its
player at any time. When the turn passes to them, the after-commit work of that move
(``games.live.publisher``) queues the ``games.tasks.premove_apply`` task, which calls
``premove_apply``: under the queued row's lock, the draw goes through the same command
as the player's own (``game_act``, logged as their move), unless the discard
pile's top is one they named; either way the queued draw is used up, for one turn.
A draw queued during the player's own turn waits for their next one.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext, ngettext

from games.engine import Card, DrawStock
from games.errors import Conflict, GameError, InvalidRequest, NotAllowed
from games.models import Game, PreMove, Seat
from games.play.act import game_act
from games.read.selectors import current_deal

logger = logging.getLogger(__name__)

MAX_UNLESS_CARDS = 10


def _parse_unless(cards: Sequence[str]) -> list[str]:
    if len(cards) > MAX_UNLESS_CARDS:
        raise InvalidRequest(
            ngettext(
                "name at most %(max_unless_cards)s card",
                "name at most %(max_unless_cards)s cards",
                MAX_UNLESS_CARDS,
            )
            % {"max_unless_cards": MAX_UNLESS_CARDS},
            code="too_many_cards",
        )
    parsed: list[str] = []
    for text in cards:
        try:
            card = str(Card.parse(text))
        except ValueError:
            raise InvalidRequest(
                gettext("not a card: %(value)s (e.g. AS, 10H, JK)") % {"value": repr(text[:8])},
                code="invalid_card",
            ) from None
        if card not in parsed:
            parsed.append(card)
    return parsed


def _seat_for(game: Game, user: User) -> Seat:
    seat = Seat.objects.filter(game=game, user_id=user.pk).first()
    if seat is None:
        raise NotAllowed(gettext("you are not playing in this game"), code="not_a_player")
    return seat


def premove_queue(*, game: Game, user: User, unless: Sequence[str] = ()) -> PreMove:
    """Queue ``user``'s draw from the stock for their next turn in the correspondence
    ``game`` (replacing one already queued). ``unless``: card texts; when the top of
    the discard pile is one of them, the turn waits for the player instead."""
    cards = _parse_unless(unless)
    seat = _seat_for(game, user)
    if game.time_control != Game.TimeControl.CORRESPONDENCE:
        raise Conflict(
            gettext("a draw is queued in correspondence games only"), code="not_correspondence"
        )
    if game.status != Game.Status.ACTIVE:
        raise Conflict(gettext("the game is not being played"), code="game_not_active")
    if seat.status == Seat.Status.OUT:
        raise NotAllowed(gettext("you resigned from this game"), code="seat_out")
    premove, _ = PreMove.objects.update_or_create(
        seat=seat, defaults={"game": game, "unless": cards}
    )
    return premove


def premove_cancel(*, game: Game, user: User) -> bool:
    """Drop ``user``'s queued draw; whether there was one."""
    seat = _seat_for(game, user)
    deleted, _ = PreMove.objects.filter(seat=seat).delete()
    return deleted > 0


def premove_apply(*, game_pk: int, ply: int) -> bool:
    """The turn has come to a seat at ``ply``: apply its queued draw, as its player's own
    move. True when a draw was made. Nothing happens when the game has moved on from
    ``ply``, the seat to move has nothing queued or has drawn already; a draw held back
    by its ``unless`` cards is used up all the same (the turn is the player's now)."""
    with transaction.atomic():
        premove = (
            PreMove.objects.select_for_update(of=("self",))
            .select_related("game", "seat__user")
            .filter(
                game_id=game_pk,
                game__ply=ply,
                game__status=Game.Status.ACTIVE,
                seat__position=Game.objects.filter(pk=game_pk).values("to_move")[:1],
            )
            .first()
        )
        if premove is None:
            return False
        game, seat = premove.game, premove.seat
        if game.turn_started_at is not None and game.turn_started_at < premove.created_at:
            return False  # queued during this turn: it is for the next one
        deal = current_deal(game)
        if deal is None or deal.is_over or deal.to_move != seat.position or deal.drawn:
            return False
        premove.delete()
        top = deal.discard_top
        if top is not None and str(top) in premove.unless:
            logger.info("queued draw of seat %s in game %s held back", seat.position, game.pk)
            return False
        try:
            game_act(game=game, user=seat.user, action=DrawStock(), expected_ply=ply)
        except GameError as error:
            # The seat left, was put out or the game changed under us: the player draws.
            logger.info("queued draw in game %s not applied: %s", game.pk, error.code)
            return False
    return True
