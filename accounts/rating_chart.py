"""The rating of each rule family over time, as an SVG line chart built on the server.

Pure geometry: rating changes in, coordinates and labels out; the template
``accounts/_rating_chart.html`` draws them with SVG presentation attributes (no
style attribute, no script: the Content-Security-Policy allows neither inline).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from accounts.models import RatingChange
from games.engine import PRESETS

WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 46, 12, 12, 26
# The most recent rated games drawn (the whole history of a veteran is not needed
# to see a trend, and the page stays one indexed query).
CHART_GAMES = 500
# What the chart reads of a change (its game is a wide row: only when it started).
CHART_FIELDS = ("rules", "rating_before", "rating_after", "created_at", "game__started_at")
COLOURS = ("#b3261e", "#1d4ed8", "#15803d", "#a16207", "#7c3aed", "#0e7490")
NICE_STEPS = (10, 20, 25, 50, 100, 200, 250, 500, 1000)


@dataclass(frozen=True)
class Series:
    rules: str
    colour: str
    points: str  # the polyline's "x,y x,y …"
    end_x: float
    end_y: float
    rating: int  # the latest rating
    games: int


@dataclass(frozen=True)
class Tick:
    at: float
    label: str
    anchor: str = "end"  # SVG text-anchor of the label


@dataclass(frozen=True)
class Chart:
    series: list[Series]
    y_ticks: list[Tick]
    x_ticks: list[Tick]
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM


def rating_chart(changes: Iterable[RatingChange]) -> Chart | None:
    """The chart of ``changes`` (any order, with their games); None when there are
    none. Each family's line starts at its rating before its first game drawn, when
    that game started."""
    ordered = sorted(changes, key=lambda change: (change.created_at, change.pk))
    if not ordered:
        return None
    by_rules: dict[str, list[RatingChange]] = {}
    for change in ordered:
        by_rules.setdefault(change.rules, []).append(change)
    ratings = [c.rating_before for c in ordered] + [c.rating_after for c in ordered]
    low, high, step = _scale(min(ratings), max(ratings))
    start = min(_began(family[0]) for family in by_rules.values())
    end = ordered[-1].created_at

    def x(when: datetime) -> float:
        span = (end - start).total_seconds()
        share = 0.5 if span <= 0 else (when - start).total_seconds() / span
        return round(LEFT + share * (WIDTH - RIGHT - LEFT), 1)

    def y(rating: int) -> float:
        share = (rating - low) / (high - low)
        return round(HEIGHT - BOTTOM - share * (HEIGHT - BOTTOM - TOP), 1)

    families = [name for name in PRESETS if name in by_rules] + sorted(set(by_rules) - set(PRESETS))
    series = []
    for index, rules in enumerate(families):
        family = by_rules[rules]
        points = [(x(_began(family[0])), y(family[0].rating_before))]
        points += [(x(change.created_at), y(change.rating_after)) for change in family]
        series.append(
            Series(
                rules=rules,
                colour=COLOURS[index % len(COLOURS)],
                points=" ".join(f"{px},{py}" for px, py in points),
                end_x=points[-1][0],
                end_y=points[-1][1],
                rating=family[-1].rating_after,
                games=len(family),
            )
        )
    y_ticks = [Tick(y(value), str(value)) for value in range(low, high + 1, step)]
    # The first and the last day drawn, at the ends of the time axis.
    x_ticks = [Tick(x(start), start.date().isoformat(), "start")]
    if end.date() != start.date():
        x_ticks.append(Tick(x(end), end.date().isoformat(), "end"))
    return Chart(series=series, y_ticks=y_ticks, x_ticks=x_ticks)


def _began(change: RatingChange) -> datetime:
    """When the game of a change started: the rating before it held until then."""
    game = change.game if change.game_id is not None else None
    started: datetime | None = game.started_at if game is not None else None
    return started or change.created_at


def _scale(low: int, high: int) -> tuple[int, int, int]:
    """Round bounds and a step giving three to six gridlines around [low, high]."""
    spread = max(high - low, 1)
    step = next((s for s in NICE_STEPS if spread / s <= 5), NICE_STEPS[-1])
    bottom = math.floor(low / step) * step
    top = math.ceil(high / step) * step
    if top == bottom:
        top += step
    return bottom, top, step
