"""Properties of random legal play from random deals (hypothesis)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Deal, check_meld, full_pack
from games.engine.playout import random_action
from tests.engine.helpers import ALL_RULESETS, SERBIAN

RULESETS = (*ALL_RULESETS, SERBIAN.replace(name="serbian_no_51_hand", hand_needs_51=False))
games = st.tuples(st.sampled_from(RULESETS), st.integers(2, 4), st.integers(0, 2**32 - 1)).map(
    lambda args: trajectory(*args)
)
property_settings = settings(max_examples=25, deadline=None)


def trajectory(ruleset, players, seed):
    """Every (deal, action) of a random game, and the final deal."""
    rng = random.Random(seed)
    deal = Deal.new(ruleset, players, dealer=rng.randrange(players), rng=rng)
    steps = []
    while not deal.is_over:
        action = random_action(deal, rng)
        steps.append((deal, action))
        deal = deal.apply(action)
    return steps, deal


def states(game):
    steps, final = game
    return [deal for deal, _ in steps] + [final]


def visible_ids(value) -> set[int]:
    found: set[int] = set()
    if isinstance(value, dict):
        if set(value) == {"id", "card"}:
            found.add(value["id"])
        for item in value.values():
            found |= visible_ids(item)
    elif isinstance(value, list):
        for item in value:
            found |= visible_ids(item)
    return found


@property_settings
@given(games)
def test_cards_are_conserved_over_random_legal_play(game):
    for deal in states(game):
        snapshot = deal.to_dict()
        ids = [i for hand in snapshot["hands"] for i in hand]
        ids += snapshot["stock"] + snapshot["discard"]
        ids += [i for meld in deal.table for i in meld.ids]
        assert sorted(ids) == list(range(len(deal.deck)))  # every physical card exactly once
        values = Counter(deal.card(i) for i in ids)
        assert values == Counter(full_pack(deal.ruleset.jokers))
        for meld in deal.table:
            assert [deal.card(i) for i in meld.ids] == list(meld.cards)
            assert check_meld(meld.cards, deal.ruleset, laid_down=False) == meld.meld


@property_settings
@given(games)
def test_random_legal_play_always_ends_with_a_result(game):
    _, deal = game
    result = deal.result()
    assert result is not None
    assert len(result.scores) == deal.num_players
    if result.winner is None:
        assert result.finish == "void"
        assert set(result.scores) == {0}
        assert deal.reshuffles == deal.ruleset.max_reshuffles or len(deal.discard_pile) <= 1
    else:
        assert deal.hands[result.winner] == ()
        assert all(deal.hands[seat] for seat in range(deal.num_players) if seat != result.winner)


@property_settings
@given(games)
def test_every_listed_action_is_legal_and_listed_once(game):
    for deal, _ in game[0]:
        actions = deal.legal_actions()
        assert len(actions) == len(set(actions))
        for action in actions:
            deal.apply(action)  # raises if the generator listed an illegal action


@property_settings
@given(games)
def test_view_never_shows_another_hand_the_stock_or_the_deck(game):
    ever_public: set[int] = set()  # ids once on the table or the discard pile
    for number, deal in enumerate(states(game)):
        ever_public |= {i for meld in deal.table for i in meld.ids} | set(deal.discard_ids)
        if number % 3:
            continue
        stock = set(deal.to_dict()["stock"])
        for seat in [None, *range(deal.num_players)]:
            view = deal.view(seat).to_dict()
            own = set() if seat is None else set(deal.hand_ids(seat))
            seen = visible_ids(view)
            assert not seen & stock
            assert seen <= ever_public | own
            assert view["hand_counts"] == [len(hand) for hand in deal.hands]
            assert not {"deck", "stock", "card_ids", "reshuffle_seeds"} & set(view)


@property_settings
@given(games)
def test_replay_from_the_deck_and_the_log_reproduces_the_state(game):
    steps, final = game
    first = steps[0][0]
    deal = Deal.from_deck(
        first.ruleset,
        first.num_players,
        dealer=first.dealer,
        deck=first.deck,
        card_ids=first.card_ids,
        reshuffle_seeds=first.reshuffle_seeds,
    )
    for _, action in steps:
        deal = deal.apply(action)
    assert deal.to_dict() == final.to_dict()


@property_settings
@given(games)
def test_snapshots_restore_the_exact_state(game):
    for deal in states(game)[::5]:
        restored = Deal.from_dict(deal.to_dict())
        assert restored.to_dict() == deal.to_dict()
        assert restored.legal_actions() == deal.legal_actions()


@property_settings
@given(games)
def test_apply_never_mutates_the_original(game):
    for deal, action in game[0][::4]:
        before = deal.to_dict()
        deal.apply(action)
        assert deal.to_dict() == before
