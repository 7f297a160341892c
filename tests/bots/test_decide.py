"""The platform's entry point: ``games.bots.decide``."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from games import bots
from games.engine import PRESETS, Deal, Discard, DrawStock


@pytest.mark.parametrize("level", sorted(bots.BOT_LEVELS))
def test_it_returns_the_next_actions_of_the_turn(level):
    ruleset = PRESETS["serbian"]
    deal = Deal.new(ruleset, 2, dealer=1, rng=random.Random(9))
    seat = deal.to_move
    view = deal.view(seat)
    memory = bots.BotMemory.start(view)
    actions = bots.decide(
        level, view, memory, ruleset, random.Random(0), time_budget_s=None, simulations=10
    )
    assert actions
    assert isinstance(actions[-1], Discard | DrawStock)
    for action in actions:
        deal = deal.apply(action)
    assert deal.to_move != seat or not isinstance(actions[-1], Discard)


def test_it_refuses_a_seat_that_is_not_to_move():
    ruleset = PRESETS["macedonian"]
    deal = Deal.new(ruleset, 2, dealer=1, rng=random.Random(9))
    other = 1 - deal.to_move
    with pytest.raises(ValueError):
        bots.decide(2, deal.view(other), None, ruleset, random.Random(0))


def test_it_refuses_an_unknown_level():
    with pytest.raises(ValueError):
        bots.make_bot(7)


def test_the_bots_import_no_django():
    code = (
        "import sys, games.bots; "
        "roots = {name.split('.')[0] for name in sys.modules}; "
        "print(','.join(sorted(roots & {'django', 'rest_framework', 'channels', 'celery'})))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""


@pytest.mark.parametrize("level", sorted(bots.BOT_LEVELS))
def test_it_can_finish_a_turn_somebody_else_started(level):
    # The platform may ask in the middle of a turn (a retry after a crash): the bot
    # plays on from the view, the taken card included.
    from tests.engine.helpers import SERBIAN, play, position

    deal = position(
        SERBIAN,
        "7H 8H 2C 5S KD QS JC 3D",
        "2H 3C 5C 6D",
        discard="9H",
        opened=[0, 1],
        table=[(1, "2D 3D 4D")],
        stock="4C 6C 7C",
    )
    for started in (["take"], ["take", "lay 7H 8H 9H"]):
        mid = play(deal, *started)
        view = mid.view(0)
        actions = bots.decide(level, view, None, SERBIAN, random.Random(1), None, simulations=8)
        for action in actions:
            mid = mid.apply(action)
        assert isinstance(actions[-1], Discard)
        assert mid.to_move == 1
