"""A deal's turns judged by the exact solver (``games.review.analysis``), on the engine
alone: an opening not made, a larger lay-down, a discard that fed the next player, a
turn as good as the solver's, and the budget that leaves turns unexamined."""

from __future__ import annotations

import time

from games.engine import PRESETS, Card, IllegalAction, parse_cards
from games.engine import Deal as EngineDeal
from games.engine.actions import Discard, DrawStock, LayDown, TakeDiscard
from games.review.analysis import Played, review_deal
from tests.gamekit import QUICK_HAND, QUICK_MELDS, deck_with_starter_hand

SERBIAN = PRESETS["serbian"]


def quick_deal(players: int = 2, seed: int = 0) -> EngineDeal:
    """A serbian deal whose starter (seat 1) holds ``QUICK_HAND``: two runs and 5D."""
    deck = deck_with_starter_hand(SERBIAN, players, 0, parse_cards(QUICK_HAND), seed=seed)
    return EngineDeal.from_deck(
        SERBIAN, players, dealer=0, deck=deck, reshuffle_seeds=range(SERBIAN.max_reshuffles)
    )


def played(deal: EngineDeal, actions: list[object]) -> list[Played]:
    out = []
    for ply, action in enumerate(actions, start=1):
        out.append(Played(ply, deal.to_move, action))  # type: ignore[arg-type]
        deal = deal.apply(action)  # type: ignore[arg-type]
    return out


def test_an_opening_the_player_could_have_made_is_shown_with_the_points_it_saves() -> None:
    deal = quick_deal()
    assert deal.to_move == 1 and deal.drawn  # the starter's 15th card: no draw
    throw = Discard(Card.parse("AS"))

    review = review_deal(deal, played(deal, [throw]))

    turn = review.turns[0]
    assert turn.seat == 1 and turn.examined
    assert turn.better is not None and turn.better["kind"] == "opening"
    assert turn.better["saved"] == turn.left_penalty - turn.better["left_penalty"] > 0
    laid = {card for meld in turn.better["melds"] for card in meld}
    assert laid <= set(QUICK_HAND.split())


def test_a_turn_as_good_as_the_solvers_says_nothing_better() -> None:
    deal = quick_deal()
    melds = [parse_cards(meld) for meld in QUICK_MELDS[1:]]
    # The heart run alone (an opening) leaves the spades in hand: the solver lays both.
    smaller = [LayDown(melds), Discard(Card.parse("5D"))]
    review = review_deal(deal, played(deal, smaller))
    assert review.turns[0].better is not None
    assert review.turns[0].better["kind"] == "lay_down"

    whole = [LayDown(parse_cards(m) for m in QUICK_MELDS), Discard(Card.parse("5D"))]
    review = review_deal(deal, played(deal, whole))
    assert review.turns[0].better is None  # went out: nothing better


def feeding_discard() -> tuple[EngineDeal, Discard, LayDown]:
    """The first deal (by seed) where a card of the starter's, thrown, lets seat 0 take it
    and lay it at once: the deal, the discard and seat 0's lay-down."""
    for seed in range(50):
        deal = quick_deal(seed=seed)
        for card in dict.fromkeys(deal.hand(1)):
            throw = Discard(card)
            taken = deal.apply(throw).apply(TakeDiscard())
            for action in taken.legal_actions():
                if isinstance(action, LayDown) and card in action.cards:
                    try:
                        taken.apply(action)  # an opening must reach the minimum
                    except IllegalAction:
                        continue
                    return deal, throw, action
    raise AssertionError("no seed gives seat 0 a meld with a thrown card")


def test_a_discard_the_next_player_took_and_laid_is_a_fed_discard() -> None:
    deal, throw, lay = feeding_discard()
    after = deal.apply(throw).apply(TakeDiscard()).apply(lay)
    closing = next(a for a in after.legal_actions() if isinstance(a, Discard))

    review = review_deal(deal, played(deal, [throw, TakeDiscard(), lay, closing]))

    fed = review.turns[0].fed
    assert fed is not None and fed["card"] == str(throw.card) and fed["seat"] == 0
    assert fed["points"] > 0
    assert review.turns[1].fed is None  # nobody took seat 0's discard


def test_a_discard_nobody_took_fed_nobody() -> None:
    deal = quick_deal()
    review = review_deal(deal, played(deal, [Discard(Card.parse("5D")), DrawStock()]))
    assert review.turns[0].fed is None


def test_turns_after_the_deadline_are_left_unexamined() -> None:
    deal = quick_deal()
    review = review_deal(
        deal, played(deal, [Discard(Card.parse("AS"))]), deadline=time.monotonic() - 1
    )
    assert review.unexamined == 1
    assert not review.turns[0].examined and review.turns[0].better is None
