"""Rulesets: every rule difference is a field; presets round-trip (RULES.md intro)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.engine import PRESETS, Ruleset
from games.engine.rulesets import SERBIAN_OLD_REMI

EVERY_RULESET = [*PRESETS.values(), SERBIAN_OLD_REMI]


@pytest.mark.parametrize("ruleset", EVERY_RULESET, ids=lambda ruleset: ruleset.name)
def test_to_dict_round_trips_through_json(ruleset: Ruleset) -> None:
    stored = json.loads(json.dumps(ruleset.to_dict()))
    assert Ruleset.from_dict(stored) == ruleset


def test_presets_are_named_by_their_key() -> None:
    assert list(PRESETS) == ["macedonian", "serbian", "polish51"]
    assert all(ruleset.name == name for name, ruleset in PRESETS.items())


def test_replace_makes_a_house_rule_copy() -> None:
    house = PRESETS["serbian"].replace(hand_needs_51=False)
    assert house.hand_needs_51 is False
    assert PRESETS["serbian"].hand_needs_51 is True


def test_replace_rejects_unknown_fields_by_name() -> None:
    with pytest.raises(ValueError, match="unknown ruleset field\\(s\\): jokerz"):
        PRESETS["serbian"].replace(jokerz=3)


def test_rulesets_are_frozen() -> None:
    with pytest.raises(AttributeError):
        PRESETS["serbian"].jokers = 2  # type: ignore[misc]


def test_from_dict_rejects_unknown_fields() -> None:
    data = PRESETS["macedonian"].to_dict() | {"colour": "red"}
    with pytest.raises(ValueError, match="unknown ruleset field\\(s\\): colour"):
        Ruleset.from_dict(data)


@pytest.mark.parametrize(
    ("field", "bad"),
    [
        ("jokers", "4"),
        ("jokers", 4.0),
        ("jokers", True),
        ("hand_size", None),
        ("upcard", 1),
        ("upcard", "yes"),
        ("name", 5),
        ("max_jokers_in_run_laid", "one"),
        ("discard_take", "whoever"),
        ("starter", 1),
        ("normal_close", {"winner": "-20"}),
        ("normal_close", {"winner": -20, "bogus": 1}),
        ("normal_close", [-20]),
        ("dry_hand_close", None),
        ("match_deals", [8, 9]),
        ("match_deals", [8, 9, "8"]),
        ("match_deals", "889"),
    ],
)
def test_from_dict_rejects_bad_values_naming_the_field(field: str, bad: Any) -> None:
    data = PRESETS["serbian"].to_dict() | {field: bad}
    with pytest.raises(ValueError, match=f"bad value for ruleset field '{field}'"):
        Ruleset.from_dict(data)


def test_from_dict_accepts_none_where_a_rule_is_optional() -> None:
    data = PRESETS["serbian"].to_dict() | {"royal_run_ace_value": None, "joker_close": None}
    ruleset = Ruleset.from_dict(data)
    assert ruleset.royal_run_ace_value is None
    assert ruleset.joker_close is None


def test_deals_in_a_match_follow_the_player_count() -> None:
    assert [PRESETS["serbian"].deals_in_match(n) for n in (2, 3, 4)] == [8, 9, 8]
    assert [PRESETS["polish51"].deals_in_match(n) for n in (2, 3, 4)] == [1, 1, 1]
    with pytest.raises(ValueError, match="serbian is played by 2-4"):
        PRESETS["serbian"].deals_in_match(5)
