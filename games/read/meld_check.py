"""Asking the engine about melds before laying them: each meld's verdict and value, and
whether laying them all would open."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import Deal as EngineDeal
from games.engine import (
    IllegalAction,
    IllegalMeld,
    Meld,
    arrange_meld,
    meld_value,
)
from games.errors import Conflict, InvalidRequest, NotAllowed
from games.models import Game
from games.read.selectors import User, current_deal, seat_of
from games.refusals import refusal_text


def meld_check_for(*, game: Game, user: User, melds: Sequence[Sequence[int]]) -> dict[str, Any]:
    """What the engine says of melds the seated ``user`` holds in the current deal: each
    meld laid out with its kind and value, or why it is none (``IllegalMeld`` code),
    and whether laying them all down now would be their opening (``Deal.check_opening``:
    the ruleset's minimum and its other conditions).

    ``melds`` name cards by the ids of the user's own hand; any other id is refused
    without saying what it is. Nothing is changed and nothing is revealed but the
    user's own cards.
    """
    seat = seat_of(game, user)
    if seat is None:
        raise NotAllowed(_("only the players at the table can check melds"), code="not_a_player")
    if game.status != Game.Status.ACTIVE:
        raise Conflict(_("the game is not being played"), code="game_not_active")
    deal = current_deal(game)
    assert deal is not None  # an active game has a deal
    held = set(deal.hand_ids(seat.position))
    named = [card_id for meld in melds for card_id in meld]
    foreign = sorted({card_id for card_id in named if card_id not in held})
    if foreign:
        raise InvalidRequest(
            ngettext(
                "not in your hand: card id %(value)s",
                "not in your hand: card ids %(value)s",
                len(foreign),
            )
            % {"value": ", ".join(map(str, foreign))},
            code="cards_not_in_hand",
            details={"ids": foreign},
        )
    twice = sorted({card_id for card_id in named if named.count(card_id) > 1})
    if twice:
        raise InvalidRequest(
            ngettext(
                "each card may be named once: card id %(value)s",
                "each card may be named once: card ids %(value)s",
                len(twice),
            )
            % {"value": ", ".join(map(str, twice))},
            code="cards_named_twice",
            details={"ids": twice},
        )
    ruleset = deal.ruleset
    answers: list[dict[str, Any]] = []
    checked: list[Meld] = []
    refusal: IllegalMeld | None = None
    for ids in melds:
        try:
            meld = arrange_meld([deal.card(card_id) for card_id in ids], ruleset)
        except IllegalMeld as error:
            refusal = refusal or error
            answers.append(_meld_answer(deal, ids, None, error))
            continue
        checked.append(meld)
        answers.append(_meld_answer(deal, ids, meld, None))
    opening: dict[str, Any] = {"valid": False, "code": None, "message": None}
    if refusal is not None:
        # A lay-down is refused at its first meld that is none (``Deal.apply``).
        opening.update(code=refusal.code, message=refusal_text(refusal))
    else:
        try:
            deal.check_opening(seat.position, checked)
            opening["valid"] = True
        except IllegalAction as error:
            opening.update(code=error.code, message=refusal_text(error))
    return {
        "melds": answers,
        "total": sum(answer["value"] or 0 for answer in answers),
        "opening_minimum": ruleset.opening_minimum,
        "opening": opening,
    }


def _meld_answer(
    deal: EngineDeal, ids: Sequence[int], meld: Meld | None, error: IllegalMeld | None
) -> dict[str, Any]:
    if meld is None:
        assert error is not None
        laid = list(ids)  # as named
        kind, value, code, message = None, None, error.code, refusal_text(error)
    else:
        # The cards as laid out, each with an id of the player's that holds that card
        # (twins are interchangeable).
        left = list(ids)
        laid = []
        for card in meld.cards:
            card_id = next(i for i in left if deal.card(i) == card)
            left.remove(card_id)
            laid.append(card_id)
        kind, value, code, message = meld.kind.value, meld_value(meld, deal.ruleset), None, None
    return {
        "valid": meld is not None,
        "kind": kind,
        "value": value,
        "code": code,
        "message": message,
        "cards": [{"id": card_id, "card": str(deal.card(card_id))} for card_id in laid],
    }
