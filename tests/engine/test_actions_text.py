"""Actions print as typed, parse back, and round-trip through JSON."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import (
    JOKER,
    Card,
    Discard,
    DrawStock,
    IllegalAction,
    LayDown,
    LayOff,
    SwapJoker,
    TakeDiscard,
    UndoTake,
    action_from_dict,
    full_pack,
    parse_action,
)
from tests.engine.helpers import cards

EXAMPLES = [
    (DrawStock(), "draw"),
    (TakeDiscard(), "take"),
    (UndoTake(), "undo"),
    (LayDown([cards("7H 8H 9H"), cards("10S 10D 10C")]), "lay 7H 8H 9H | 10S 10D 10C"),
    (LayDown([cards("JK 5C 6C")]), "lay JK 5C 6C"),
    (LayOff(cards("7H")[0], 2, "high"), "off 7H 2 high"),
    (LayOff(cards("7H")[0], 2), "off 7H 2"),
    (SwapJoker(cards("7H")[0], 3), "swap 7H 3"),
    (SwapJoker(cards("7S 7C"), 0), "swap 7S 7C 0"),
    (Discard(cards("10D")[0]), "discard 10D"),
]


@pytest.mark.parametrize(("action", "text"), EXAMPLES, ids=[text for _, text in EXAMPLES])
def test_action_prints_as_you_would_type_it_and_parses_back(action, text):
    assert str(action) == text
    assert parse_action(text) == action


@pytest.mark.parametrize(("action", "text"), EXAMPLES, ids=[text for _, text in EXAMPLES])
def test_action_round_trips_through_json(action, text):
    data = json.loads(json.dumps(action.to_dict()))
    assert data["type"] == text.split()[0]
    assert action_from_dict(data) == action


def test_parse_accepts_t_for_ten_suit_symbols_and_any_case():
    assert parse_action("LAY th j♥ q♥") == LayDown([cards("10H JH QH")])
    assert parse_action("  Discard   7♠ ") == Discard(cards("7S")[0])
    assert parse_action("off jk 0 LOW") == LayOff(JOKER, 0, "low")


def test_actions_are_hashable_values():
    assert LayDown([cards("7H 8H 9H")]) == LayDown((tuple(cards("7H 8H 9H")),))
    assert len({LayOff(JOKER, 0), LayOff(JOKER, 0), LayOff(JOKER, 0, "low")}) == 2
    assert SwapJoker(cards("7H"), 1) == SwapJoker(cards("7H")[0], 1)


def test_repr_shows_the_constructor_call():
    assert repr(Discard(cards("7H")[0])) == "Discard(card=Card.parse('7H'))"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "fly",
        "draw 7H",
        "lay",
        "lay 7H 8H 9H |",
        "lay 7H 8H ZZ",
        "off 7H",
        "off 7H x",
        "off 7H 2 middle",
        "off 7H -1",
        "off 7H ²",  # a digit to str.isdigit(), not to int()
        "off 7H ٣",  # a digit to int() too, but not how a meld number is written
        "swap 3",
        "discard",
        "discard 7H 8H",
    ],
)
def test_unreadable_text_is_refused_with_a_code(text):
    with pytest.raises(IllegalAction) as caught:
        parse_action(text)
    assert caught.value.code == "bad_action"
    assert "cannot read the action" in str(caught.value)


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"type": "fly"},
        {"type": "discard"},
        {"type": "discard", "card": 7},
        {"type": "discard", "card": "ZZ"},
        {"type": "lay", "melds": "7H 8H 9H"},
        {"type": "off", "card": "7H", "meld": "2"},
        {"type": "off", "card": "7H", "meld": -1},
        {"type": "off", "card": "7H", "meld": True},
        {"type": "off", "card": "7H", "meld": 2, "end": "middle"},
        {"type": "swap", "cards": "7H", "meld": 0},
    ],
)
def test_bad_json_is_refused_with_a_code(data):
    with pytest.raises(IllegalAction) as caught:
        action_from_dict(data)
    assert caught.value.code == "bad_action"


def test_lay_off_end_is_low_high_or_none():
    with pytest.raises(ValueError, match="end must be"):
        LayOff(JOKER, 0, "middle")  # type: ignore[arg-type]


card_values = st.sampled_from(sorted(set(full_pack(4))))
meld_lists = st.lists(st.lists(card_values, min_size=1, max_size=5), min_size=1, max_size=3)
actions = st.one_of(
    st.just(DrawStock()),
    st.just(TakeDiscard()),
    st.just(UndoTake()),
    meld_lists.map(LayDown),
    st.builds(LayOff, card_values, st.integers(0, 30), st.sampled_from([None, "low", "high"])),
    st.builds(SwapJoker, st.lists(card_values, min_size=1, max_size=2), st.integers(0, 30)),
    st.builds(Discard, card_values),
)


@given(actions)
def test_every_action_round_trips_through_text_and_json(action):
    assert parse_action(str(action)) == action
    assert action_from_dict(json.loads(json.dumps(action.to_dict()))) == action
    assert isinstance(action.kind, str)
    assert all(isinstance(card, Card) for card in getattr(action, "cards", ()))
