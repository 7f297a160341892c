"""Rulesets: every rule difference is a field; presets round-trip (docs/rules.md intro)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from games.engine import PRESETS, FinishScoring, Ruleset
from games.engine.rulesets import SERBIAN_OLD_REMI

EVERY_RULESET = list(PRESETS.values())


@pytest.mark.parametrize("ruleset", EVERY_RULESET, ids=lambda ruleset: ruleset.name)
def test_to_dict_round_trips_through_json(ruleset: Ruleset) -> None:
    stored = json.loads(json.dumps(ruleset.to_dict()))
    assert Ruleset.from_dict(stored) == ruleset


def test_to_dict_gives_a_dict_of_its_own_each_time() -> None:
    # A caller may change the dict it got (its lists and nested dicts too): the next
    # caller still gets the ruleset as it is.
    ruleset = PRESETS["serbian"]
    changed = ruleset.to_dict()
    changed["name"] = "changed"
    changed["match_deals"].append(99)
    changed["normal_close"]["winner"] = 99
    fresh = ruleset.to_dict()
    assert fresh["name"] == "serbian"
    assert fresh["match_deals"] == list(ruleset.match_deals)
    assert fresh["normal_close"] == dataclasses.asdict(ruleset.normal_close)
    assert Ruleset.from_dict(fresh) == ruleset


def test_to_dict_of_each_of_two_equal_rulesets_holds_its_own_values() -> None:
    # 0 == False: rulesets built with either are equal, yet each is stored as it holds it.
    as_number = dataclasses.replace(PRESETS["serbian"], upcard=0)  # type: ignore[arg-type]
    as_flag = dataclasses.replace(PRESETS["serbian"], upcard=False)
    assert as_number == as_flag
    assert as_flag.to_dict()["upcard"] is False
    assert as_number.to_dict()["upcard"] == 0
    assert as_number.to_dict()["upcard"] is not False


def test_presets_are_named_by_their_key() -> None:
    assert list(PRESETS) == ["macedonian", "serbian", "serbian_old_remi", "polish51"]
    assert all(ruleset.name == name for name, ruleset in PRESETS.items())


def test_old_remi_is_a_preset_of_its_own() -> None:
    assert PRESETS["serbian_old_remi"] is SERBIAN_OLD_REMI


@pytest.mark.parametrize("ruleset", EVERY_RULESET, ids=lambda ruleset: ruleset.name)
def test_every_preset_has_its_own_display_name_and_a_one_paragraph_description(
    ruleset: Ruleset,
) -> None:
    assert ruleset.display_name and ruleset.display_name != ruleset.name
    assert len(ruleset.description) > 200
    assert "\n" not in ruleset.description
    others = [other for other in EVERY_RULESET if other is not ruleset]
    assert ruleset.display_name not in {other.display_name for other in others}
    assert ruleset.description not in {other.description for other in others}


def test_a_ruleset_given_no_names_gets_them_from_its_switches() -> None:
    house = Ruleset(name="house_rules", hand_size=12, max_players=6)
    assert house.display_name == "House rules"
    assert house.description.startswith("House rules: 2 to 6 players, two decks and 4 jokers")
    assert "12 cards each, the starter 13" in house.description
    assert "8/9/8/10/12 deals" in house.description


def test_replace_makes_names_made_from_the_switches_again_but_keeps_written_ones() -> None:
    house = Ruleset(name="house_rules")
    changed = house.replace(name="table_nine", hand_size=12)
    assert changed.display_name == "Table nine"
    assert "12 cards each" in changed.description
    assert PRESETS["serbian"].replace(hand_size=12).description == PRESETS["serbian"].description


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
        ("match_deals", [8, 9, 8, 10, 12, 14]),
        ("match_deals", "889"),
        ("joker_close_doubles", "no"),
        ("seat_limit", None),
        ("display_name", None),
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


def test_stored_rulesets_from_before_the_newer_fields_still_load() -> None:
    # A game stores its ruleset whole; older games lack the names, the joker-close
    # switch and the seat limit, and list deals for 2-4 players only.
    stored = PRESETS["serbian"].to_dict()
    for field in ("display_name", "description", "joker_close_doubles", "seat_limit"):
        del stored[field]
    stored["match_deals"] = [8, 9, 8]
    loaded = Ruleset.from_dict(stored)
    assert loaded.deals_in_match(4) == 8
    assert loaded.display_name == "Serbian"
    assert loaded.joker_close_doubles is False


# ---------------------------------------------------------------- ranges


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"jokers": -1}, "jokers"),
        ({"jokers": 9}, "jokers"),
        ({"hand_size": 2}, "hand_size"),
        ({"hand_size": 21}, "hand_size"),
        ({"max_reshuffles": -1}, "max_reshuffles"),
        ({"opening_minimum": -5}, "opening_minimum"),
        ({"ace_low_value": 26}, "ace_low_value"),
        ({"royal_run_ace_value": -1}, "royal_run_ace_value"),
        ({"penalty_ace": -10}, "penalty_ace"),
        ({"penalty_joker": 101}, "penalty_joker"),
        ({"normal_close": FinishScoring(winner=-20_000)}, "normal_close.winner"),
        ({"normal_close": FinishScoring(winner=-40, multiplier=-1)}, "normal_close.multiplier"),
        ({"dry_hand_close": FinishScoring(winner=-40, bonus=5000)}, "dry_hand_close.bonus"),
        ({"joker_close": FinishScoring(winner=-40, unopened=-100)}, "joker_close.unopened"),
        (
            {"mixed_hand_close": FinishScoring(winner=0, multiplier=17)},
            "mixed_hand_close.multiplier",
        ),
        ({"match_deals": (8, 0, 8)}, "match_deals"),
        ({"match_deals": (8, 9)}, "match_deals"),
        ({"max_players": 5, "match_deals": (8, 9, 8)}, "match_deals"),
        ({"match_end_score": 0}, "match_end_score"),
        ({"min_players": 1}, "min_players"),
        ({"min_players": 4, "max_players": 3}, "min_players"),
        ({"seat_limit": 7}, "seat_limit"),
        ({"max_players": 5, "seat_limit": 4}, "max_players"),
        ({"name": " "}, "name"),
        ({"display_name": "x" * 61}, "display_name"),
        ({"description": "x" * 1501}, "description"),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_a_ruleset_out_of_range_is_refused_naming_the_field(
    changes: dict[str, Any], field: str
) -> None:
    with pytest.raises(ValueError, match=f"bad value for ruleset field '{field}'"):
        PRESETS["macedonian"].replace(**changes)
    stored = PRESETS["macedonian"].to_dict() | _as_json(changes)
    with pytest.raises(ValueError, match=f"bad value for ruleset field '{field}'"):
        Ruleset.from_dict(stored)


def _as_json(changes: dict[str, Any]) -> dict[str, Any]:
    """House-rule overrides as a client sends them (JSON values)."""
    out: dict[str, Any] = {}
    for key, value in changes.items():
        if isinstance(value, FinishScoring):
            value = dataclasses.asdict(value)
        elif isinstance(value, tuple):
            value = list(value)
        out[key] = value
    return out


def test_the_range_error_says_what_the_range_is() -> None:
    with pytest.raises(ValueError) as caught:
        PRESETS["macedonian"].replace(normal_close=FinishScoring(winner=-20, multiplier=-1))
    assert str(caught.value) == (
        "bad value for ruleset field 'normal_close.multiplier': -1 (must be from 0 to 16)"
    )


def test_every_score_is_a_plain_field_a_table_may_agree_on() -> None:
    # The Macedonian text: scoring "најчесто е договор меѓу играчите" (mostly agreed
    # between the players); the program's own scoring is just one choice.
    agreed = PRESETS["macedonian"].replace(
        normal_close=FinishScoring(winner=-30, unopened=50),
        dry_hand_close=FinishScoring(winner=-60, multiplier=3),
        joker_close_doubles=False,
        penalty_ace=15,
        penalty_joker=30,
    )
    assert Ruleset.from_dict(json.loads(json.dumps(agreed.to_dict()))) == agreed
    assert agreed.joker_close_row is None


def test_the_joker_close_row_is_its_own_row_or_the_normal_close_doubled() -> None:
    macedonian = PRESETS["macedonian"]
    assert macedonian.joker_close_row == FinishScoring(winner=-40, multiplier=2)
    serbian = PRESETS["serbian"]
    assert serbian.joker_close_row is None
    assert serbian.replace(joker_close_doubles=True).joker_close_row == FinishScoring(
        winner=-80, multiplier=2, unopened=200
    )
    own = FinishScoring(winner=-50, multiplier=3)
    assert macedonian.replace(joker_close=own).joker_close_row == own
