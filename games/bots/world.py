"""Worlds a bot imagines: full deals consistent with what its seat has seen.

A bot never holds the real deal. To ask the engine what is legal, or to
look ahead, it builds a ``Deal`` from its observation in which its own hand,
the table and the discard pile are the real ones and every card it cannot
see (the other hands, less the cards known to be in them, and the stock) is
dealt at random from the cards it has not seen. One such world is a
"determinisation"; the expert averages over many.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from games.engine import Card, Deal, TakeDiscard, full_pack, meld_value

from .base import Observation
from .planning import accepts, partition

__all__ = ["deal_hidden", "imagine", "known_in_hands", "laid_what_it_could", "unseen_cards"]


def known_in_hands(obs: Observation) -> list[list[Card]]:
    """Per seat, the cards known to be in its hand (own hand: all of it).

    Known opponent cards come from the memory (discards they took and still
    hold); any the visible cards contradict are dropped.
    """
    view = obs.view
    known: list[list[Card]] = [[] for _ in view.hand_counts]
    if view.hand is not None:
        known[obs.seat] = [card for _, card in view.hand]
    if obs.memory is None:
        return known
    left = _unplaced(obs, known)
    for seat in obs.memory.opponents():
        cards = obs.memory.known_cards(seat)[: view.hand_counts[seat]]
        for card in cards:
            if left[card] > 0:
                left[card] -= 1
                known[seat].append(card)
    return known


def unseen_cards(obs: Observation, known: list[list[Card]] | None = None) -> list[Card]:
    """The cards whose place this seat does not know (other hands and stock), sorted.

    Everything in the pack less the table, the discard pile and the known
    hand cards.
    """
    if known is None:
        known = known_in_hands(obs)
    return sorted(_unplaced(obs, known).elements())


def _unplaced(obs: Observation, known: list[list[Card]]) -> Counter[Card]:
    view = obs.view
    left = Counter(full_pack(obs.ruleset.jokers))
    seen: list[Card] = [card for _, card in view.discard]
    seen += [card for meld in view.table for card in meld.cards]
    seen += [card for hand in known for card in hand]
    left.subtract(seen)
    if any(count < 0 for count in left.values()):
        raise ValueError("the observation holds more copies of a card than the pack")
    return left


def imagine(
    obs: Observation,
    rng: random.Random,
    *,
    hands: list[list[Card]] | None = None,
    stock: list[Card] | None = None,
) -> Deal:
    """A deal consistent with ``obs``, at the point where the seat is to move.

    The hidden cards are dealt at random unless ``hands`` (every seat's full
    hand, the bot's own included) and ``stock`` (top first) are given. A take
    of the discard this turn is replayed so that the engine knows about it
    (the serbian obligation, undo). Raises ``ValueError`` if the view is not
    the seat's turn.
    """
    view = obs.view
    seat = obs.seat
    if view.to_move != seat or view.phase == "over":
        raise ValueError("a bot imagines the deal only when it is to move")
    if hands is None or stock is None:
        hands, stock = deal_hidden(obs, rng)
    discard = [card for _, card in view.discard]
    own = list(hands[seat])
    taken = view.taken
    drawn = view.phase == "play"
    if taken is not None and taken[1] not in own:
        taken = None  # already laid this turn: nothing is owed any more
    if taken is not None:
        # Rebuild the moment before the take, then take: the engine then knows
        # which card is owed back and that an undo is possible.
        own.remove(taken[1])
        discard.append(taken[1])
        drawn = False
    full_hands = [own if other == seat else list(hands[other]) for other in range(len(hands))]
    deal = Deal.from_position(
        obs.ruleset,
        hands=full_hands,
        stock=stock,
        discard=discard,
        table=[(meld.owner, meld.cards) for meld in view.table],
        opened=[other for other, done in enumerate(view.opened) if done],
        to_move=seat,
        drawn=drawn,
        first_round=view.first_round,
        dealer=view.dealer,
        reshuffle_seeds=[rng.getrandbits(64) for _ in range(obs.ruleset.max_reshuffles)],
    )
    if taken is not None:
        deal = deal.apply(TakeDiscard())
    return deal


def deal_hidden(
    obs: Observation,
    rng: random.Random,
    *,
    plausible: Callable[[int, list[Card]], bool] | None = None,
    tries: int = 20,
) -> tuple[list[list[Card]], list[Card]]:
    """Every seat's hand and the stock (top first), the unseen cards dealt at random.

    With ``plausible(seat, hand)``, each other hand is dealt again (up to
    ``tries`` times) until the predicate accepts it: a way to deal the
    hands the others' play makes likely (see ``laid_what_it_could``).
    """
    view = obs.view
    known = known_in_hands(obs)
    pool = unseen_cards(obs, known)
    rng.shuffle(pool)
    hands: list[list[Card]] = []
    for seat, count in enumerate(view.hand_counts):
        need = count - len(known[seat])
        hand = [*known[seat], *pool[:need]]
        if plausible is not None and seat != obs.seat and need > 0:
            for _ in range(tries):
                if plausible(seat, hand):
                    break
                rng.shuffle(pool)
                hand = [*known[seat], *pool[:need]]
        hands.append(hand)
        del pool[:need]
    if len(pool) < view.stock_count:
        raise ValueError("the observation does not add up to the pack")
    # More unseen cards than places only in made-up positions (a partial pack):
    # the ones left over are simply not in play.
    return hands, pool[: view.stock_count]


def laid_what_it_could(obs: Observation, *, leak: float = 0.1) -> Callable[[int, list[Card]], bool]:
    """A ``plausible`` test for players who lay down what they can, as most do.

    At the end of its turn such a player holds no meld and nothing that lays
    off onto the table if it has opened, and no opening if it has not (once
    it has had a turn). A hand that breaks this is still let through now and
    then (``leak``): some players hold back on purpose.
    """
    view = obs.view
    ruleset = obs.ruleset
    table = [meld.meld for meld in view.table]
    memory = obs.memory
    leaks = random.Random(len(view.discard) * 131 + view.stock_count)

    def plausible(seat: int, hand: list[Card]) -> bool:
        if leaks.random() < leak:
            return True
        melds = partition(hand, ruleset)
        if view.opened[seat]:
            if melds:
                return False
            return not any(card in accepts(meld, ruleset) for meld in table for card in hand)
        if memory is None or memory.records[seat].turns == 0:
            return True  # it has not had a turn (or we cannot tell)
        value = sum(meld_value(meld, ruleset) for meld in melds)
        return value < ruleset.opening_minimum

    return plausible
