"""The deal state machine: one deal of Remi from the shuffle to its result.

A ``Deal`` is immutable: ``deal.apply(action)`` returns the next deal and
leaves ``deal`` as it was, so positions can be kept, compared, replayed and
searched. Only the containers an action changes are copied; the rest is
shared between a deal and its successors.

Every physical card has an integer id, stable for the whole deal, so that
twins can be told apart in the log. ``Deal.new`` numbers the cards with a
random permutation drawn after the shuffle, so an id reveals neither the
card nor its deck position. Actions name cards by value; the first matching
card of the zone moves (a card taken from the discard and given back is
that same card).

Nothing here is for a client's eyes: ``deal.view(seat)`` is the only way
state leaves the server.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from .actions import (
    Action,
    Discard,
    DrawStock,
    End,
    IllegalAction,
    LayDown,
    LayOff,
    SwapJoker,
    TakeDiscard,
    UndoTake,
)
from .cards import JOKER, Card, full_pack
from .events import Event
from .melds import IllegalMeld, Meld, arrange_meld, check_meld, meld_as_laid
from .moves import legal_actions
from .rulesets import DiscardTake, Ruleset
from .scoring import DealResult, classify_finish, score_deal, void_result
from .table import TableMeld, lay_off, swap_joker
from .values import meld_value
from .view import SeatView, seat_view

__all__ = ["Deal"]


class _Turn(NamedTuple):
    """What the player to move has done so far this turn."""

    drawn: bool
    opened_before: bool  # opened in an earlier turn: going out now is no "hand"
    taken: int | None = None  # the id of the discard taken this turn
    acted: bool = False  # laid down, laid off or swapped (undo is no longer possible)
    touched_others: bool = False  # laid off onto or swapped from another seat's meld


@dataclass(frozen=True, slots=True)
class _Setup:
    """How the deal was dealt: server-only, fixed for the whole deal."""

    dealer: int
    deck: tuple[Card, ...]  # dealing order
    card_ids: tuple[int, ...]  # the id of the card at each deck position
    reshuffle_seeds: tuple[int, ...]
    card_of: tuple[Card, ...]  # id -> card
    # The deck as a snapshot writes it, made once for the deal (every move's snapshot
    # writes the whole deck: a hundred ``str`` calls).
    deck_text: tuple[str, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "deck_text", tuple(map(str, self.deck)))


def _replaced(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])


class Deal:
    """One deal. Build it with ``new``, ``from_deck``, ``from_position`` or ``from_dict``."""

    __slots__ = (
        "_discard",
        "_had_turn",
        "_hands",
        "_last_event",
        "_legal",
        "_opened",
        "_reshuffles",
        "_result",
        "_setup",
        "_stock",
        "_table",
        "_to_move",
        "_turn",
        "ruleset",
    )

    ruleset: Ruleset
    _setup: _Setup
    _hands: tuple[tuple[int, ...], ...]
    # The legal actions, worked out once: a deal is a value, so they never change.
    _legal: tuple[Action, ...] | None
    _stock: tuple[int, ...]  # top first
    _discard: tuple[int, ...]  # bottom first
    _table: tuple[TableMeld, ...]
    _opened: tuple[bool, ...]
    _had_turn: tuple[bool, ...]
    _to_move: int
    _turn: _Turn
    _reshuffles: int
    _result: DealResult | None
    _last_event: Event | None

    # ------------------------------------------------------------ building

    @classmethod
    def new(cls, ruleset: Ruleset, num_players: int, *, dealer: int, rng: random.Random) -> Deal:
        """Shuffle a pack with ``rng`` and deal it (the platform passes ``SystemRandom``)."""
        deck = full_pack(ruleset.jokers)
        rng.shuffle(deck)
        card_ids = list(range(len(deck)))
        rng.shuffle(card_ids)  # after the shuffle: ids say nothing about deck positions
        seeds = [rng.getrandbits(64) for _ in range(ruleset.max_reshuffles)]
        return cls.from_deck(
            ruleset,
            num_players,
            dealer=dealer,
            deck=deck,
            card_ids=card_ids,
            reshuffle_seeds=seeds,
        )

    @classmethod
    def from_deck(
        cls,
        ruleset: Ruleset,
        num_players: int,
        *,
        dealer: int,
        deck: Sequence[Card],
        card_ids: Sequence[int] | None = None,
        reshuffle_seeds: Sequence[int] = (),
    ) -> Deal:
        """Deal ``deck`` (top card first) exactly as given: replay = this + the move log.

        Cards go one at a time round the table from the starter (the seat
        after the dealer), who is dealt an extra card where the ruleset says
        so; then the upcard, if any; the rest is the stock. ``card_ids[i]``
        is the id of ``deck[i]`` (default: the position). The stock is
        reshuffled with ``random.Random(reshuffle_seeds[k])`` the k-th time
        it runs out.
        """
        _check_players(ruleset, num_players)
        if not 0 <= dealer < num_players:
            raise ValueError(f"dealer must be a seat from 0 to {num_players - 1}")
        deck = tuple(deck)
        if sorted(deck) != sorted(full_pack(ruleset.jokers)):
            raise ValueError(f"the deck must be the full {ruleset.name} pack, each card once")
        ids = tuple(range(len(deck))) if card_ids is None else tuple(card_ids)
        if sorted(ids) != list(range(len(deck))):
            raise ValueError("card_ids must number the deck's cards 0..n-1, each once")
        seeds = _checked_seeds(ruleset, reshuffle_seeds)
        card_of = [JOKER] * len(deck)
        for card_id, card in zip(ids, deck, strict=True):
            card_of[card_id] = card
        starter = (dealer + 1) % num_players
        hands: list[list[int]] = [[] for _ in range(num_players)]
        order = [(starter + k) % num_players for k in range(num_players)]
        position = 0
        extra = [starter] if ruleset.starter_extra_card else []
        for seat in order * ruleset.hand_size + extra:
            hands[seat].append(ids[position])
            position += 1
        upcards = ids[position : position + 1] if ruleset.upcard else ()
        position += len(upcards)
        setup = _Setup(dealer, deck, ids, seeds, tuple(card_of))
        return cls._make(
            ruleset,
            setup,
            hands=tuple(tuple(hand) for hand in hands),
            stock=ids[position:],
            discard=upcards,
            table=(),
            opened=(False,) * num_players,
            had_turn=(False,) * num_players,
            to_move=starter,
            turn=_Turn(drawn=ruleset.starter_extra_card, opened_before=False),
        )

    @classmethod
    def from_position(
        cls,
        ruleset: Ruleset,
        *,
        hands: Sequence[Iterable[Card]],
        stock: Iterable[Card],
        discard: Iterable[Card] = (),
        table: Iterable[tuple[int, Iterable[Card]]] = (),
        opened: Iterable[int] = (),
        to_move: int = 0,
        drawn: bool = False,
        first_round: bool = False,
        dealer: int | None = None,
        reshuffle_seeds: Sequence[int] | None = None,
    ) -> Deal:
        """Any position, for tests, puzzles and analysis.

        ``stock`` is top first, ``discard`` bottom first (its last card is
        the top), ``table`` holds ``(owner, cards)`` melds in laid-out order.
        ``opened`` lists seats that opened in an earlier turn (owners of
        table melds count as opened); ``drawn`` says the player to move has
        drawn; ``first_round`` that the player to move has not had a turn
        yet (every other seat has). Card ids follow the order given: hands
        by seat, the stock, the discard pile, the table. Bad input raises
        ``ValueError`` saying what is wrong.
        """
        hand_cards = [tuple(hand) for hand in hands]
        num_players = len(hand_cards)
        _check_hands(ruleset, hand_cards, to_move)
        melds = [
            _table_meld(index, owner, cards, ruleset, num_players)
            for index, (owner, cards) in enumerate(table)
        ]
        stock_cards, discard_cards = tuple(stock), tuple(discard)
        if not drawn and not stock_cards:
            raise ValueError("the stock is empty but the player to move has not drawn")
        laid = [card for _, meld in melds for card in meld.cards]
        every_card = [card for hand in hand_cards for card in hand]
        every_card += [*stock_cards, *discard_cards, *laid]
        _check_pack_counts(every_card, ruleset)
        opened_seats = set(opened) | {owner for owner, _ in melds}
        if not opened_seats <= set(range(num_players)):
            raise ValueError(f"opened seats must be from 0 to {num_players - 1}")
        opened_flags = tuple(seat in opened_seats for seat in range(num_players))
        seeds = _checked_seeds(
            ruleset, range(ruleset.max_reshuffles) if reshuffle_seeds is None else reshuffle_seeds
        )
        dealer = (to_move - 1) % num_players if dealer is None else dealer
        deck = tuple(every_card)
        setup = _Setup(dealer, deck, tuple(range(len(deck))), seeds, deck)
        ids = iter(range(len(deck)))
        return cls._make(
            ruleset,
            setup,
            hands=tuple(tuple(next(ids) for _ in hand) for hand in hand_cards),
            stock=tuple(next(ids) for _ in stock_cards),
            discard=tuple(next(ids) for _ in discard_cards),
            table=tuple(
                TableMeld(owner, meld, tuple(next(ids) for _ in meld.cards))
                for owner, meld in melds
            ),
            opened=opened_flags,
            had_turn=tuple(not (first_round and seat == to_move) for seat in range(num_players)),
            to_move=to_move,
            turn=_Turn(drawn=drawn, opened_before=opened_flags[to_move]),
        )

    @classmethod
    def _make(
        cls,
        ruleset: Ruleset,
        setup: _Setup,
        *,
        hands: tuple[tuple[int, ...], ...],
        stock: tuple[int, ...],
        discard: tuple[int, ...],
        table: tuple[TableMeld, ...],
        opened: tuple[bool, ...],
        had_turn: tuple[bool, ...],
        to_move: int,
        turn: _Turn,
        reshuffles: int = 0,
        result: DealResult | None = None,
        last_event: Event | None = None,
    ) -> Deal:
        deal = object.__new__(cls)
        deal.ruleset = ruleset
        deal._setup = setup
        deal._hands = hands
        deal._stock = stock
        deal._discard = discard
        deal._table = table
        deal._opened = opened
        deal._had_turn = had_turn
        deal._to_move = to_move
        deal._turn = turn
        deal._reshuffles = reshuffles
        deal._result = result
        deal._last_event = last_event
        deal._legal = None
        return deal

    def _copy(self) -> Deal:
        # A shallow copy is enough: every field is an immutable value.
        deal = object.__new__(Deal)
        for name in Deal.__slots__:
            setattr(deal, name, getattr(self, name))
        deal._legal = None  # the copy is about to become another position
        return deal

    # ------------------------------------------------------------ reading

    @property
    def num_players(self) -> int:
        return len(self._hands)

    @property
    def dealer(self) -> int:
        return self._setup.dealer

    @property
    def to_move(self) -> int:
        return self._to_move

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(self.hand(seat) for seat in range(len(self._hands)))

    def hand(self, seat: int) -> tuple[Card, ...]:
        card_of = self._setup.card_of
        return tuple(card_of[card_id] for card_id in self._hands[seat])

    def hand_ids(self, seat: int) -> tuple[int, ...]:
        return self._hands[seat]

    def card(self, card_id: int) -> Card:
        """The card with this physical id."""
        return self._setup.card_of[card_id]

    @property
    def table(self) -> tuple[TableMeld, ...]:
        return self._table

    @property
    def stock_count(self) -> int:
        return len(self._stock)

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """Bottom first; the last card is the top."""
        return tuple(self._setup.card_of[card_id] for card_id in self._discard)

    @property
    def discard_ids(self) -> tuple[int, ...]:
        return self._discard

    @property
    def discard_top(self) -> Card | None:
        return self._setup.card_of[self._discard[-1]] if self._discard else None

    @property
    def opened(self) -> frozenset[int]:
        """Seats that have opened in this deal."""
        return frozenset(seat for seat, done in enumerate(self._opened) if done)

    def has_opened(self, seat: int) -> bool:
        return self._opened[seat]

    @property
    def drawn(self) -> bool:
        """The player to move has drawn (or, as the starter, was dealt the extra card)."""
        return self._turn.drawn

    @property
    def first_round(self) -> bool:
        """The player to move is in their first turn of the deal."""
        return not self._had_turn[self._to_move]

    @property
    def taken_card(self) -> tuple[int, Card] | None:
        """The discard the player to move took this turn, as ``(id, card)``."""
        taken = self._turn.taken
        return None if taken is None else (taken, self._setup.card_of[taken])

    @property
    def must_return(self) -> Card | None:
        """The card the player to move must discard back unless they open (serbian)."""
        card_id = self._obligation()
        return None if card_id is None else self._setup.card_of[card_id]

    @property
    def may_take_discard(self) -> bool:
        """The player to move may take the top discard now."""
        if self._result is not None or self._turn.drawn or not self._discard:
            return False
        return self._may_take_unopened()

    def _may_take_unopened(self) -> bool:
        opened_only = self.ruleset.discard_take is DiscardTake.OPENED_ONLY
        return not opened_only or self._opened[self._to_move]

    @property
    def may_undo(self) -> bool:
        turn = self._turn
        if self._result is not None or not self.ruleset.discard_take_undo:
            return False
        return turn.taken is not None and not turn.acted

    @property
    def reshuffles(self) -> int:
        return self._reshuffles

    @property
    def is_over(self) -> bool:
        return self._result is not None

    def result(self) -> DealResult | None:
        """The result once the deal is over, else None."""
        return self._result

    @property
    def last_event(self) -> Event | None:
        """The last action applied, with its public and private forms."""
        return self._last_event

    @property
    def deck(self) -> tuple[Card, ...]:
        """The dealing order. Server-only: never show it to anyone."""
        return self._setup.deck

    @property
    def card_ids(self) -> tuple[int, ...]:
        """The id of each deck position. Server-only."""
        return self._setup.card_ids

    @property
    def reshuffle_seeds(self) -> tuple[int, ...]:
        """Seeds of the stock reshuffles. Server-only."""
        return self._setup.reshuffle_seeds

    def legal_actions(self) -> list[Action]:
        """Every distinct action the player to move may take now (see ``moves``)."""
        if self._legal is None:
            self._legal = tuple(legal_actions(self))
        return list(self._legal)

    def is_legal(self, action: Action) -> bool:
        try:
            self.apply(action)
        except IllegalAction:
            return False
        return True

    def check_opening(self, seat: int, melds: Sequence[Meld]) -> int:
        """What laying ``melds`` down as ``seat``'s opening is worth, or ``IllegalAction``
        saying why that lay-down would not be an opening (docs/rules.md §4).

        The checks a lay-down makes before the seat has opened, asked ahead (for a
        client's staging row): ``already_opened``, ``no_opening_in_first_round``,
        ``last_card``, ``opening_too_low`` (with the total and the minimum; a lay-down of
        all but one card needs none where ``hand_needs_51`` is off). ``melds`` are
        checked ones (``arrange_meld``) of cards the seat holds. Whose turn it is is not
        checked: a seat that has still to draw is counted with the card it will draw.
        """
        if self._opened[seat]:
            raise IllegalAction(
                "already_opened", "you have opened already: melds need no minimum now"
            )
        if self.ruleset.no_opening_in_first_round and not self._had_turn[seat]:
            raise _first_round_ban()
        cards_left = len(self._hands[seat]) - sum(len(meld.cards) for meld in melds)
        if seat != self._to_move or not self._turn.drawn:
            cards_left += 1
        if cards_left < 1:
            raise _last_card()
        return self._check_opening(melds, cards_left=cards_left)

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may see; ``None`` gives the spectator view (no hand)."""
        return seat_view(self, seat)

    def __repr__(self) -> str:
        state = "over" if self._result else ("play" if self._turn.drawn else "draw")
        return (
            f"<Deal {self.ruleset.name} {self.num_players}p to_move={self._to_move} {state} "
            f"stock={len(self._stock)} discard={len(self._discard)} table={len(self._table)}>"
        )

    # ------------------------------------------------------------ acting

    def apply(self, action: Action) -> Deal:
        """The deal after the player to move takes ``action``; ``self`` is unchanged.

        Raises ``IllegalAction`` (a ``ValueError`` with a stable ``.code``) if
        the rules do not allow it now.
        """
        if self._result is not None:
            raise IllegalAction("deal_over", "the deal is over")
        match action:
            case DrawStock():
                return self._draw_stock(action)
            case TakeDiscard():
                return self._take_discard(action)
            case UndoTake():
                return self._undo_take(action)
            case LayDown():
                return self._lay_down(action)
            case LayOff():
                return self._lay_off(action)
            case SwapJoker():
                return self._swap_joker(action)
            case Discard():
                return self._discard_card(action)
        raise IllegalAction(
            "bad_action", f"not an action: {action!r}", {"action": repr(action)}, variant="unknown"
        )

    def _draw_stock(self, action: DrawStock) -> Deal:
        self._require_not_drawn()
        self._require_stock()
        seat = self._to_move
        card_id = self._stock[0]
        new = self._copy()
        new._stock = self._stock[1:]
        new._hands = _replaced(self._hands, seat, (*self._hands[seat], card_id))
        new._turn = self._turn._replace(drawn=True)
        new._record(seat, action, (card_id,))
        return new

    def _take_discard(self, action: TakeDiscard) -> Deal:
        self._require_not_drawn()
        if not self._discard:
            raise IllegalAction("discard_empty", "the discard pile is empty")
        if not self._may_take_unopened():
            raise IllegalAction(
                "cannot_take_discard_unopened", "only a player who has opened may take the discard"
            )
        seat = self._to_move
        card_id = self._discard[-1]
        new = self._copy()
        new._discard = self._discard[:-1]
        new._hands = _replaced(self._hands, seat, (*self._hands[seat], card_id))
        new._turn = self._turn._replace(drawn=True, taken=card_id)
        new._record(seat, action, (card_id,))
        return new

    def _undo_take(self, action: UndoTake) -> Deal:
        if not self.ruleset.discard_take_undo:
            raise IllegalAction(
                "undo_not_allowed",
                f"{self.ruleset.name} has no undo of a take",
                {"ruleset": self.ruleset.name},
            )
        taken = self._turn.taken
        if taken is None:
            raise IllegalAction("nothing_to_undo", "you did not take the discard this turn")
        if self._turn.acted:
            raise IllegalAction(
                "undo_too_late", "a take can be undone only before you meld, lay off or swap"
            )
        self._require_stock()
        seat = self._to_move
        drawn = self._stock[0]
        new = self._copy()
        new._discard = (*self._discard, taken)
        new._stock = self._stock[1:]
        hand = tuple(card_id for card_id in self._hands[seat] if card_id != taken)
        new._hands = _replaced(self._hands, seat, (*hand, drawn))
        new._turn = self._turn._replace(taken=None)
        new._record(seat, action, (taken, drawn))
        return new

    def _lay_down(self, action: LayDown) -> Deal:
        self._require_drawn()
        if not action.melds:
            raise IllegalAction("nothing_to_lay", "name at least one meld to lay down")
        seat = self._to_move
        if self.ruleset.no_opening_in_first_round and not self._had_turn[seat]:
            raise _first_round_ban()
        melds = [self._check_meld(cards) for cards in action.melds]
        picked, rest = self._pick([card for meld in melds for card in meld.cards])
        if not rest:
            raise _last_card()
        if not self._opened[seat]:
            self._check_opening(melds, cards_left=len(rest))
        laid = []
        start = 0
        for meld in melds:
            laid.append(TableMeld(seat, meld, picked[start : start + len(meld.cards)]))
            start += len(meld.cards)
        new = self._copy()
        new._hands = _replaced(self._hands, seat, rest)
        new._table = (*self._table, *laid)
        if not self._opened[seat]:
            new._opened = _replaced(self._opened, seat, True)
        new._turn = self._turn._replace(acted=True)
        new._record(seat, action, picked, meld_index=len(self._table))
        return new

    def _check_meld(self, cards: Sequence[Card]) -> Meld:
        try:
            return arrange_meld(cards, self.ruleset, laid_down=True)
        except IllegalMeld as error:
            raise IllegalAction(
                error.code, str(error), error.params, variant=error.variant
            ) from None

    def _check_opening(self, melds: Sequence[Meld], *, cards_left: int) -> int:
        ruleset = self.ruleset
        total = sum(meld_value(meld, ruleset) for meld in melds)
        if total >= ruleset.opening_minimum:
            return total
        if not ruleset.hand_needs_51 and cards_left == 1:
            return total  # "old remi": a hand needs no minimum
        hint = "" if ruleset.hand_needs_51 else " (or lay down all but one card at once)"
        raise IllegalAction(
            "opening_too_low",
            f"these melds are worth {total}; opening needs {ruleset.opening_minimum}{hint}",
            {"total": total, "minimum": ruleset.opening_minimum},
            variant="" if ruleset.hand_needs_51 else "or_all_but_one",
        )

    def _lay_off(self, action: LayOff) -> Deal:
        self._require_drawn()
        self._require_opened("lay off")
        seat = self._to_move
        target = self._meld_at(action.meld_index)
        picked, rest = self._pick([action.card])
        meld, end = lay_off(target.meld, action.card, action.end, self.ruleset)
        if not rest:
            raise _last_card()
        ids = (*picked, *target.ids) if end == "low" else (*target.ids, *picked)
        new = self._copy()
        new._hands = _replaced(self._hands, seat, rest)
        new._table = _replaced(self._table, action.meld_index, TableMeld(target.owner, meld, ids))
        new._turn = self._turn_after_touching(target)
        new._record(seat, action, picked, meld_index=action.meld_index, end=end)
        return new

    def _swap_joker(self, action: SwapJoker) -> Deal:
        self._require_drawn()
        self._require_opened("swap a joker")
        seat = self._to_move
        target = self._meld_at(action.meld_index)
        if not action.cards:
            raise IllegalAction("does_not_fit", "name what you give for the joker")
        picked, rest = self._pick(action.cards)
        meld, index = swap_joker(target.meld, action.cards, self.ruleset)
        joker = target.ids[index]
        ids = (*_replaced(target.ids, index, picked[0]), *picked[1:])
        new = self._copy()
        new._hands = _replaced(self._hands, seat, (*rest, joker))
        new._table = _replaced(self._table, action.meld_index, TableMeld(target.owner, meld, ids))
        new._turn = self._turn_after_touching(target)
        new._record(seat, action, (*picked, joker), meld_index=action.meld_index)
        return new

    def _turn_after_touching(self, target: TableMeld) -> _Turn:
        touched = self._turn.touched_others or target.owner != self._to_move
        return self._turn._replace(acted=True, touched_others=touched)

    def _discard_card(self, action: Discard) -> Deal:
        self._require_drawn()
        seat = self._to_move
        owed = self._obligation()
        if owed is None:
            picked, rest = self._pick([action.card])
        elif self._setup.card_of[owed] is action.card:
            picked, rest = (owed,), tuple(i for i in self._hands[seat] if i != owed)
        else:
            raise IllegalAction(
                "must_return_taken_card",
                f"you took {self._setup.card_of[owed]} without opening: "
                "open now, or discard that card back",
                {"card": str(self._setup.card_of[owed])},
            )
        new = self._copy()
        new._hands = _replaced(self._hands, seat, rest)
        new._discard = (*self._discard, *picked)
        new._had_turn = (
            self._had_turn if self._had_turn[seat] else _replaced(self._had_turn, seat, True)
        )
        reshuffled = False
        if rest:
            reshuffled = new._pass_turn()
        else:
            new._go_out(seat, action.card)
        new._record(seat, action, picked, reshuffled=reshuffled)
        return new

    def _go_out(self, seat: int, last_card: Card) -> None:
        finish = classify_finish(
            self.ruleset,
            was_hand=not self._turn.opened_before,
            touched_others=self._turn.touched_others,
            last_card=last_card,
        )
        self._result = score_deal(
            self.ruleset, winner=seat, finish=finish, hands=self.hands, opened=self._opened
        )

    def _pass_turn(self) -> bool:
        """Hand the turn on; refill an empty stock or end the deal void. True if reshuffled."""
        following = (self._to_move + 1) % len(self._hands)
        self._to_move = following
        self._turn = _Turn(drawn=False, opened_before=self._opened[following])
        if self._stock:
            return False
        if self._reshuffles < self.ruleset.max_reshuffles and len(self._discard) > 1:
            pile = list(self._discard[:-1])
            random.Random(self._setup.reshuffle_seeds[self._reshuffles]).shuffle(pile)
            self._stock = tuple(pile)
            self._discard = self._discard[-1:]
            self._reshuffles += 1
            return True
        self._result = void_result(self.ruleset, self.hands)
        return False

    def _record(
        self,
        seat: int,
        action: Action,
        ids: Sequence[int],
        *,
        meld_index: int | None = None,
        end: End | None = None,
        reshuffled: bool = False,
    ) -> None:
        card_of = self._setup.card_of
        self._last_event = Event(
            seat,
            action,
            tuple((card_id, card_of[card_id]) for card_id in ids),
            meld_index=meld_index,
            end=end,
            reshuffled=reshuffled,
            stock_count=len(self._stock),
            result=self._result,
        )

    # ------------------------------------------------------------ checks

    def _require_not_drawn(self) -> None:
        if self._turn.drawn:
            raise IllegalAction("already_drew", "you have already drawn this turn")

    def _require_stock(self) -> None:
        # Never fires in a dealt game: an empty stock is refilled or ends the deal
        # as soon as the turn that emptied it ends.
        if not self._stock:
            raise IllegalAction("stock_empty", "the stock is empty")

    def _require_drawn(self) -> None:
        if not self._turn.drawn:
            raise IllegalAction("must_draw_first", "draw a card first (stock or discard pile)")

    def _require_opened(self, doing: str) -> None:
        if not self._opened[self._to_move]:
            raise IllegalAction(
                "not_opened",
                f"you must open (melds worth {self.ruleset.opening_minimum}) "
                f"before you can {doing}",
                {"minimum": self.ruleset.opening_minimum},
                variant=_NOT_OPENED_VARIANTS[doing],
            )

    def _meld_at(self, index: int) -> TableMeld:
        if not 0 <= index < len(self._table):
            raise IllegalAction(
                "no_such_meld", f"there is no meld {index} on the table", {"index": index}
            )
        return self._table[index]

    def _obligation(self) -> int | None:
        """The id of a discard taken unopened under the serbian rule, while still owed."""
        taken = self._turn.taken
        if (
            taken is None
            or self._opened[self._to_move]
            or self.ruleset.discard_take is not DiscardTake.ANYONE_MUST_OPEN
        ):
            return None
        return taken

    def _pick(self, cards: Sequence[Card]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The ids of ``cards`` in the mover's hand (first match each) and the ids left."""
        card_of = self._setup.card_of
        rest = list(self._hands[self._to_move])
        picked = []
        for card in cards:
            for position, card_id in enumerate(rest):
                if card_of[card_id] is card:
                    picked.append(card_id)
                    del rest[position]
                    break
            else:
                raise self._not_in_hand(card, cards)
        return tuple(picked), tuple(rest)

    def _not_in_hand(self, card: Card, wanted: Sequence[Card]) -> IllegalAction:
        held = sum(
            1 for card_id in self._hands[self._to_move] if self._setup.card_of[card_id] is card
        )
        if held == 0:
            return IllegalAction(
                "card_not_in_hand", f"you have no {card} in your hand", {"card": str(card)}
            )
        named = sum(1 for c in wanted if c is card)
        return IllegalAction(
            "card_not_in_hand",
            f"you hold {held} {card} but named it {named} {'time' if named == 1 else 'times'}",
            {"card": str(card), "held": held, "named": named},
            variant="named_too_often",
        )

    # ------------------------------------------------------------ snapshots

    def to_dict(self, *, with_ruleset: bool = True) -> dict[str, Any]:
        """The full server-side state (deck and seeds included), JSON-safe.

        ``with_ruleset=False`` leaves the ruleset out, for a store that keeps it once
        per match rather than in every snapshot; ``from_dict`` is then given it.
        """
        turn = self._turn
        ruleset = {"ruleset": self.ruleset.to_dict()} if with_ruleset else {}
        return {
            **ruleset,
            "dealer": self._setup.dealer,
            "deck": list(self._setup.deck_text),
            "card_ids": list(self._setup.card_ids),
            "reshuffle_seeds": list(self._setup.reshuffle_seeds),
            "hands": [list(hand) for hand in self._hands],
            "stock": list(self._stock),
            "discard": list(self._discard),
            "table": [{"owner": meld.owner, "ids": list(meld.ids)} for meld in self._table],
            "opened": list(self._opened),
            "had_turn": list(self._had_turn),
            "to_move": self._to_move,
            "turn": turn._asdict(),
            "reshuffles": self._reshuffles,
            "result": None if self._result is None else self._result.to_dict(),
            "last_event": None if self._last_event is None else self._last_event.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, ruleset: Ruleset | None = None) -> Deal:
        """Inverse of ``to_dict`` (a snapshot); raises ``ValueError`` on bad data.

        ``ruleset`` is the deal's ruleset, for a snapshot taken without it
        (``to_dict(with_ruleset=False)``).
        """
        try:
            if ruleset is None:
                ruleset = Ruleset.from_dict(data["ruleset"])
            return cls._from_dict(data, ruleset)
        except (KeyError, TypeError, IndexError, IllegalMeld) as error:
            raise ValueError(f"not a deal snapshot: {error!r}") from None

    @classmethod
    def _from_dict(cls, data: Mapping[str, Any], ruleset: Ruleset) -> Deal:
        deck = tuple(map(Card.parse, data["deck"]))
        ids = tuple(map(int, data["card_ids"]))
        card_of = [JOKER] * len(deck)
        for card_id, card in zip(ids, deck, strict=True):
            card_of[card_id] = card
        setup = _Setup(
            int(data["dealer"]), deck, ids, tuple(data["reshuffle_seeds"]), tuple(card_of)
        )
        table = tuple(
            _table_meld_from_ids(entry["owner"], tuple(entry["ids"]), setup.card_of, ruleset)
            for entry in data["table"]
        )
        hands = tuple(tuple(hand) for hand in data["hands"])
        zones = [*(i for hand in hands for i in hand), *data["stock"], *data["discard"]]
        zones += [i for meld in table for i in meld.ids]
        if sorted(zones) != list(range(len(deck))):
            raise ValueError("the snapshot's zones do not hold each card exactly once")
        result = None if data["result"] is None else DealResult.from_dict(data["result"])
        event = data["last_event"]
        return cls._make(
            ruleset,
            setup,
            hands=hands,
            stock=tuple(data["stock"]),
            discard=tuple(data["discard"]),
            table=table,
            opened=tuple(bool(flag) for flag in data["opened"]),
            had_turn=tuple(bool(flag) for flag in data["had_turn"]),
            to_move=int(data["to_move"]),
            turn=_Turn(**data["turn"]),
            reshuffles=int(data["reshuffles"]),
            result=result,
            last_event=None if event is None else Event.from_dict(event, setup.card_of, result),
        )


# Which message of ``not_opened`` is meant, named for the interfaces that say it in other words.
_NOT_OPENED_VARIANTS: Final[dict[str, str]] = {"lay off": "lay_off", "swap a joker": "swap_joker"}


def _first_round_ban() -> IllegalAction:
    return IllegalAction(
        "no_opening_in_first_round", "nobody may lay down in their first turn of the deal"
    )


def _last_card() -> IllegalAction:
    return IllegalAction(
        "last_card", "a turn ends with a discard: you cannot meld or lay off your last card"
    )


def _check_players(ruleset: Ruleset, num_players: int) -> None:
    if not ruleset.min_players <= num_players <= ruleset.max_players:
        raise ValueError(
            f"{ruleset.name} is played by {ruleset.min_players} to {ruleset.max_players} players"
        )


def _check_hands(ruleset: Ruleset, hands: list[tuple[Card, ...]], to_move: int) -> None:
    _check_players(ruleset, len(hands))
    if not 0 <= to_move < len(hands):
        raise ValueError(f"to_move must be a seat from 0 to {len(hands) - 1}")
    for seat, hand in enumerate(hands):
        if not hand:
            raise ValueError(f"seat {seat} has no cards")


def _checked_seeds(ruleset: Ruleset, seeds: Iterable[int]) -> tuple[int, ...]:
    seeds = tuple(seeds)
    if len(seeds) < ruleset.max_reshuffles:
        raise ValueError(f"{ruleset.name} needs {ruleset.max_reshuffles} reshuffle seeds")
    return seeds


def _check_pack_counts(cards: Iterable[Card], ruleset: Ruleset) -> None:
    pack = Counter(full_pack(ruleset.jokers))
    for card, count in Counter(cards).items():
        if count > pack[card]:
            raise ValueError(f"{card} appears {count} times; the pack has {pack[card]}")


def _table_meld(
    index: int, owner: int, cards: Iterable[Card], ruleset: Ruleset, num_players: int
) -> tuple[int, Meld]:
    if not 0 <= owner < num_players:
        raise ValueError(f"table meld {index}: owner must be a seat from 0 to {num_players - 1}")
    laid = tuple(cards)
    try:
        meld = check_meld(laid, ruleset, laid_down=False)
    except IllegalMeld as error:
        raise ValueError(f"table meld {index} is not a meld: {error}") from None
    try:
        return owner, meld_as_laid(laid, ruleset)  # the order given, where it is a layout
    except IllegalMeld:
        return owner, meld


def _table_meld_from_ids(
    owner: int, ids: tuple[int, ...], card_of: tuple[Card, ...], ruleset: Ruleset
) -> TableMeld:
    cards = tuple(card_of[card_id] for card_id in ids)
    # The stored order is the table's: ``ids`` pair with the cards position by position.
    return TableMeld(owner, meld_as_laid(cards, ruleset), ids)
