"""A seat's memory of the public log."""

from __future__ import annotations

import random

from games.bots import BotMemory
from games.engine import PRESETS, Deal, DrawStock, TakeDiscard
from tests.engine.helpers import POLISH51, cards, play, position


def events_after(deal: Deal, seat: int, *moves: str) -> tuple[Deal, list[dict]]:
    shown = []
    for move in moves:
        deal = play(deal, move)
        shown.append(deal.last_event.for_seat(seat))
    return deal, shown


def test_it_remembers_who_took_what_until_it_is_laid_or_thrown():
    deal = position(
        POLISH51, "2C 3C 4C 9S 10S", "7H 8H KD QS JC", discard="9H", stock="5D 6D 7D 8D"
    )
    memory = BotMemory(0, 2, initial_discard=deal.view(0).discard)
    deal, shown = events_after(deal, 0, "draw", "discard 9S", "take")
    for event in shown:
        memory.observe(event)
    assert memory.known_cards(1) == cards("9S")
    assert memory.records[1].took == cards("9S")
    assert memory.records[0].declined == cards("9H")  # seat 0 drew instead of taking it
    deal, shown = events_after(deal, 0, "discard 9S")
    memory.observe(shown[0])
    assert memory.known_cards(1) == []
    assert memory.records[1].discarded == cards("9S")
    assert [card for _, card in memory.pile] == cards("9H 9S")


def test_from_events_equals_feeding_them_one_by_one():
    deal = Deal.new(PRESETS["serbian"], 2, dealer=0, rng=random.Random(4))
    first = deal.view(1)
    shown = []
    rng = random.Random(1)
    while len(shown) < 40 and not deal.is_over:
        actions = deal.legal_actions()
        draws = [a for a in actions if isinstance(a, TakeDiscard | DrawStock)]
        action = rng.choice(draws or actions)
        deal = deal.apply(action)
        shown.append(deal.last_event.for_seat(1))
    fed = BotMemory.start(first)
    for event in shown:
        fed.observe(event)
    built = BotMemory.from_events(1, 2, shown, initial_discard=first.discard)
    assert fed.pile == built.pile
    assert [r.known for r in fed.records] == [r.known for r in built.records]
    assert built.events == len(shown)
