"""The built-in bots' measured strength, as the bots page and a bot's page show it.

The figures are ``bench/bots.py --json-out``'s (``BOT_STRENGTH_FILE``, by default
``games/bots/measured_strength.json``): 2-player duplicate deals of each level against
the others, per preset, with each win rate's 95 % interval. The file is read once per
process and checked whole: a file that is missing, or that breaks its format anywhere,
counts as no measurement at all (a page never shows an invented or half-read figure),
and a level with no pairing in it is "not measured yet".

Each level also has a difficulty name. The names order the levels; whether the
measurement bears the order out is said beside them (``stronger_than_below``): a level
whose lead over the one below is within the interval in some preset is not called
stronger there.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils.translation import gettext, gettext_noop

from games.engine import PRESETS
from games.read.catalogue import preset_name

logger = logging.getLogger(__name__)

LEVELS = (1, 2, 3, 4)

# The difficulty people choose by, weakest first (the level numbers stay).
LEVEL_NAMES = {
    1: gettext_noop("Beginner"),
    2: gettext_noop("Easy"),
    3: gettext_noop("Medium"),
    4: gettext_noop("Hard"),
}


class MalformedStrength(ValueError):
    """The measurement file does not follow its format (the message says where)."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """One level against another in one preset: ``win_rate`` of ``deals`` duplicate
    deals, within ``± interval`` (95 %)."""

    preset: str
    level: int
    opponent: int
    deals: int
    win_rate: float
    interval: float

    @property
    def significant(self) -> bool:
        """Whether the level's edge is outside the interval (a real lead or lag)."""
        return abs(self.win_rate - 0.5) > self.interval


@dataclass(frozen=True, slots=True)
class Measurement:
    command: str
    measured_at: datetime
    pairings: tuple[Pairing, ...]


def level_name(level: int | None) -> str:
    """A built-in level's difficulty in the active language ('' for another)."""
    name = LEVEL_NAMES.get(level or 0)
    return gettext(name) if name else ""


def measurement() -> Measurement | None:
    """The measured figures, or None when there are none to show."""
    return _load(str(settings.BOT_STRENGTH_FILE))


def level_strength(level: int) -> dict[str, Any]:
    """What a page shows of ``level``'s strength, in the active language: its
    difficulty name, when it was measured and, per preset (the presets' order), its
    win rate against each other level (``measured`` false when there is none)."""
    found = measurement()
    pairings = [] if found is None else _seen_from(level, found.pairings)
    presets = []
    for preset in PRESETS:
        rows = sorted((p for p in pairings if p.preset == preset), key=lambda p: p.opponent)
        if rows:
            presets.append({"preset": preset, "name": preset_name(preset), "pairings": _rows(rows)})
    below = [p for p in pairings if p.opponent == level - 1]
    return {
        "level": level,
        "name": level_name(level),
        "measured": bool(presets),
        "measured_at": None if found is None or not presets else found.measured_at,
        "command": "" if found is None else found.command,
        "presets": presets,
        # None: not measured against the level below (or the weakest level).
        "stronger_than_below": (
            all(p.significant and p.win_rate > 0.5 for p in below) if below else None
        ),
    }


def ladder() -> dict[int, dict[str, Any]]:
    """``level_strength`` of every built-in level."""
    return {level: level_strength(level) for level in LEVELS}


def _seen_from(level: int, pairings: tuple[Pairing, ...]) -> list[Pairing]:
    """Every pairing of ``level``, as its own: one measured the other way round (the
    other level against it) counts with the complementary win rate, unless the file
    also has it this way round."""
    own = [p for p in pairings if p.level == level]
    measured = {(p.preset, p.opponent) for p in own}
    mirrored = [
        Pairing(p.preset, level, p.level, p.deals, 1.0 - p.win_rate, p.interval)
        for p in pairings
        if p.opponent == level and (p.preset, p.level) not in measured
    ]
    return own + mirrored


def _rows(pairings: list[Pairing]) -> list[dict[str, Any]]:
    return [
        {
            "opponent": p.opponent,
            "opponent_name": level_name(p.opponent),
            "deals": p.deals,
            "win_rate": p.win_rate,
            "interval": p.interval,
            "significant": p.significant,
        }
        for p in pairings
    ]


@cache
def _load(path: str) -> Measurement | None:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        logger.warning("bot strength file %s unreadable: %s", path, error)
        return None
    try:
        return parse_measurement(data)
    except MalformedStrength as error:
        logger.warning("bot strength file %s ignored: %s", path, error)
        return None


def parse_measurement(data: Any) -> Measurement:
    """``data`` (the file's JSON) checked and read; raises ``MalformedStrength``."""
    if not isinstance(data, dict):
        raise MalformedStrength("the file is not a JSON object")
    command = data.get("command")
    if not isinstance(command, str):
        raise MalformedStrength("'command' is not a string")
    try:
        measured_at = datetime.fromisoformat(str(data.get("measured_at")))
    except ValueError:
        raise MalformedStrength("'measured_at' is not an ISO 8601 moment") from None
    if measured_at.tzinfo is None:
        raise MalformedStrength("'measured_at' has no time zone")
    pairings = data.get("pairings")
    if not isinstance(pairings, list):
        raise MalformedStrength("'pairings' is not a list")
    return Measurement(
        command=command,
        measured_at=measured_at,
        pairings=tuple(_pairing(index, row) for index, row in enumerate(pairings)),
    )


def _pairing(index: int, row: Any) -> Pairing:
    where = f"pairing {index}"
    if not isinstance(row, dict):
        raise MalformedStrength(f"{where} is not an object")
    preset, level, opponent = row.get("preset"), row.get("level"), row.get("opponent")
    if preset not in PRESETS:
        raise MalformedStrength(f"{where}: no preset {preset!r}")
    if level not in LEVELS or opponent not in LEVELS or level == opponent:
        raise MalformedStrength(f"{where}: levels {level!r} against {opponent!r}")
    deals: Any = row.get("deals")
    win_rate: Any = row.get("win_rate")
    interval: Any = row.get("interval")
    if not isinstance(deals, int) or isinstance(deals, bool) or deals <= 0:
        raise MalformedStrength(f"{where}: deals {deals!r}")
    if not _number(win_rate) or not 0.0 <= win_rate <= 1.0:
        raise MalformedStrength(f"{where}: win_rate {win_rate!r}")
    if not _number(interval) or not 0.0 <= interval <= 1.0:
        raise MalformedStrength(f"{where}: interval {interval!r}")
    return Pairing(
        preset=preset,
        level=level,
        opponent=opponent,
        deals=deals,
        win_rate=float(win_rate),
        interval=float(interval),
    )


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
