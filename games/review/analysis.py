"""A deal's turns judged by the exact solver: pure, on the engine alone (no Django).

Each turn is looked at where the player had drawn and not yet laid anything: the
engine's ``hint`` (the exact solver's best opening or partition, then the lay-offs
that shed the most penalty, one card kept for the discard) against what the player
still held just before their discard. Where the solver's play would have left fewer
penalty points in hand, the turn says what it would have laid and the points it saves:

- ``opening``: the player had not opened and did not open, and could have;
- ``lay_down``: the solver lays more cards in new melds than the player did;
- ``lay_off``: the rest, cards the player could have laid off onto the table.

Apart from that, a discard that the next player took and laid in that same turn is a
``fed`` discard, with the penalty of what they laid with it.

The solver is exact and fast on a hand (a few milliseconds), but a deal has dozens of
turns: ``review_deal`` stops examining turns once its ``deadline`` (a monotonic time)
has passed, and skips a turn whose hand holds more than ``MAX_HAND`` cards (the work on
one turn grows with the hand); it counts the turns it left.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine import Action, Card
from games.engine import Deal as EngineDeal
from games.engine.actions import Discard, DrawStock, LayDown, LayOff, TakeDiscard, UndoTake
from games.engine.legal import Hint, hint
from games.engine.values import card_penalty, hand_penalty

_DRAWS = (DrawStock, TakeDiscard, UndoTake)
# The solver's work on a turn grows with the hand (the lay-offs are searched over every
# order): a hand larger than any the rules deal plus a few takes is not examined.
MAX_HAND = 18


@dataclass(frozen=True, slots=True)
class Played:
    """One logged engine action: its ply, the seat that made it, the action."""

    ply: int
    seat: int
    action: Action


@dataclass(slots=True)
class TurnReview:
    """One turn of one seat. ``better`` is None where the player's play was as good as
    the solver's (or the turn was not examined: ``examined`` false)."""

    seat: int
    plies: tuple[int, int]
    actions: list[dict[str, Any]]
    left_penalty: int | None = None
    better: dict[str, Any] | None = None
    fed: dict[str, Any] | None = None
    examined: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "plies": list(self.plies),
            "actions": self.actions,
            "left_penalty": self.left_penalty,
            "better": self.better,
            "fed": self.fed,
            "examined": self.examined,
        }


@dataclass(slots=True)
class DealReview:
    turns: list[TurnReview] = field(default_factory=list)
    unexamined: int = 0


@dataclass(slots=True)
class _Turn:
    seat: int
    moves: list[Played]
    # The deal before each move of the turn, and after the last one.
    before: list[EngineDeal]
    after: EngineDeal


def review_deal(
    dealt: EngineDeal, played: Sequence[Played], *, deadline: float | None = None
) -> DealReview:
    """Every turn of the deal ``dealt`` (as dealt) played out by ``played`` (its engine
    actions in ply order), judged; turns met after ``deadline`` are left unexamined."""
    turns = _turns(dealt, played)
    review = DealReview()
    for index, turn in enumerate(turns):
        entry = TurnReview(
            seat=turn.seat,
            plies=(turn.moves[0].ply, turn.moves[-1].ply),
            actions=[move.action.to_dict() for move in turn.moves],
        )
        too_long = deadline is not None and time.monotonic() > deadline
        if too_long or len(turn.before[0].hand(turn.seat)) > MAX_HAND:
            entry.examined = False
            review.unexamined += 1
        else:
            _judge(turn, entry)
        following = turns[index + 1] if index + 1 < len(turns) else None
        entry.fed = _fed(turn, following)
        review.turns.append(entry)
    return review


def _turns(dealt: EngineDeal, played: Sequence[Played]) -> list[_Turn]:
    """The moves cut into turns: a turn ends with its seat's discard (or the deal)."""
    turns: list[_Turn] = []
    deal = dealt
    current: _Turn | None = None
    for move in played:
        if current is None or current.seat != move.seat:
            current = _Turn(seat=move.seat, moves=[], before=[], after=deal)
            turns.append(current)
        current.moves.append(move)
        current.before.append(deal)
        deal = deal.apply(move.action)
        current.after = deal
        if isinstance(move.action, Discard):
            current = None
    return turns


def _judge(turn: _Turn, entry: TurnReview) -> None:
    """Compare the turn with the solver's play from where the player had drawn."""
    start = next(
        (i for i, move in enumerate(turn.moves) if not isinstance(move.action, _DRAWS)), None
    )
    if start is None or turn.after.is_over:
        return  # nothing played after the draw, or the player went out: nothing better
    drawn = turn.before[start]
    closing = len(turn.moves) - 1
    if not isinstance(turn.moves[closing].action, Discard):
        return
    ruleset = drawn.ruleset
    left = hand_penalty(turn.before[closing].hand(turn.seat), ruleset)
    entry.left_penalty = left
    best = hint(drawn, turn.seat)
    if not best.opens or best.penalty_left >= left or not _keeps_the_take(drawn, turn, best):
        return
    laid = sum(len(move.action.cards) for move in turn.moves if isinstance(move.action, LayDown))
    if not drawn.has_opened(turn.seat) and not laid:
        kind = "opening"
    elif sum(len(meld.cards) for meld in best.melds) > laid:
        kind = "lay_down"
    else:
        kind = "lay_off"
    entry.better = {
        "kind": kind,
        "melds": [[str(card) for card in meld.cards] for meld in best.melds],
        "lay_offs": [str(lay_off.card) for lay_off in best.lay_offs],
        "left_penalty": best.penalty_left,
        "saved": left - best.penalty_left,
    }


def _keeps_the_take(drawn: EngineDeal, turn: _Turn, best: Hint) -> bool:
    """Whether the solver's play honours the discard taken this turn: a player who took
    it before opening must open with it (the hint does not know of the take)."""
    taken = drawn.taken_card
    if taken is None or drawn.has_opened(turn.seat):
        return True
    return any(taken[1] in meld.cards for meld in best.melds)


def _fed(turn: _Turn, following: _Turn | None) -> dict[str, Any] | None:
    """The turn's discard, when the next player took it and laid it in their turn."""
    last = turn.moves[-1].action
    if following is None or not isinstance(last, Discard):
        return None
    if not following.moves or not isinstance(following.moves[0].action, TakeDiscard):
        return None
    card = last.card
    ruleset = turn.after.ruleset
    for move in following.moves[1:]:
        action = move.action
        if isinstance(action, LayDown):
            for meld in action.melds:
                if card in meld:
                    return _fed_entry(card, following.seat, hand_penalty(meld, ruleset))
        elif isinstance(action, LayOff) and action.card == card:
            return _fed_entry(card, following.seat, card_penalty(card, ruleset))
    return None


def _fed_entry(card: Card, seat: int, points: int) -> dict[str, Any]:
    return {"card": str(card), "seat": seat, "points": points}
