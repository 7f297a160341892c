"""Bots decide from what their seat may see: nothing leads to another hand or the stock."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from games.bots import Budget, make_bot
from games.bots.arena import play_deal
from games.bots.base import Observation
from games.bots.memory import BotMemory
from games.engine import PRESETS, Deal
from games.engine.deal import _Setup
from tests.bots.helpers import FAST, observe, texts
from tests.engine.helpers import SERBIAN, cards


def reachable(root: Any) -> list[Any]:
    """Every object reachable from ``root`` through attributes and containers."""
    seen: set[int] = set()
    found: list[Any] = []
    stack = [root]
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, str | int | float | bool | type(None)):
            continue
        seen.add(id(item))
        found.append(item)
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
        elif dataclasses.is_dataclass(item):
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))
        else:
            for cls in type(item).__mro__:
                for name in getattr(cls, "__slots__", ()):
                    if hasattr(item, name):
                        stack.append(getattr(item, name))
            stack.extend(getattr(item, "__dict__", {}).values())
    return found


class Inspecting:
    """Wraps a bot and checks every observation it is given."""

    def __init__(self, level: int) -> None:
        self.bot = make_bot(level)
        self.level = level
        self.name = f"inspected {self.bot.name}"
        self.observations = 0

    def decide(self, obs: Observation, rng: random.Random, budget: Budget) -> list[Any]:
        objects = reachable(obs)
        assert not any(isinstance(item, Deal | _Setup) for item in objects)
        view = obs.view
        # Only the seat's own hand is in the view; other seats are counts.
        assert view.hand is not None and len(view.hand) == view.hand_counts[obs.seat]
        assert obs.memory is not None
        self.observations += 1
        return self.bot.decide(obs, rng, budget)


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_an_observation_has_no_path_to_the_deal(level):
    deal = Deal.new(PRESETS["serbian"], 2, dealer=0, rng=random.Random(3))
    bots = [Inspecting(level), Inspecting(level)]
    play_deal(deal, bots, rngs=[random.Random(1), random.Random(2)], budget=FAST)
    assert bots[0].observations and bots[1].observations


def test_a_memory_knows_only_what_was_shown_and_is_right_about_it():
    deal = Deal.new(PRESETS["polish51"], 3, dealer=0, rng=random.Random(5))
    bots = [make_bot(2), make_bot(2), make_bot(2)]
    record = play_deal(deal, bots, rngs=[random.Random(s) for s in range(3)], budget=FAST)
    replay = Deal.from_deck(
        deal.ruleset,
        3,
        dealer=deal.dealer,
        deck=deal.deck,
        card_ids=deal.card_ids,
        reshuffle_seeds=deal.reshuffle_seeds,
    )
    memory = BotMemory.start(replay.view(0))
    took_any = False
    for _seat, action in record.actions:
        replay = replay.apply(action)
        shown = replay.last_event.for_seat(0)
        if shown["type"] == "draw" and shown["seat"] != 0:
            assert "card" not in shown
        memory.observe(shown)
        for other in (1, 2):
            known = set(memory.records[other].known)
            took_any = took_any or bool(known)
            assert known <= set(replay.hand_ids(other))  # what it believes is true
        assert [pair[0] for pair in memory.pile] == list(replay.discard_ids)
    assert replay.is_over
    assert took_any


def two_worlds():
    """Two deals that look the same from seat 0 but hide different cards."""
    common = dict(
        discard=cards("QD KD 4S"),
        table=[(1, cards("JS QS KS"))],
        opened=[1],
        to_move=0,
    )
    mine = cards("10H JH QH KH 10S 10D 4C 9S 2C 5D")
    first = Deal.from_position(
        SERBIAN, hands=[mine, cards("2H 3H 4H 7C 8C")], stock=cards("9H 7D 8S AC JK"), **common
    )
    second = Deal.from_position(
        SERBIAN, hands=[mine, cards("AC JK 7D 7C 9H")], stock=cards("8S 2H 8C 3H 4H"), **common
    )
    return first, second


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_decisions_ignore_hidden_cards(level):
    first, second = two_worlds()
    assert first.view(0) == second.view(0)
    for seed in range(3):
        decided = [
            texts(make_bot(level).decide(observe(deal), random.Random(seed), FAST))
            for deal in (first, second)
        ]
        assert decided[0] == decided[1]
