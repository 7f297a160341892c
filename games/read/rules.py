"""The rules pages: each preset's rules from its ruleset, in the rows of docs/rules.md.

Everything comes from ``PRESETS`` and ``rules_doc`` (the generator of the document's
tables), so the pages, the document and the engine cannot disagree. A game's house
rules are the fields of its stored ruleset that differ from its preset's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games import rule_words
from games.engine import PRESETS, Ruleset
from games.engine.rules_doc import field_rows
from games.engine.rulesets import MAX_SEATS
from games.engine_words import preset_description, preset_display_name
from games.models import Game


def presets_index() -> list[dict[str, Any]]:
    """Every preset: its id, name and description, in the order the engine lists them."""
    return [
        {
            "name": ruleset.name,
            "display_name": preset_display_name(ruleset.name),
            "description": preset_description(ruleset.name),
        }
        for ruleset in PRESETS.values()
    ]


def preset_rules(preset: str) -> dict[str, Any] | None:
    """One preset's rules (None for an unknown preset): every field with what it means and
    its value, and the cards dealt and left in the stock for each number of players."""
    ruleset = PRESETS.get(preset)
    if ruleset is None:
        return None
    return {
        "name": ruleset.name,
        "display_name": preset_display_name(ruleset.name),
        "description": preset_description(ruleset.name),
        "fields": [
            {
                "name": name,
                "title": rule_words.title(name),
                "meaning": rule_words.meaning(name),
                "value": rule_words.value(getattr(ruleset, name)),
            }
            for name, _meaning, _value in field_rows(ruleset)
            if name not in _NOT_HOUSE_RULES  # the id is in the address, the name above
        ],
        "stock": [
            {
                "players": count,
                "dealt": ruleset.dealt_cards(count),
                "stock": ruleset.stock_after_dealing(count),
            }
            for count in range(ruleset.min_players, min(ruleset.seat_limit, MAX_SEATS) + 1)
        ],
        "pack_size": ruleset.pack_size(),
    }


def house_rules(game: Game) -> list[dict[str, Any]]:
    """The fields of ``game``'s ruleset that differ from its preset's: name, meaning,
    the preset's value and the game's (empty for a game played by the book)."""
    return house_rules_of(game.preset, game.ruleset)


def house_rules_of(preset_name: str, ruleset: Mapping[str, Any]) -> list[dict[str, Any]]:
    """``house_rules`` of a stored ruleset played from ``preset_name``, in words of the
    active language."""
    return [
        {
            "name": name,
            "meaning": rule_words.meaning(name),
            "preset": rule_words.value(by_book),
            "game": rule_words.value(value),
        }
        for name, by_book, value in _differences(preset_name, repr(ruleset), ruleset)
    ]


_DIFFERENCES_CACHE: dict[tuple[str, str], list[tuple[str, object, object]]] = {}


def _differences(
    preset_name: str, key: str, ruleset: Mapping[str, Any]
) -> list[tuple[str, object, object]]:
    """The differing fields (the preset's value and the game's), remembered: every list
    and view of a game asks again."""
    found = _DIFFERENCES_CACHE.get((preset_name, key))
    if found is not None:
        return found
    preset = PRESETS.get(preset_name)
    found = []
    if preset is not None:
        game = Ruleset.from_dict(dict(ruleset))
        by_book = {name: value for name, _meaning, value in field_rows(preset)}
        found = [
            (name, getattr(preset, name), getattr(game, name))
            for name, _meaning, value in field_rows(game)
            if name not in _NOT_HOUSE_RULES and value != by_book[name]
        ]
    if len(_DIFFERENCES_CACHE) >= 256:
        _DIFFERENCES_CACHE.clear()
    _DIFFERENCES_CACHE[(preset_name, key)] = found
    return found


# The id, and the words made from the switches (they follow the switches that differ).
_NOT_HOUSE_RULES = frozenset({"name", "display_name", "description"})
