"""Rulesets: every difference between the rule families is a field here.

The three presets of RULES.md are named values of ``Ruleset``. A game stores
the whole ruleset it was created with (``to_dict``/``from_dict``), so editing
a preset never changes a running game. House rules are presets copied with
overrides: ``PRESETS["serbian"].replace(hand_needs_51=False)``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

__all__ = [
    "MACEDONIAN",
    "POLISH51",
    "PRESETS",
    "SERBIAN",
    "SERBIAN_OLD_REMI",
    "DiscardTake",
    "FinishScoring",
    "Ruleset",
    "SetJokerSwap",
    "StarterChoice",
]


class DiscardTake(Enum):
    """Who may take the top of the discard pile instead of drawing (RULES.md §5)."""

    OPENED_ONLY = "opened_only"
    ANYONE_MUST_OPEN = "anyone_must_open"  # unopened taker opens this turn or gives the card back
    ANYONE = "anyone"


class SetJokerSwap(Enum):
    """What a real card does to a set of three that holds a joker (RULES.md §6)."""

    SWAP_ONE = "swap_one"  # one missing suit frees the joker
    JOIN_ONLY = "join_only"  # the card joins (four cards), the joker stays
    SWAP_BOTH = "swap_both"  # both missing suits at once free it; one card closes the set


class StarterChoice(Enum):
    AFTER_DEALER = "after_dealer"
    RANDOM = "random"


@dataclass(frozen=True, slots=True)
class FinishScoring:
    """Scores for one way of going out (a row of RULES.md §8).

    The winner scores ``winner``. Every other seat scores ``unopened`` if it
    never opened in the deal and ``unopened`` is set, else its hand penalty
    times ``multiplier`` plus ``bonus``.
    """

    winner: int
    multiplier: int = 1
    bonus: int = 0
    unopened: int | None = None

    def loser_score(self, penalty: int, *, opened: bool) -> int:
        if not opened and self.unopened is not None:
            return self.unopened
        return penalty * self.multiplier + self.bonus


@dataclass(frozen=True, slots=True)
class Ruleset:
    name: str
    # Cards and deal (§1, §2)
    jokers: int = 4
    hand_size: int = 14
    starter_extra_card: bool = True  # the starter is dealt one more card and skips the first draw
    upcard: bool = False  # the stock's top card starts the discard pile
    starter: StarterChoice = StarterChoice.AFTER_DEALER
    max_reshuffles: int = 2  # the stock running out once more makes the deal void
    # Melds and jokers (§3)
    max_jokers_in_run_laid: int | None = None  # None: any number (never side by side)
    max_jokers_in_set: int = 1
    # Opening (§4)
    opening_minimum: int = 51
    no_opening_in_first_round: bool = False
    ace_low_value: int = 10
    ace_high_value: int = 10  # also an ace in a set
    royal_run_ace_value: int | None = None  # serbian: the ace of a run with 10-J-Q-K counts 11
    # Taking the discard (§5)
    discard_take: DiscardTake = DiscardTake.OPENED_ONLY
    discard_take_undo: bool = False
    # Joker swaps (§6)
    set_of_three_joker: SetJokerSwap = SetJokerSwap.SWAP_ONE
    set_of_four_joker_swap: bool = True
    # Going out (§7)
    mixed_hand: bool = False  # laying off onto others' melds during a hand makes a "mixed hand"
    hand_needs_51: bool = True
    # Scoring (§8)
    penalty_ace: int = 10
    penalty_joker: int = 20
    normal_close: FinishScoring = FinishScoring(winner=-20)
    joker_close: FinishScoring | None = None  # None: as a normal close
    mixed_hand_close: FinishScoring | None = None
    dry_hand_close: FinishScoring = FinishScoring(winner=-40, multiplier=2)
    # Match (§9): deals in a match with 2, 3 and 4 players
    match_deals: tuple[int, int, int] = (8, 9, 8)
    match_end_score: int | None = 501
    min_players: int = 2
    max_players: int = 4

    def replace(self, **changes: Any) -> Ruleset:
        """A copy with house-rule overrides; unknown fields raise ``ValueError``."""
        unknown = set(changes) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise ValueError(f"unknown ruleset field(s): {', '.join(sorted(unknown))}")
        return dataclasses.replace(self, **changes)

    def deals_in_match(self, players: int) -> int:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.name} is played by {self.min_players}-{self.max_players}")
        return self.match_deals[players - 2]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict holding every field (what a game persists)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Enum):
                value = value.value
            elif isinstance(value, FinishScoring):
                value = dataclasses.asdict(value)
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Ruleset:
        """Inverse of ``to_dict``; raises ``ValueError`` naming a bad field."""
        # Every stored deal carries its ruleset, and a server reads one per
        # move: remember the few rulesets in play rather than re-check them.
        key = repr(data)
        cached = _FROM_DICT_CACHE.get(key)
        if cached is None:
            cached = cls._from_dict(data)
            if len(_FROM_DICT_CACHE) >= 256:
                _FROM_DICT_CACHE.clear()
            _FROM_DICT_CACHE[key] = cached
        return cached

    @classmethod
    def _from_dict(cls, data: dict[str, Any]) -> Ruleset:
        kwargs: dict[str, Any] = {}
        unknown = set(data) - set(_FIELD_TYPES)
        if unknown:
            raise ValueError(f"unknown ruleset field(s): {', '.join(sorted(unknown))}")
        for name, value in data.items():
            kwargs[name] = _coerce(name, _FIELD_TYPES[name], value)
        return cls(**kwargs)


_FROM_DICT_CACHE: dict[str, Ruleset] = {}


def _coerce(name: str, kind: Any, value: Any) -> Any:
    try:
        if kind in (DiscardTake, SetJokerSwap, StarterChoice):
            return kind(value)
        if kind in ("finish", "finish?"):
            if value is None and kind == "finish?":
                return None
            return _finish(value)
        if kind == "tuple3":
            if not isinstance(value, list | tuple) or len(value) != 3:
                raise ValueError
            return tuple(_strict_int(v) for v in value)
        if kind is bool:
            if not isinstance(value, bool):
                raise ValueError
            return value
        if kind in (int, "int?"):
            if value is None and kind == "int?":
                return None
            return _strict_int(value)
        if kind is str and isinstance(value, str):
            return value
    except (TypeError, ValueError):
        pass
    raise ValueError(f"bad value for ruleset field {name!r}: {value!r}")


def _strict_int(value: Any) -> int:
    # bool is an int subclass, and "3" or 3.0 in stored JSON is a bug, not a number.
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError
    return value


def _finish(value: Any) -> FinishScoring:
    if not isinstance(value, dict):
        raise ValueError
    unopened = value.get("unopened")
    fields = {key: item for key, item in value.items() if key != "unopened"}
    return FinishScoring(
        **{key: _strict_int(item) for key, item in fields.items()},
        unopened=None if unopened is None else _strict_int(unopened),
    )


_FIELD_TYPES: Final[dict[str, Any]] = {
    "name": str,
    "jokers": int,
    "hand_size": int,
    "starter_extra_card": bool,
    "upcard": bool,
    "starter": StarterChoice,
    "max_reshuffles": int,
    "max_jokers_in_run_laid": "int?",
    "max_jokers_in_set": int,
    "opening_minimum": int,
    "no_opening_in_first_round": bool,
    "ace_low_value": int,
    "ace_high_value": int,
    "royal_run_ace_value": "int?",
    "discard_take": DiscardTake,
    "discard_take_undo": bool,
    "set_of_three_joker": SetJokerSwap,
    "set_of_four_joker_swap": bool,
    "mixed_hand": bool,
    "hand_needs_51": bool,
    "penalty_ace": int,
    "penalty_joker": int,
    "normal_close": "finish",
    "joker_close": "finish?",
    "mixed_hand_close": "finish?",
    "dry_hand_close": "finish",
    "match_deals": "tuple3",
    "match_end_score": "int?",
    "min_players": int,
    "max_players": int,
}

MACEDONIAN: Final = Ruleset(
    name="macedonian",
    no_opening_in_first_round=True,
    normal_close=FinishScoring(winner=-20),
    joker_close=FinishScoring(winner=-40, multiplier=2),
    dry_hand_close=FinishScoring(winner=-40, multiplier=2),
)

SERBIAN: Final = Ruleset(
    name="serbian",
    max_jokers_in_run_laid=1,
    ace_low_value=1,
    royal_run_ace_value=11,
    discard_take=DiscardTake.ANYONE_MUST_OPEN,
    discard_take_undo=True,
    set_of_three_joker=SetJokerSwap.JOIN_ONLY,
    mixed_hand=True,
    normal_close=FinishScoring(winner=-40, unopened=100),
    mixed_hand_close=FinishScoring(winner=-140, multiplier=2, unopened=200),
    dry_hand_close=FinishScoring(winner=-280, multiplier=4, unopened=400),
)

# The forum's "old remi" scoring, offered as a house rule of the serbian preset.
SERBIAN_OLD_REMI: Final = SERBIAN.replace(
    name="serbian_old_remi",
    mixed_hand_close=FinishScoring(winner=-80, multiplier=1, unopened=100),
    dry_hand_close=FinishScoring(winner=-140, multiplier=2, unopened=200),
)

POLISH51: Final = Ruleset(
    name="polish51",
    jokers=2,
    hand_size=13,
    starter_extra_card=False,
    upcard=True,
    starter=StarterChoice.RANDOM,
    ace_low_value=1,
    ace_high_value=11,
    discard_take=DiscardTake.ANYONE,
    set_of_three_joker=SetJokerSwap.SWAP_BOTH,
    set_of_four_joker_swap=False,
    penalty_ace=11,
    penalty_joker=25,
    normal_close=FinishScoring(winner=0),
    dry_hand_close=FinishScoring(winner=0, bonus=25),
    match_deals=(1, 1, 1),
    match_end_score=None,
)

PRESETS: Final[dict[str, Ruleset]] = {r.name: r for r in (MACEDONIAN, SERBIAN, POLISH51)}
