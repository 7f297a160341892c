"""Turn planning: the lines a hand can play, however they are computed."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots.planning import Line, line_for, lines
from games.engine import PRESETS, Deal, full_pack, meld_value
from tests.engine.helpers import MACEDONIAN, position


def _drawn_position(preset: str, seed: int) -> Deal:
    """Seat 0 to play 15 random cards, nobody opened, past the first round."""
    ruleset = PRESETS[preset]
    pack = full_pack(ruleset.jokers)
    random.Random(seed).shuffle(pack)
    return Deal.from_position(
        ruleset,
        hands=[pack[:15], pack[15:29]],
        stock=pack[29:60],
        discard=[],
        table=[],
        drawn=True,
        first_round=False,
    )


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 10_000))
def test_sharing_the_whole_hands_opening_changes_no_line(preset, seed):
    deal = _drawn_position(preset, seed)
    shared = lines(deal)
    alone = [line_for(deal, card) for card in dict.fromkeys(deal.hand(deal.to_move))]
    # Melds of equal worth may come in another order or make-up: what the line
    # is worth must be the same.
    assert [_worth(line) for line in shared] == [_worth(line) for line in alone if line]


def _worth(line: Line) -> tuple[str, bool, int, int]:
    laid = sum(meld_value(meld.meld, line.after.ruleset) for meld in line.after.table)
    return str(line.discard), line.opens, laid, line.left_penalty


def test_only_the_discards_that_keep_the_opening_whole_open():
    # Q-K-A of hearts (31) and three tens (30) make 61: throwing 3C or 9S keeps
    # both melds; throwing one of their cards leaves less than 51.
    deal = position(MACEDONIAN, "QH KH AH 10C 10S 10D 3C 9S", "2H 3D 5C", drawn=True)
    opens = {str(line.discard): line.opens for line in lines(deal)}
    assert opens == {
        "QH": False,
        "KH": False,
        "AH": False,
        "10C": False,
        "10S": False,
        "10D": False,
        "3C": True,
        "9S": True,
    }
