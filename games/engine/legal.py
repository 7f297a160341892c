"""What the player to move may do now, move by move; and the solver's advice for a hand.

``legal_moves(deal)`` sorts the engine's own legal actions (``Deal.legal_actions``)
into what a client shows and a bot picks from: drawing from the stock, taking the
discard and what taking it obliges under the ruleset, putting a taken card back, each
lay-off (with the end of the run the card goes to), each joker swap, each discard, and
whether the seat may lay melds down now and what its opening must reach.

Lay-downs are the one kind of move not listed one by one: a hand holds far too many
combinations of melds. ``lay`` says whether the engine would accept one now and
``opening`` what the first one must be worth; ``hint`` gives the best.

``hint(deal, seat)`` is the solver's best play for one seat's own hand: the best
opening (or, once opened, the melds that leave the least penalty), then the lay-offs
onto the table that shed the most penalty from what is left, keeping a card for the
closing discard. It reads nothing but that seat's hand and the table.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from .actions import (
    Action,
    Discard,
    DrawStock,
    IllegalAction,
    LayDown,
    LayOff,
    SwapJoker,
    TakeDiscard,
    UndoTake,
)
from .cards import Card
from .melds import Meld, MeldKind
from .rulesets import DiscardTake, Ruleset
from .solver import best_opening, best_partition, remaining_cards
from .table import lay_off, lay_off_options
from .values import card_penalty, hand_penalty, meld_value

if TYPE_CHECKING:
    from .deal import Deal

__all__ = ["Hint", "LegalMoves", "Obligation", "OpeningNeed", "TakeOption", "hint", "legal_moves"]

Obligation: TypeAlias = Literal["open_or_return"]


@dataclass(frozen=True, slots=True)
class TakeOption:
    """Taking the top of the discard pile, and what it obliges.

    ``obligation`` is ``"open_or_return"`` where a player who has not opened may take
    the card but must then open in this turn or discard that same card back (serbian);
    None where taking binds to nothing. ``undo``: the ruleset lets the taker put the
    card back and draw from the stock instead, as long as they have done nothing else.
    """

    card: Card
    obligation: Obligation | None
    undo: bool

    def to_dict(self) -> dict[str, Any]:
        return {"card": str(self.card), "obligation": self.obligation, "undo": self.undo}


@dataclass(frozen=True, slots=True)
class OpeningNeed:
    """What a seat that has not opened must lay down to open.

    ``minimum``: the value this turn's new melds must reach together; where
    ``all_but_one_exempt``, laying down every card but one at once needs no minimum
    (``hand_needs_51`` off). ``this_turn``: the rules let the seat open in this turn
    (not so in a first round under ``no_opening_in_first_round``).
    """

    minimum: int
    all_but_one_exempt: bool
    this_turn: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "minimum": self.minimum,
            "all_but_one_exempt": self.all_but_one_exempt,
            "this_turn": self.this_turn,
        }


@dataclass(frozen=True, slots=True)
class LegalMoves:
    """Every move the player to move (``seat``) may make now.

    Iterating gives every listed move as an action (lay-downs excepted, see the module
    doc); ``action in moves`` says whether the engine accepts ``action`` now, taking
    the forms the engine reads the same way as one (a lay-off onto a set with an end
    named, a run's lay-off without one, a swap's cards in another order). For a
    lay-down it says only whether some lay-down would be accepted (``lay``).

    ``lay_offs`` name the end of a run for every card laid off onto a run (None for a
    set); ``discards`` the cards that may be discarded (one per value: twins are
    interchangeable).
    """

    seat: int
    draw: bool
    take: TakeOption | None
    undo: bool
    lay: bool
    opening: OpeningNeed | None
    lay_offs: tuple[LayOff, ...]
    swaps: tuple[SwapJoker, ...]
    discards: tuple[Card, ...]

    def __iter__(self) -> Iterator[Action]:
        if self.draw:
            yield DrawStock()
        if self.take is not None:
            yield TakeDiscard()
        if self.undo:
            yield UndoTake()
        yield from self.lay_offs
        yield from self.swaps
        yield from (Discard(card) for card in self.discards)

    def __contains__(self, action: object) -> bool:
        match action:
            case DrawStock():
                return self.draw
            case TakeDiscard():
                return self.take is not None
            case UndoTake():
                return self.undo
            case LayDown():
                return self.lay
            case LayOff():
                return any(_same_lay_off(listed, action) for listed in self.lay_offs)
            case SwapJoker():
                given = sorted(action.cards)
                return any(
                    listed.meld_index == action.meld_index and sorted(listed.cards) == given
                    for listed in self.swaps
                )
            case Discard():
                return action.card in self.discards
        return False

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form: each lay-off and swap is an action body the API accepts as is."""
        return {
            "draw": self.draw,
            "take": None if self.take is None else self.take.to_dict(),
            "undo": self.undo,
            "lay": self.lay,
            "opening": None if self.opening is None else self.opening.to_dict(),
            "lay_offs": [action.to_dict() for action in self.lay_offs],
            "swaps": [action.to_dict() for action in self.swaps],
            "discards": [str(card) for card in self.discards],
        }


def _same_lay_off(listed: LayOff, asked: LayOff) -> bool:
    # A set's lay-off ignores the end; a run's without one goes where the card fits.
    if listed.card is not asked.card or listed.meld_index != asked.meld_index:
        return False
    return listed.end is None or asked.end is None or listed.end == asked.end


def legal_moves(deal: Deal) -> LegalMoves | None:
    """The moves of the player to move, from ``deal.legal_actions()``; None once over."""
    if deal.is_over:
        return None
    seat = deal.to_move
    ruleset = deal.ruleset
    actions = deal.legal_actions()
    take = None
    top = deal.discard_top
    if TakeDiscard() in actions and top is not None:
        take = TakeOption(top, _take_obligation(deal, seat), ruleset.discard_take_undo)
    opening = None
    if not deal.has_opened(seat):
        first_round_ban = ruleset.no_opening_in_first_round and deal.first_round
        opening = OpeningNeed(
            ruleset.opening_minimum, not ruleset.hand_needs_51, this_turn=not first_round_ban
        )
    return LegalMoves(
        seat=seat,
        draw=DrawStock() in actions,
        take=take,
        undo=UndoTake() in actions,
        lay=any(isinstance(action, LayDown) for action in actions),
        opening=opening,
        lay_offs=tuple(_with_end(deal, action) for action in actions if isinstance(action, LayOff)),
        swaps=tuple(action for action in actions if isinstance(action, SwapJoker)),
        discards=tuple(action.card for action in actions if isinstance(action, Discard)),
    )


def _take_obligation(deal: Deal, seat: int) -> Obligation | None:
    must_open = deal.ruleset.discard_take is DiscardTake.ANYONE_MUST_OPEN
    return "open_or_return" if must_open and not deal.has_opened(seat) else None


def _with_end(deal: Deal, action: LayOff) -> LayOff:
    """The lay-off with the end of the run it goes to named (a set's has none)."""
    meld = deal.table[action.meld_index].meld
    if action.end is not None or meld.kind is MeldKind.SET:
        return action
    _, end = lay_off(meld, action.card, None, deal.ruleset)
    return LayOff(action.card, action.meld_index, end)


# ---------------------------------------------------------------- hints


@dataclass(frozen=True, slots=True)
class Hint:
    """The solver's best play for one seat's hand, in the order to play it.

    ``melds``: before opening, the opening worth the most (``value``), and
    ``refusal``, the engine's code when it may not be laid down as the seat's opening
    (``opening_too_low``, ``no_opening_in_first_round``, ...; then nothing else can be
    played yet); once opened, the new melds that leave the least penalty in hand.
    ``lay_offs``: then the lay-offs onto table melds (the new ones included, numbered
    after the table's) that shed the most penalty, in order. ``left``: the cards still
    held after all that, worth ``penalty_left``.
    """

    seat: int
    opened: bool
    minimum: int
    melds: tuple[Meld, ...]
    value: int
    refusal: str | None
    lay_offs: tuple[LayOff, ...]
    left: tuple[Card, ...]
    penalty_left: int

    @property
    def opens(self) -> bool:
        """The melds may be laid down (an opening the engine accepts, or melds after it)."""
        return self.refusal is None

    def actions(self) -> list[Action]:
        """The advice as actions, in order (nothing when the melds do not open)."""
        if not self.opens:
            return []
        laid: list[Action] = [LayDown(meld.cards for meld in self.melds)] if self.melds else []
        return [*laid, *self.lay_offs]


def hint(deal: Deal, seat: int) -> Hint:
    """The best play for ``seat``'s own hand and the table as they are.

    A seat that has drawn this turn keeps one card back for the closing discard; any
    other (still to draw, or waiting for its turn) may use every card it holds, the
    card it will draw being the one to discard.
    """
    if not 0 <= seat < deal.num_players:
        raise ValueError(f"no seat {seat} in a {deal.num_players}-player deal")
    ruleset = deal.ruleset
    hand = tuple(sorted(deal.hand(seat)))
    keep = 1 if seat == deal.to_move and deal.drawn else 0
    opened = deal.has_opened(seat)
    refusal = None
    if opened:
        melds = _partition(hand, ruleset, keep)
    else:
        melds = _opening(hand, ruleset, keep)
        refusal = _opening_refusal(deal, seat, melds)
    left: tuple[Card, ...] = hand
    lay_offs: tuple[LayOff, ...] = ()
    if refusal is None:
        left = tuple(remaining_cards(hand, melds))
        table = (*(meld.meld for meld in deal.table), *melds)
        _, lay_offs, left = _best_lay_offs(table, left, keep, ruleset)
    return Hint(
        seat=seat,
        opened=opened,
        minimum=ruleset.opening_minimum,
        melds=melds,
        value=sum(meld_value(meld, ruleset) for meld in melds),
        refusal=refusal,
        lay_offs=lay_offs,
        left=left,
        penalty_left=hand_penalty(left, ruleset),
    )


def _cards_in(melds: Sequence[Meld]) -> int:
    return sum(len(meld.cards) for meld in melds)


@lru_cache(maxsize=1024)
def _opening(hand: tuple[Card, ...], ruleset: Ruleset, keep: int) -> tuple[Meld, ...]:
    """The opening to try from ``hand`` keeping ``keep`` cards: the most valuable one,
    or, when that is worth too little and the ruleset exempts a lay-down of all but one
    card from the minimum, such a lay-down if the hand holds one."""
    melds = tuple(best_opening(hand, ruleset, keep=keep))
    if (
        sum(meld_value(meld, ruleset) for meld in melds) < ruleset.opening_minimum
        and not ruleset.hand_needs_51
    ):
        whole = tuple(best_partition(hand, ruleset))
        if whole and _cards_in(whole) == len(hand) - keep:
            return whole
    return melds


def _opening_refusal(deal: Deal, seat: int, melds: Sequence[Meld]) -> str | None:
    """Why the engine would not take ``melds`` as ``seat``'s opening now (its code)."""
    try:
        deal.check_opening(seat, melds)
    except IllegalAction as refused:
        return refused.code
    return None


@lru_cache(maxsize=1024)
def _partition(hand: tuple[Card, ...], ruleset: Ruleset, keep: int) -> tuple[Meld, ...]:
    """The melds leaving the least penalty in ``hand``, keeping ``keep`` (0 or 1) cards."""
    melds = tuple(best_partition(hand, ruleset))
    if _cards_in(melds) <= len(hand) - keep:
        return melds
    # Every way of keeping a card c is a partition of the hand without c.
    options = []
    for card in dict.fromkeys(hand):
        rest = list(hand)
        rest.remove(card)
        options.append(tuple(best_partition(rest, ruleset)))
    return min(options, key=lambda option: _left_penalty(hand, option, ruleset))


def _left_penalty(hand: Sequence[Card], melds: Sequence[Meld], ruleset: Ruleset) -> tuple[int, int]:
    value = sum(meld_value(meld, ruleset) for meld in melds)
    return hand_penalty(remaining_cards(hand, melds), ruleset), -value


# Penalty shed, the lay-offs in order, the cards left.
_Plan: TypeAlias = tuple[int, tuple[LayOff, ...], tuple[Card, ...]]


def _best_lay_offs(
    table: tuple[Meld, ...], cards: tuple[Card, ...], keep: int, ruleset: Ruleset
) -> _Plan:
    """The lay-offs of ``cards`` onto ``table`` that shed the most penalty, keeping
    ``keep`` cards: (penalty shed, the lay-offs in order, the cards left).

    Exhaustive over orders (a card laid off can make room for the next: 8H then 9H on
    5H 6H 7H), memoised on the table and the cards left; on equal penalty the fewest
    lay-offs win.
    """
    memo: dict[tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]], _Plan] = {}

    def search(melds: tuple[Meld, ...], left: tuple[Card, ...]) -> _Plan:
        key = (tuple(meld.cards for meld in melds), left)
        known = memo.get(key)
        if known is not None:
            return known
        best: _Plan = (0, (), left)
        if len(left) > keep:
            for index, meld in enumerate(melds):
                for card, end in dict.fromkeys(lay_off_options(meld, ruleset)):
                    if card not in left:
                        continue
                    grown, where = lay_off(meld, card, end, ruleset)
                    rest = list(left)
                    rest.remove(card)
                    shed, after, final = search(
                        (*melds[:index], grown, *melds[index + 1 :]), tuple(rest)
                    )
                    shed += card_penalty(card, ruleset)
                    if shed > best[0] or (shed == best[0] and len(after) + 1 < len(best[1])):
                        best = (shed, (LayOff(card, index, where), *after), final)
        memo[key] = best
        return best

    return search(table, cards)
