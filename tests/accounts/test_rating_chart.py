"""The rating chart's geometry: one line per rule family, over time, inside the frame."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from accounts.rating_chart import HEIGHT, WIDTH, ChartPoint, Series, rating_chart

START = datetime(2026, 3, 1, 12, tzinfo=UTC)


def change(
    rules: str, before: int, after: int, days: float, pk: int, started: datetime | None = None
) -> ChartPoint:
    return ChartPoint(
        pk=pk,
        rules=rules,
        rating_before=before,
        rating_after=after,
        created_at=START + timedelta(days=days),
        started_at=started,
    )


def points(series: Series) -> list[tuple[float, float]]:
    pairs = [pair.split(",") for pair in series.points.split()]
    return [(float(x), float(y)) for x, y in pairs]


def test_no_rated_games_no_chart():
    assert rating_chart([]) is None


def test_each_family_is_a_line_from_its_first_rating_before_in_time_order():
    changes = [
        change("serbian", 1560, 1540, 4, 3),  # given out of order: newest first
        change("polish51", 1500, 1620, 2, 2),
        change("serbian", 1500, 1560, 0, 1),
    ]

    chart = rating_chart(changes)

    assert chart is not None
    serbian, polish = chart.series  # the presets' order
    assert (serbian.rules, polish.rules) == ("serbian", "polish51")
    assert (serbian.rating, serbian.games, polish.rating, polish.games) == (1540, 2, 1620, 1)
    line = points(serbian)
    assert len(line) == 3  # the rating before the first game, then after each
    assert [x for x, _ in line] == sorted(x for x, _ in line)
    assert line[0][0] == chart.left and line[-1][0] == chart.right
    # Higher ratings are drawn higher (smaller y): 1500 -> 1560 -> 1540.
    assert line[1][1] < line[2][1] < line[0][1]
    assert serbian.colour != polish.colour


def test_every_point_and_gridline_is_inside_the_frame():
    changes = [change("macedonian", 1500 + 37 * i, 1537 + 37 * i, i, i + 1) for i in range(30)]

    chart = rating_chart(changes)

    assert chart is not None
    for x, y in points(chart.series[0]):
        assert chart.left <= x <= chart.right <= WIDTH
        assert chart.top <= y <= chart.bottom <= HEIGHT
    labels = [tick.rating for tick in chart.y_ticks]
    assert labels[0] <= 1500 and labels[-1] >= 1500 + 37 * 30
    assert 2 <= len(labels) <= 7
    # The first and the last day, said in the reader's words by the page (``|day``).
    assert [tick.when.date().isoformat() for tick in chart.x_ticks if tick.when] == [
        "2026-03-01",
        "2026-03-30",
    ]


def test_games_on_one_moment_are_drawn_in_the_middle():
    chart = rating_chart([change("serbian", 1500, 1480, 0, 1)])

    assert chart is not None
    xs = {x for x, _ in points(chart.series[0])}
    assert xs == {(chart.left + chart.right) / 2}


def test_a_family_s_line_starts_when_its_first_game_started():
    first = change("serbian", 1500, 1560, 3, 1, started=START)
    later = change("serbian", 1560, 1600, 6, 2)

    chart = rating_chart([first, later])

    assert chart is not None
    (start_x, _), (first_x, _), (end_x, _) = points(chart.series[0])
    assert (start_x, end_x) == (chart.left, chart.right)
    assert first_x == chart.left + (chart.right - chart.left) / 2  # day 3 of 6
    assert chart.x_ticks[0].when is not None
    assert chart.x_ticks[0].when.date().isoformat() == "2026-03-01"
