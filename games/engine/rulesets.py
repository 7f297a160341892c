"""Rulesets: every difference between the rule families is a field here.

The presets of docs/rules.md are named values of ``Ruleset``. A game stores
the whole ruleset it was created with (``to_dict``/``from_dict``), so editing
a preset never changes a running game. House rules are presets copied with
overrides: ``PRESETS["serbian"].replace(hand_needs_51=False)``. Every field is
checked when a ruleset is built: a value out of its range raises ``ValueError``
naming the field.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

__all__ = [
    "MACEDONIAN",
    "MAX_SEATS",
    "PACK_DECKS",
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

# Two 52-card decks hold enough cards for six hands and a stock; the solver
# counts on at most two copies of a card, so the pack never grows a third deck.
PACK_DECKS: Final = 2
MAX_SEATS: Final = 6


class DiscardTake(Enum):
    """Who may take the top of the discard pile instead of drawing (docs/rules.md §5)."""

    OPENED_ONLY = "opened_only"
    ANYONE_MUST_OPEN = "anyone_must_open"  # unopened taker opens this turn or gives the card back
    ANYONE = "anyone"


class SetJokerSwap(Enum):
    """What a real card does to a set of three that holds a joker (docs/rules.md §6)."""

    SWAP_ONE = "swap_one"  # one missing suit frees the joker
    JOIN_ONLY = "join_only"  # the card joins (four cards), the joker stays
    SWAP_BOTH = "swap_both"  # both missing suits at once free it; one card closes the set


class StarterChoice(Enum):
    AFTER_DEALER = "after_dealer"
    RANDOM = "random"


@dataclass(frozen=True, slots=True)
class FinishScoring:
    """Scores for one way of going out (a row of docs/rules.md §8).

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

    def doubled(self) -> FinishScoring:
        """Every score of this row twice over (a close made with a joker)."""
        return FinishScoring(
            winner=self.winner * 2,
            multiplier=self.multiplier * 2,
            bonus=self.bonus * 2,
            unopened=None if self.unopened is None else self.unopened * 2,
        )


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Every switch of the rules; docs/rules.md describes each one per preset.

    ``display_name`` and ``description`` are what players read: left empty,
    they are made from ``name`` and from the switches themselves.
    """

    name: str
    display_name: str = ""
    description: str = ""
    # Cards and deal (§1, §2)
    jokers: int = 4
    hand_size: int = 14
    starter_extra_card: bool = True  # the starter is dealt one more card and skips the first draw
    upcard: bool = False  # the stock's top card starts the discard pile
    starter: StarterChoice = StarterChoice.AFTER_DEALER
    # Before the first deal each player draws a card: seats follow the cards (polish51).
    seating_by_card_draw: bool = False
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
    joker_close: FinishScoring | None = None  # a row of its own for closing with a joker
    # Without that row, closing with a joker doubles every score of the normal close.
    joker_close_doubles: bool = False
    mixed_hand_close: FinishScoring | None = None
    dry_hand_close: FinishScoring = FinishScoring(winner=-40, multiplier=2)
    # Match (§9): deals in a match with 2, 3, 4, 5 and 6 players (up to max_players)
    match_deals: tuple[int, ...] = (8, 9, 8, 10, 12)
    match_end_score: int | None = 501
    # Players (§2): a table seats min_players to max_players; a house rule may raise
    # max_players up to seat_limit, the most the family's rules seat.
    min_players: int = 2
    max_players: int = 4
    seat_limit: int = MAX_SEATS

    def __post_init__(self) -> None:
        if not self.display_name:
            object.__setattr__(self, "display_name", _default_display_name(self.name))
        if not self.description:
            object.__setattr__(self, "description", _summary(self))
        _validate(self)

    def replace(self, **changes: Any) -> Ruleset:
        """A copy with house-rule overrides; unknown fields or bad values raise ``ValueError``.

        A display name or description that was made from the switches is made
        again for the copy, so that it never describes other rules.
        """
        unknown = set(changes) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise ValueError(f"unknown ruleset field(s): {', '.join(sorted(unknown))}")
        if "display_name" not in changes and self.display_name == _default_display_name(self.name):
            changes["display_name"] = ""
        if "description" not in changes and self.description == _summary(self):
            changes["description"] = ""
        return dataclasses.replace(self, **changes)

    @property
    def joker_close_row(self) -> FinishScoring | None:
        """The scores of a close made by discarding a joker; None: as a normal close."""
        if self.joker_close is not None:
            return self.joker_close
        return self.normal_close.doubled() if self.joker_close_doubles else None

    def deals_in_match(self, players: int) -> int:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.name} is played by {self.min_players}-{self.max_players}")
        return self.match_deals[players - 2]

    def pack_size(self) -> int:
        """Cards in the pack: two decks and the jokers."""
        return PACK_DECKS * 52 + self.jokers

    def dealt_cards(self, players: int) -> int:
        """Cards that leave the pack before the first draw: the hands and the upcard."""
        return self.hand_size * players + int(self.starter_extra_card) + int(self.upcard)

    def stock_after_dealing(self, players: int) -> int:
        return self.pack_size() - self.dealt_cards(players)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict holding every field (what a game persists)."""
        # Every move's snapshot holds its ruleset: build the dict once per ruleset
        # object (by identity: equal rulesets may hold 1 where another holds True) and
        # hand out copies whose lists and dicts the caller may change.
        entry = _TO_DICT_CACHE.get(id(self))
        if entry is None or entry[0] is not self:
            entry = (self, self._to_dict())
            if len(_TO_DICT_CACHE) >= 256:
                _TO_DICT_CACHE.clear()
            _TO_DICT_CACHE[id(self)] = entry
        return {name: _fresh(value) for name, value in entry[1].items()}

    def _to_dict(self) -> dict[str, Any]:
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
_TO_DICT_CACHE: dict[int, tuple[Ruleset, dict[str, Any]]] = {}


def _fresh(value: Any) -> Any:
    """A copy of a list or dict of ``Ruleset.to_dict`` (their items are immutable)."""
    if type(value) is list:
        return list(value)
    if type(value) is dict:
        return dict(value)
    return value


def _coerce(name: str, kind: Any, value: Any) -> Any:
    try:
        if kind in (DiscardTake, SetJokerSwap, StarterChoice):
            return kind(value)
        if kind in ("finish", "finish?"):
            if value is None and kind == "finish?":
                return None
            return _finish(value)
        if kind == "deals":
            # One entry per player count from 2; stored games hold three (2-4 players).
            if not isinstance(value, list | tuple) or not 3 <= len(value) <= MAX_SEATS - 1:
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


# ---------------------------------------------------------------- checks

# The range of every number, inclusive; None is allowed where the field is optional.
# Wide enough for any house rule, narrow enough to keep a deal playable (and the
# solver's packed scores apart, see solver._HIGH).
_RANGES: Final[dict[str, tuple[int, int]]] = {
    "jokers": (0, 8),
    "hand_size": (3, 20),
    "max_reshuffles": (0, 10),
    "max_jokers_in_run_laid": (0, 8),
    "max_jokers_in_set": (0, 2),
    "opening_minimum": (0, 500),
    "ace_low_value": (0, 25),
    "ace_high_value": (0, 25),
    "royal_run_ace_value": (0, 51),
    "penalty_ace": (0, 100),
    "penalty_joker": (0, 100),
    "match_end_score": (1, 100_000),
    "min_players": (2, MAX_SEATS),
    "max_players": (2, MAX_SEATS),
    "seat_limit": (2, MAX_SEATS),
}
_FINISH_RANGES: Final[dict[str, tuple[int, int]]] = {
    "winner": (-10_000, 10_000),
    "multiplier": (0, 16),
    "bonus": (-1_000, 1_000),
    "unopened": (0, 10_000),
}
_DEALS_RANGE: Final = (1, 100)
_TEXT_LENGTHS: Final = {"name": 40, "display_name": 60, "description": 1500}
_FINISH_FIELDS: Final = ("normal_close", "joker_close", "mixed_hand_close", "dry_hand_close")


def _validate(ruleset: Ruleset) -> None:
    """Raise ``ValueError`` naming the first field whose value is out of its range."""
    if not ruleset.name.strip():
        raise _bad("name", ruleset.name, "a name is needed")
    for name, longest in _TEXT_LENGTHS.items():
        if len(getattr(ruleset, name)) > longest:
            raise _bad(name, getattr(ruleset, name)[:20] + "…", f"at most {longest} characters")
    for name, (low, high) in _RANGES.items():
        _check_range(name, getattr(ruleset, name), low, high)
    for name in _FINISH_FIELDS:
        row = getattr(ruleset, name)
        if row is None:
            continue
        for part, (low, high) in _FINISH_RANGES.items():
            _check_range(f"{name}.{part}", getattr(row, part), low, high)
    _validate_players(ruleset)


def _validate_players(ruleset: Ruleset) -> None:
    if ruleset.min_players > ruleset.max_players:
        raise _bad("min_players", ruleset.min_players, "more than max_players")
    if ruleset.max_players > ruleset.seat_limit:
        raise _bad(
            "max_players",
            ruleset.max_players,
            f"{ruleset.name} seats at most {ruleset.seat_limit} players",
        )
    deals = ruleset.match_deals
    if not ruleset.max_players - 1 <= len(deals) <= MAX_SEATS - 1:
        raise _bad(
            "match_deals",
            list(deals),
            f"one entry per player count from 2 to {ruleset.max_players} (at most {MAX_SEATS})",
        )
    for count in deals:
        _check_range("match_deals", count, *_DEALS_RANGE)
    stock = ruleset.stock_after_dealing(ruleset.max_players)
    if stock < ruleset.max_players:
        raise _bad(
            "hand_size",
            ruleset.hand_size,
            f"{ruleset.max_players} hands leave {max(stock, 0)} of the {ruleset.pack_size()} "
            f"cards for the stock; it needs at least one per player",
        )


def _check_range(name: str, value: int | None, low: int, high: int) -> None:
    if value is not None and not low <= value <= high:
        raise _bad(name, value, f"must be from {low} to {high}")


def _bad(name: str, value: object, why: str) -> ValueError:
    return ValueError(f"bad value for ruleset field {name!r}: {value!r} ({why})")


def _default_display_name(name: str) -> str:
    return name.replace("_", " ").strip().capitalize()


def _summary(ruleset: Ruleset) -> str:
    """A one-paragraph description made from the switches (for rulesets given none)."""
    deal = f"{ruleset.hand_size} cards each"
    if ruleset.starter_extra_card:
        deal += f", the starter {ruleset.hand_size + 1} and no first draw"
    if ruleset.upcard:
        deal += ", an upcard starts the discard pile"
    taking = {
        DiscardTake.OPENED_ONLY: "only a player who has opened may take the discard",
        DiscardTake.ANYONE_MUST_OPEN: "anyone may take the discard but must open in that turn",
        DiscardTake.ANYONE: "anyone may take the discard",
    }[ruleset.discard_take]
    first_round = ", not in a player's first turn" if ruleset.no_opening_in_first_round else ""
    if set(ruleset.match_deals[ruleset.min_players - 2 : ruleset.max_players - 1]) == {1}:
        match = "one deal decides the match"
    else:
        match = f"a match lasts {_deal_counts(ruleset)} deals"
    if ruleset.match_end_score is not None:
        match += f" or ends when a total reaches {ruleset.match_end_score}"
    return (
        f"{ruleset.display_name}: {ruleset.min_players} to {ruleset.max_players} players, "
        f"two decks and {ruleset.jokers} jokers, {deal}. The first melds must be worth "
        f"{ruleset.opening_minimum}{first_round}; {taking}. Going out scores "
        f"{ruleset.normal_close.winner} for the winner; {match}."
    )


def _deal_counts(ruleset: Ruleset) -> str:
    counts = ruleset.match_deals[ruleset.min_players - 2 : ruleset.max_players - 1]
    return "/".join(str(count) for count in counts)


_FIELD_TYPES: Final[dict[str, Any]] = {
    "name": str,
    "display_name": str,
    "description": str,
    "jokers": int,
    "hand_size": int,
    "starter_extra_card": bool,
    "upcard": bool,
    "starter": StarterChoice,
    "seating_by_card_draw": bool,
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
    "joker_close_doubles": bool,
    "mixed_hand_close": "finish?",
    "dry_hand_close": "finish",
    "match_deals": "deals",
    "match_end_score": "int?",
    "min_players": int,
    "max_players": int,
    "seat_limit": int,
}

# ---------------------------------------------------------------- presets

MACEDONIAN: Final = Ruleset(
    name="macedonian",
    display_name="Macedonian Remi",
    description=(
        "The rules of the Macedonian Remi program: two decks and four jokers, 14 cards "
        "each and 15 to the starter, who only discards in the first turn. Nobody lays "
        "down in their first turn; the first melds must be worth 51, and only a player "
        "who has opened may take the discard. An ace counts 10 wherever it stands. Going "
        "out scores -20, or -40 with everyone else's cards counted twice when the last "
        "card is a joker or the whole hand goes down at once; the text leaves scoring to "
        "the players' agreement, so every score is a house rule. 2 to 4 players (up to 6 "
        "by house rule); 8, 9 or 8 deals, ending early at 501."
    ),
    no_opening_in_first_round=True,
    normal_close=FinishScoring(winner=-20),
    joker_close_doubles=True,
    dry_hand_close=FinishScoring(winner=-40, multiplier=2),
)

SERBIAN: Final = Ruleset(
    name="serbian",
    display_name="Serbian Remi",
    description=(
        "As on the Serbian Remi site: two decks and four jokers, 14 cards each and 15 to "
        "the starter, who skips the first draw. Anyone may take the discard, but a player "
        "who has not opened must open in that turn or give the card back (and may undo "
        "the take while nothing else was done). A run goes down with at most one joker; a "
        "low ace counts 1 and 10-J-Q-K-A counts 51. Going out scores -40, a mixed hand "
        "-140 with the others' cards counted twice and a dry hand -280 with them counted "
        "four times; a player who never opened scores 100 (200, 400) instead. 2 to 4 "
        "players; 8, 9 or 8 deals, ending early at 501."
    ),
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
    match_deals=(8, 9, 8),
    seat_limit=4,
)

# "Old remi" as the serbian site's forum remembers it: its scoring, and a hand
# that needs no 51 ("U starom remiju je postojalo pravilo da za hand nije potreban
# zbir 51.").
SERBIAN_OLD_REMI: Final = SERBIAN.replace(
    name="serbian_old_remi",
    display_name="Serbian old Remi",
    description=(
        'Serbian Remi with the scoring of "old remi" from the site\'s forum: a mixed '
        "hand scores -80 with the others' cards counted once (100 for a player who never "
        "opened) and a dry hand -140 with them counted twice (200). A hand needs no 51: "
        "a player who lays down everything but the last card in one turn goes out "
        "whatever the melds are worth. Everything else as Serbian Remi."
    ),
    hand_needs_51=False,
    mixed_hand_close=FinishScoring(winner=-80, multiplier=1, unopened=100),
    dry_hand_close=FinishScoring(winner=-140, multiplier=2, unopened=200),
)

POLISH51: Final = Ruleset(
    name="polish51",
    display_name="Polish Remik 51",
    description=(
        "Remik 51 as played in Polish online rooms: two decks and two jokers, 13 cards "
        "each, and the stock's top card starts the discard pile. Anyone may take the "
        "discard; the first melds must be worth 51, a low ace counting 1 and a high ace "
        "11. A joker in a set of three comes back only for both missing suits at once. "
        "Cards left in hand cost their value, an ace 11 and a joker 25; a remik "
        "(everything laid down at once) adds 25 to each other player. One deal decides; "
        "2 to 4 players, up to 6 by house rule."
    ),
    jokers=2,
    hand_size=13,
    starter_extra_card=False,
    upcard=True,
    starter=StarterChoice.RANDOM,
    seating_by_card_draw=True,
    ace_low_value=1,
    ace_high_value=11,
    discard_take=DiscardTake.ANYONE,
    set_of_three_joker=SetJokerSwap.SWAP_BOTH,
    set_of_four_joker_swap=False,
    penalty_ace=11,
    penalty_joker=25,
    normal_close=FinishScoring(winner=0),
    dry_hand_close=FinishScoring(winner=0, bonus=25),
    match_deals=(1, 1, 1, 1, 1),
    match_end_score=None,
)

# Every named variant a game may be created from, keyed by its name.
PRESETS: Final[dict[str, Ruleset]] = {
    ruleset.name: ruleset for ruleset in (MACEDONIAN, SERBIAN, SERBIAN_OLD_REMI, POLISH51)
}

# Presets whose source leaves the scores to the players' agreement: the players set the
# scoring fields (the closes, the unopened penalty, the multipliers) as house rules.
SCORING_BY_AGREEMENT: Final[frozenset[str]] = frozenset({MACEDONIAN.name})
