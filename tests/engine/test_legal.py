"""The legal moves of the player to move (``games.engine.legal``) against the engine's own
judge, ``Deal.apply``: every move listed is accepted, and every move accepted is listed.
Then the rule examples, one test per row, and the solver's hint."""

from __future__ import annotations

import random
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    JOKER,
    Action,
    Deal,
    Discard,
    DrawStock,
    LayDown,
    LayOff,
    SwapJoker,
    TakeDiscard,
    UndoTake,
    candidate_melds,
    hand_penalty,
    parse_action,
)
from games.engine.cards import STANDARD_CARDS
from games.engine.legal import hint, legal_moves
from tests.engine.helpers import (
    ALL_RULESETS,
    MACEDONIAN,
    OLD_REMI,
    POLISH51,
    SERBIAN,
    cards,
    position,
    texts,
)

EVERY_CARD = (*STANDARD_CARDS, JOKER)


# ---------------------------------------------------------------- positions


def meldy_action(deal: Deal, rng: random.Random) -> Action:
    """A random legal action that lays down, lays off and swaps whenever it can, so that
    the table fills with melds (and jokers) to lay off onto and swap from."""
    actions = deal.legal_actions()
    building = [a for a in actions if isinstance(a, LayDown | LayOff | SwapJoker)]
    if building and rng.random() < 0.8:
        return rng.choice(building)
    if TakeDiscard() in actions and rng.random() < 0.3:
        return TakeDiscard()
    if UndoTake() in actions and rng.random() < 0.3:
        return UndoTake()
    return rng.choice(actions)


def positions(ruleset, players: int, seed: int, every: int) -> list[Deal]:
    """Every ``every``-th position of a random deal, and each position after a take."""
    rng = random.Random(seed)
    deal = Deal.new(ruleset, players, dealer=rng.randrange(players), rng=rng)
    found = []
    step = 0
    while not deal.is_over:
        if step % every == 0 or deal.taken_card is not None:
            found.append(deal)
        deal = deal.apply(meldy_action(deal, rng))
        step += 1
    return found


RULESETS = (*ALL_RULESETS, SERBIAN.replace(name="serbian_no_51_hand", hand_needs_51=False))
deals = st.tuples(
    st.sampled_from(RULESETS), st.integers(2, 4), st.integers(0, 2**32 - 1), st.integers(3, 9)
).map(lambda args: positions(*args))
property_settings = settings(max_examples=30, deadline=None)


def candidates(deal: Deal) -> list[Action]:
    """Every action worth asking the engine about: each card of the pack in each single-card
    action onto each meld (and one meld past the table), each pair of held cards as a
    swap, in both orders."""
    held = sorted(set(deal.hand(deal.to_move)))
    found: list[Action] = [DrawStock(), TakeDiscard(), UndoTake()]
    found += [Discard(card) for card in EVERY_CARD]
    for index in range(len(deal.table) + 1):
        for card in EVERY_CARD:
            found += [LayOff(card, index, end) for end in (None, "low", "high")]
            found.append(SwapJoker(card, index))
        for first, second in combinations_with_replacement(held, 2):
            found += [SwapJoker((first, second), index), SwapJoker((second, first), index)]
    return found


def lay_downs(deal: Deal) -> list[LayDown]:
    """Lay-downs worth asking about: every meld the hand holds alone, and the engine's own."""
    hand = deal.hand(deal.to_move)
    found = [LayDown([meld.cards]) for meld in candidate_melds(hand, deal.ruleset)]
    return found + [a for a in deal.legal_actions() if isinstance(a, LayDown)]


# ---------------------------------------------------------------- the properties


@property_settings
@given(deals)
def test_every_listed_move_is_accepted(game):
    for deal in game:
        moves = legal_moves(deal)
        assert moves is not None and moves.seat == deal.to_move
        for action in moves:
            assert deal.is_legal(action), action


@property_settings
@given(deals)
def test_every_accepted_move_is_listed(game):
    for deal in game[::2]:
        moves = legal_moves(deal)
        for action in candidates(deal):
            assert deal.is_legal(action) == (action in moves), action


@property_settings
@given(deals)
def test_lay_says_whether_any_lay_down_is_accepted(game):
    for deal in game:
        moves = legal_moves(deal)
        accepted = [action for action in lay_downs(deal) if deal.is_legal(action)]
        assert moves.lay == bool(accepted)


@property_settings
@given(deals)
def test_lay_offs_onto_runs_name_the_end_they_go_to(game):
    for deal in game:
        for action in legal_moves(deal).lay_offs:
            is_run = deal.table[action.meld_index].meld.is_run
            assert (action.end is not None) == is_run
            if is_run:
                laid = deal.apply(action).last_event
                assert laid is not None and laid.end == action.end


@property_settings
@given(deals)
def test_taking_obliges_what_the_take_option_says(game):
    for deal in game:
        take = legal_moves(deal).take
        if take is None:
            continue
        assert take.card is deal.discard_top
        taken = deal.apply(TakeDiscard())
        assert (taken.must_return is take.card) == (take.obligation == "open_or_return")
        assert taken.may_undo == take.undo


@property_settings
@given(deals)
def test_the_opening_need_is_shown_until_the_seat_opens(game):
    for deal in game:
        moves = legal_moves(deal)
        opened = deal.has_opened(deal.to_move)
        assert (moves.opening is None) == opened
        if moves.opening is not None:
            assert moves.opening.minimum == deal.ruleset.opening_minimum
            if not moves.opening.this_turn:
                assert not moves.lay


def test_a_finished_deal_has_no_moves():
    deal = position(SERBIAN, "5D", "7H 8H", stock="2C 3C", opened=[0], drawn=True)
    assert legal_moves(deal.apply(Discard(cards("5D")[0]))) is None


# ---------------------------------------------------------------- the rule examples


def opened_at(ruleset, hand, *melds, owner=1):
    """Seat 0 has opened and drawn, holding ``hand``; ``melds`` lie on the table."""
    table = [(owner, meld) for meld in melds]
    return position(ruleset, hand, "4S 3S", table=table, opened=[0], drawn=True)


@pytest.mark.parametrize("ruleset", ALL_RULESETS, ids=lambda r: r.name)
def test_a_joker_that_fits_either_end_of_a_run_is_listed_at_both(ruleset):
    # "When a run could take the joker at either end (JK 5C 6C: 4♣ or 7♣), the player
    # says which."
    moves = legal_moves(opened_at(ruleset, "JK 2D", "5C 6C 7C"))

    assert texts(moves.lay_offs) == ["off JK 0 low", "off JK 0 high"]
    assert LayOff(JOKER, 0) in moves  # no end: the engine puts it high


@pytest.mark.parametrize("ruleset", ALL_RULESETS, ids=lambda r: r.name)
def test_a_card_laid_off_on_a_run_names_the_only_end_it_fits(ruleset):
    moves = legal_moves(opened_at(ruleset, "4C 8C 2D", "5C 6C 7C"))

    assert texts(moves.lay_offs) == ["off 4C 0 low", "off 8C 0 high"]
    assert parse_action("off 4C 0 high") not in moves


def test_a_set_lay_off_names_no_end_and_any_end_is_the_same():
    moves = legal_moves(opened_at(SERBIAN, "10S 2D", "10D 10C 10H"))

    assert texts(moves.lay_offs) == ["off 10S 0"]
    assert parse_action("off 10S 0 low") in moves


def test_macedonian_set_of_three_joker_is_swapped_for_either_missing_suit():
    # "swap with a missing suit (set becomes 3 real cards)"
    moves = legal_moves(opened_at(MACEDONIAN, "7S 7C 2D", "7H 7D JK"))

    assert texts(moves.swaps) == ["swap 7S 0", "swap 7C 0"]


def test_serbian_set_of_three_only_takes_a_card_the_joker_stays():
    # "adding a card only joins the set (4 cards, joker stays); no swap"
    moves = legal_moves(opened_at(SERBIAN, "7S 7C 2D", "7H 7D JK"))

    assert moves.swaps == ()
    assert texts(moves.lay_offs) == ["off 7S 0", "off 7C 0"]


def test_polish51_set_of_three_frees_its_joker_only_for_both_missing_suits():
    # "the joker comes back only when both missing suits are added at once"
    moves = legal_moves(opened_at(POLISH51, "7S 7C 2D", "7H 7D JK"))

    assert texts(moves.swaps) == ["swap 7S 7C 0"]
    assert SwapJoker(cards("7C 7S"), 0) in moves
    assert SwapJoker(cards("7S"), 0) not in moves


def test_macedonian_first_round_shows_the_opening_cannot_be_made_this_turn():
    # "no player may open in the first round of a deal (each player's first turn)"
    hand = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 2S 3S"
    deal = position(MACEDONIAN, hand, "2C", stock="5D", drawn=True, first_round=True)

    moves = legal_moves(deal)

    assert moves.opening is not None and not moves.opening.this_turn
    assert not moves.lay


def test_serbian_take_obliges_an_unopened_player_to_open_or_give_it_back():
    # "a player who has not opened and takes it must open in that turn, or else discard
    # that same card back"
    deal = position(SERBIAN, "7H 8H 2C", "5S 6S", discard="9S", stock="5D")

    take = legal_moves(deal).take

    assert take is not None and str(take.card) == "9S"
    assert take.obligation == "open_or_return" and take.undo
    after = legal_moves(deal.apply(TakeDiscard()))
    assert after.discards == tuple(cards("9S")) and after.undo


def test_macedonian_discard_is_for_opened_players_only():
    # "only a player who has opened" may take the top discard
    deal = position(MACEDONIAN, "7H 8H 2C", "5S 6S", discard="9S", stock="5D")

    assert legal_moves(deal).take is None
    opened = position(MACEDONIAN, "7H 8H 2C", "5S 6S", discard="9S", stock="5D", opened=[0])
    assert legal_moves(opened).take.obligation is None


def test_polish51_anyone_takes_the_discard_without_obligation():
    deal = position(POLISH51, "7H 8H 2C", "5S 6S", discard="9S", stock="5D")

    take = legal_moves(deal).take
    assert take is not None and take.obligation is None and not take.undo


def test_old_remi_exempts_a_lay_down_of_all_but_one_card():
    deal = position(OLD_REMI, "AS 2S 3S 4D", "5S 6S", stock="5D", drawn=True)

    moves = legal_moves(deal)

    assert moves.opening.all_but_one_exempt and moves.lay


def test_the_last_card_is_never_laid_off():
    moves = legal_moves(opened_at(SERBIAN, "8C", "5C 6C 7C"))

    assert moves.lay_offs == () and moves.discards == tuple(cards("8C"))


def test_the_json_form_lists_lay_offs_and_swaps_as_action_bodies():
    moves = legal_moves(opened_at(MACEDONIAN, "8C 7S 2D", "5C 6C 7C", "7H 7D JK"))

    data = moves.to_dict()

    assert data["lay_offs"] == [
        {"type": "off", "card": "8C", "meld": 0, "end": "high"},
        {"type": "off", "card": "7S", "meld": 1, "end": None},
    ]
    assert data["swaps"] == [{"type": "swap", "cards": ["7S"], "meld": 1}]
    assert data["discards"] == ["8C", "7S", "2D"]
    assert data["opening"] is None and data["take"] is None
    assert data["draw"] is False and data["lay"] is False


# ---------------------------------------------------------------- hints


@property_settings
@given(deals)
def test_a_hint_is_played_as_it_says_and_leaves_what_it_says(game):
    for deal in game:
        if not deal.drawn:
            continue
        advice = hint(deal, deal.to_move)
        if not advice.opened:
            assert advice.opens == legal_moves(deal).lay
        for action in advice.actions():
            deal = deal.apply(action)
        assert sorted(deal.hand(deal.to_move)) == sorted(advice.left)
        assert len(advice.left) >= 1
        assert hand_penalty(advice.left, deal.ruleset) == advice.penalty_left


def test_a_hint_opens_with_the_best_opening_then_lays_off_the_rest():
    # QS QD QC (30) + 7H 8H 9H (24) open with 54; then 5C goes on the table's 6C 7C 8C.
    deal = position(
        SERBIAN, "7H 8H 9H QS QD QC 5C 2D", "3S 4S", table=[(1, "6C 7C 8C")], stock="5D"
    )
    deal = deal.apply(DrawStock())

    advice = hint(deal, 0)

    assert advice.opens and advice.value == 54 and not advice.opened
    assert [str(meld) for meld in advice.melds] == ["QS QD QC", "7H 8H 9H"]
    assert texts(advice.lay_offs) == ["off 5C 0 low"]
    assert [str(card) for card in advice.left] == ["2D", "5D"]
    assert texts(advice.actions()) == ["lay QS QD QC | 7H 8H 9H", "off 5C 0 low"]


def test_a_hint_below_the_minimum_says_so_and_plays_nothing():
    deal = position(SERBIAN, "7H 8H 9H 2C 5D", "3S 4S", stock="6D", drawn=True)

    advice = hint(deal, 0)

    assert not advice.opens and advice.value == 24 and advice.minimum == 51
    assert advice.refusal == "opening_too_low"
    assert advice.actions() == [] and advice.lay_offs == ()
    assert sorted(advice.left) == sorted(deal.hand(0))


def test_an_opened_hint_chains_lay_offs_and_keeps_a_card_to_discard():
    deal = opened_at(MACEDONIAN, "8H 9H 10H KS", "5H 6H 7H")

    advice = hint(deal, 0)

    # 8H 9H 10H is a run of its own: laid down, nothing is left to lay off but KS.
    assert [str(meld) for meld in advice.melds] == ["8H 9H 10H"]
    assert [str(card) for card in advice.left] == ["KS"]
    short = hint(opened_at(MACEDONIAN, "8H 9H KS", "5H 6H 7H"), 0)
    assert texts(short.lay_offs) == ["off 8H 0 high", "off 9H 0 high"]
    assert [str(card) for card in short.left] == ["KS"]


def test_a_hint_off_turn_may_use_every_card():
    deal = position(
        MACEDONIAN, "2D 3D", "8H 9H", stock="5D", table=[(1, "5H 6H 7H")], opened=[1], to_move=0
    )

    advice = hint(deal, 1)  # seat 1 waits for its turn: its draw will be its discard

    assert texts(advice.lay_offs) == ["off 8H 0 high", "off 9H 0 high"]
    assert advice.left == () and advice.penalty_left == 0


def test_a_hint_in_the_macedonian_first_round_says_why_it_cannot_open():
    hand = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 2S 3S"
    deal = position(MACEDONIAN, hand, "2C", stock="5D", drawn=True, first_round=True)

    advice = hint(deal, 0)

    assert advice.value >= 51 and advice.refusal == "no_opening_in_first_round"
    assert not advice.opens and advice.actions() == []


def test_a_hint_for_no_such_seat_is_refused():
    with pytest.raises(ValueError, match="no seat 5"):
        hint(opened_at(SERBIAN, "2D 3D", "5H 6H 7H"), 5)
