"""Taking the discard (docs/rules.md §5), one test per row, plus the serbian undo."""

from __future__ import annotations

import pytest

from games.engine import Discard, UndoTake
from tests.engine.helpers import MACEDONIAN, POLISH51, SERBIAN, cards, play, position, refused

# Seat 0 cannot open with this hand: whatever it takes, it can only discard.
WEAK = "2C 5D 9S KH 4S"


def test_macedonian_only_an_opened_player_may_take_the_discard():
    unopened = position(MACEDONIAN, WEAK, "KS KD", stock="6D", discard="3H")
    error = refused(unopened, "take")
    assert error.code == "cannot_take_discard_unopened"
    assert str(error) == "only a player who has opened may take the discard"
    opened = position(MACEDONIAN, WEAK, "KS KD", stock="6D", discard="3H", opened=[0])
    assert play(opened, "take").hands[0][-1] is cards("3H")[0]


@pytest.mark.parametrize("ruleset", [SERBIAN, POLISH51])
def test_anyone_may_take_the_discard_in_serbian_and_polish(ruleset):
    deal = play(position(ruleset, WEAK, "KS KD", stock="6D", discard="AS 3H"), "take")
    assert deal.hands[0][-1] is cards("3H")[0]
    assert deal.discard_pile == tuple(cards("AS"))
    assert deal.taken_card == (deal.hand_ids(0)[-1], cards("3H")[0])


def test_serbian_unopened_player_must_return_taken_discard():
    deal = play(position(SERBIAN, WEAK, "KS KD", stock="6D", discard="3H"), "take")
    assert deal.must_return is cards("3H")[0]
    error = refused(deal, "discard 2C")
    assert error.code == "must_return_taken_card"
    assert "discard that card back" in str(error)
    assert [a for a in deal.legal_actions() if a.kind == "discard"] == [Discard(cards("3H")[0])]
    taken_id = deal.hand_ids(0)[-1]
    deal = play(deal, "discard 3H")
    assert deal.discard_ids == (taken_id,)
    assert deal.to_move == 1


def test_serbian_returned_card_is_the_physical_card_taken_not_its_twin():
    deal = play(position(SERBIAN, "3H " + WEAK, "KS KD", stock="6D", discard="3H"), "take")
    taken_id = deal.taken_card[0]
    deal = play(deal, "discard 3H")
    assert deal.discard_ids == (taken_id,)


def test_serbian_unopened_taker_who_opens_may_discard_any_card():
    hand = "10H JH QH 10S 10D 10C 2C 5D"
    deal = play(position(SERBIAN, hand, "KS KD", stock="6D", discard="KH"), "take")
    deal = play(deal, "lay 10H JH QH KH | 10S 10D 10C")
    assert deal.must_return is None
    assert play(deal, "discard 2C").discard_top is cards("2C")[0]


def test_serbian_opened_taker_has_no_obligation():
    deal = play(position(SERBIAN, WEAK, "KS KD", stock="6D", discard="3H", opened=[0]), "take")
    assert deal.must_return is None
    assert play(deal, "discard 2C").discard_top is cards("2C")[0]


def test_polish_unopened_taker_has_no_obligation():
    deal = play(position(POLISH51, WEAK, "KS KD", stock="6D", discard="3H"), "take")
    assert deal.must_return is None
    assert play(deal, "discard 2C").discard_top is cards("2C")[0]


def test_serbian_undo_puts_the_taken_card_back_and_draws_from_the_stock():
    deal = play(position(SERBIAN, WEAK, "KS KD", stock="6D 7D", discard="AS 3H"), "take")
    taken_id = deal.taken_card[0]
    assert UndoTake() in deal.legal_actions()
    deal = play(deal, "undo")
    assert deal.discard_ids[-1] == taken_id
    assert deal.discard_pile == tuple(cards("AS 3H"))
    assert deal.hands[0] == tuple(cards(WEAK + " 6D"))
    assert deal.stock_count == 1
    assert deal.must_return is None and deal.taken_card is None
    assert play(deal, "discard 2C").to_move == 1


def test_serbian_undo_is_logged_publicly_without_the_drawn_card():
    deal = play(position(SERBIAN, WEAK, "KS KD", stock="6D 7D", discard="3H"), "take", "undo")
    public = deal.last_event.public
    assert public["type"] == "undo"
    assert public["returned"]["card"] == "3H"
    assert "card" not in public
    assert deal.last_event.private["card"]["card"] == "6D"


def test_serbian_undo_only_while_nothing_else_was_done():
    hand = "10H JH QH 10S 10D 10C 2C 5D"
    deal = play(position(SERBIAN, hand, "KS KD", stock="6D", discard="KH"), "take")
    deal = play(deal, "lay 10H JH QH KH | 10S 10D 10C")
    assert refused(deal, "undo").code == "undo_too_late"


def test_undo_needs_a_take_this_turn():
    deal = play(position(SERBIAN, WEAK, "KS KD", stock="6D 7D", discard="3H"), "draw")
    assert refused(deal, "undo").code == "nothing_to_undo"


@pytest.mark.parametrize("ruleset", [MACEDONIAN, POLISH51])
def test_undo_is_serbian_only(ruleset):
    deal = play(position(ruleset, WEAK, "KS KD", stock="6D", discard="3H", opened=[0]), "take")
    assert refused(deal, "undo").code == "undo_not_allowed"
    assert UndoTake() not in deal.legal_actions()


def test_cannot_take_from_an_empty_discard_pile():
    deal = position(SERBIAN, WEAK, "KS KD", stock="6D")
    assert refused(deal, "take").code == "discard_empty"
    assert [str(action) for action in deal.legal_actions()] == ["draw"]


def test_taking_the_discard_is_public():
    deal = play(position(SERBIAN, WEAK, "KS KD", stock="6D", discard="3H"), "take")
    assert deal.last_event.public["card"]["card"] == "3H"
    assert deal.last_event.public == deal.last_event.private
