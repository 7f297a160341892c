"""The greedy bot: opens at once, lays off everything, takes only useful discards."""

from __future__ import annotations

import random

import pytest

from games.bots import Budget, GreedyBot
from games.bots.arena import play_deal
from games.bots.base import Observation
from games.engine import PRESETS, Deal, LayDown, LayOff, TakeDiscard, meld_value, opening_for_turn
from games.engine.rulesets import Ruleset
from tests.bots.helpers import FAST, decide, texts
from tests.engine.helpers import MACEDONIAN, POLISH51, SERBIAN, position


def test_it_opens_as_soon_as_it_can():
    deal = position(SERBIAN, "10H JH QH KH 10S 10D 10C 4D 9S 2C", "2H 3D 5C 8S 9C", drawn=True)
    actions = decide(GreedyBot(), deal)
    assert isinstance(actions[0], LayDown)
    assert sum(meld_value(m, SERBIAN) for m in _melds(actions[0], SERBIAN)) >= 51
    assert texts(actions[-1:]) == ["discard 9S"]  # the highest-penalty card left over


def test_it_does_not_open_in_the_macedonian_first_round():
    deal = position(
        MACEDONIAN,
        "10H JH QH KH 10S 10D 10C 4D 9S 2C",
        "2H 3D 5C 8S 9C",
        drawn=True,
        first_round=True,
    )
    actions = decide(GreedyBot(), deal)
    assert len(actions) == 1 and actions[0].kind == "discard"


def test_it_lays_off_everything_it_can():
    deal = position(
        POLISH51,
        "8H 9H 2C 5S KD",
        "2H 3D 5C",
        table=[(1, "5H 6H 7H"), (0, "QS QD QC")],
        opened=[0],
        drawn=True,
    )
    actions = decide(GreedyBot(), deal)
    laid = [a for a in actions if isinstance(a, LayOff)]
    assert {str(a.card) for a in laid} == {"8H", "9H"}
    assert texts(actions[-1:]) == ["discard KD"]


def test_it_goes_out_when_it_can():
    deal = position(
        SERBIAN, "8H 9H 2C", "2H 3D 5C", table=[(1, "5H 6H 7H")], opened=[0], drawn=True
    )
    deal = _apply(deal, decide(GreedyBot(), deal))
    assert deal.is_over and deal.result().winner == 0


def test_it_takes_the_discard_only_when_it_melds():
    useful = position(
        POLISH51,
        "7H 8H 2C 5S KD QS",
        "2H 3D 5C",
        discard="9H",
        opened=[0],
        table=[(1, "2D 3D 4D")],
    )
    assert isinstance(decide(GreedyBot(), useful)[0], TakeDiscard)
    useless = position(
        POLISH51,
        "7H 8H 2C 5S KD QS",
        "2H 3D 5C",
        discard="4C",
        opened=[0],
        table=[(1, "2D 3D 4D")],
    )
    assert texts(decide(GreedyBot(), useless)) == ["draw"]


class Checking(GreedyBot):
    """The greedy bot, checked on every turn: it opens whenever an opening exists."""

    opened_when_it_could = 0

    def decide(self, obs: Observation, rng: random.Random, budget: Budget):
        actions = super().decide(obs, rng, budget)
        view = obs.view
        if view.phase == "play" and not view.opened[obs.seat] and view.must_return is None:
            hand = [card for _, card in view.hand]
            blocked = obs.ruleset.no_opening_in_first_round and view.first_round
            if opening_for_turn(hand, obs.ruleset) and not blocked:
                assert isinstance(actions[0], LayDown), (hand, actions)
                Checking.opened_when_it_could += 1
        return actions


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_over_whole_deals_it_opens_whenever_an_opening_exists(preset):
    Checking.opened_when_it_could = 0
    for index in range(4):
        deal = Deal.new(PRESETS[preset], 2, dealer=index % 2, rng=random.Random(index))
        play_deal(deal, [Checking(), Checking()], rngs=[random.Random(0)] * 2, budget=FAST)
    assert Checking.opened_when_it_could > 0


def _melds(action: LayDown, ruleset: Ruleset):
    from games.engine import check_meld

    return [check_meld(meld, ruleset) for meld in action.melds]


def _apply(deal: Deal, actions) -> Deal:
    for action in actions:
        deal = deal.apply(action)
    return deal
