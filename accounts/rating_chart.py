"""The rating of each rule family over time, as an SVG line chart built on the server.

``rating_chart`` is pure geometry: rating changes in, coordinates and labels out; the
template ``accounts/_rating_chart.html`` draws them with SVG presentation attributes
(no style attribute, no script: the Content-Security-Policy allows neither inline).
``chart_of`` reads a player's and keeps it until their rating history changes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User

from games import ratings
from games.engine import PRESETS
from remi_site.cache import kept_cache

WIDTH, HEIGHT = 640, 220
# Room for the axes' labels at the size a phone needs (accounts.css draws them larger
# there, where the chart is shrunk to a third).
LEFT, RIGHT, TOP, BOTTOM = 60, 12, 20, 36
# The most recent rated games drawn (the whole history of a veteran is not needed
# to see a trend, and the page stays one indexed query).
CHART_GAMES = 500
# What the chart reads of a change, as plain values (``ChartPoint``'s fields): five
# hundred model instances and their games cost a veteran's page more than the rest of it.
CHART_FIELDS = ("pk", "rules", "rating_before", "rating_after", "created_at", "game__started_at")
# A kept chart is dropped after a day even if nothing says it changed (a game deleted
# by hand in the admin takes its rating changes with it and stamps no rating).
KEPT_S = 24 * 3600
# Part of the key of a kept chart: a deploy that changes ``Chart``, ``Series`` or ``Tick``
# bumps it, so no worker unpickles a chart of the old shape.
KEPT_SHAPE = 2
COLOURS = ("#b3261e", "#1d4ed8", "#15803d", "#a16207", "#7c3aed", "#0e7490")
NICE_STEPS = (10, 20, 25, 50, 100, 200, 250, 500, 1000)


@dataclass(frozen=True)
class ChartPoint:
    """One rating change as the chart needs it: ``started_at`` is when its game started
    (None when unknown: the change's own time stands for it)."""

    pk: int
    rules: str
    rating_before: int
    rating_after: int
    created_at: datetime
    started_at: datetime | None = None


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
    # What the tick says, which the page writes in the reader's words: a rating ("1.500"
    # in Macedonian), or a day (``when``).
    rating: int | None = None
    anchor: str = "end"  # SVG text-anchor of the label
    when: datetime | None = None


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


def chart_of(user: User) -> Chart | None:
    """The chart of the user's latest ``CHART_GAMES`` rating changes: read once per
    change of their rating history (``ratings.ratings_version``), then kept."""
    key = f"rating-chart:{KEPT_SHAPE}:{user.pk}:{ratings.ratings_version(user)}"
    kept = kept_cache.get(key)
    if kept is not None:
        return kept.chart
    rows = ratings.rating_history(user, limit=CHART_GAMES).values_list(*CHART_FIELDS)
    chart = rating_chart(ChartPoint(*row) for row in rows)
    kept_cache.set(key, _Kept(chart), KEPT_S)
    return chart


@dataclass(frozen=True)
class _Kept:
    chart: Chart | None  # kept even when None: a cache miss could not tell it apart


def rating_chart(changes: Iterable[ChartPoint]) -> Chart | None:
    """The chart of ``changes`` (any order, with their games); None when there are
    none. Each family's line starts at its rating before its first game drawn, when
    that game started."""
    ordered = sorted(changes, key=lambda change: (change.created_at, change.pk))
    if not ordered:
        return None
    by_rules: dict[str, list[ChartPoint]] = {}
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
    y_ticks = [Tick(y(value), value) for value in range(low, high + 1, step)]
    # The first and the last day drawn, at the ends of the time axis.
    x_ticks = [Tick(x(start), anchor="start", when=start)]
    if end.date() != start.date():
        x_ticks.append(Tick(x(end), anchor="end", when=end))
    return Chart(series=series, y_ticks=y_ticks, x_ticks=x_ticks)


def _began(change: ChartPoint) -> datetime:
    """When the game of a change started: the rating before it held until then."""
    return change.started_at or change.created_at


def _scale(low: int, high: int) -> tuple[int, int, int]:
    """Round bounds and a step giving three to six gridlines around [low, high]."""
    spread = max(high - low, 1)
    step = next((s for s in NICE_STEPS if spread / s <= 5), NICE_STEPS[-1])
    bottom = math.floor(low / step) * step
    top = math.ceil(high / step) * step
    if top == bottom:
        top += step
    return bottom, top, step
