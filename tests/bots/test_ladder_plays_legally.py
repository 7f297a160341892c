"""Every level plays only legal actions and finishes every deal, in every preset."""

from __future__ import annotations

import random

import pytest

from games.engine import PRESETS, Deal
from tests.bots.helpers import play

PRESET_NAMES = sorted(PRESETS)


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_levels_1_to_3_finish_seeded_deals_legally(level, players, preset):
    # play_deal applies every action with Deal.apply: an illegal one raises.
    for index in range(3):
        deal = Deal.new(PRESETS[preset], players, dealer=index % players, rng=random.Random(index))
        record = play(deal, [level] * players, seed=index)
        assert record.deal.is_over
        assert len(record.result.scores) == players


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_expert_finishes_a_deal_legally(players, preset):
    deal = Deal.new(PRESETS[preset], players, dealer=0, rng=random.Random(7))
    levels = [4, 3, 2, 1][:players] if players == 4 else [4, 3]
    record = play(deal, levels, seed=7)
    assert record.deal.is_over


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_mixed_table_finishes(preset):
    deal = Deal.new(PRESETS[preset], 4, dealer=2, rng=random.Random(11))
    record = play(deal, [1, 2, 3, 2], seed=11)
    assert record.deal.is_over
    assert all(turns for turns in record.turn_seconds)
