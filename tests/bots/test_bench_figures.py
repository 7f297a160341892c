"""bench/bots.py's figures as the bots page reads them, and two runs pooled into one file."""

from __future__ import annotations

import importlib.util
import math
import statistics
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bots.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_bots", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_bots"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    yield module
    del sys.modules["bench_bots"]


def outcome(bench, wins, edges, turns):
    found = bench.Outcome("serbian", (4, 3))
    found.wins, found.edges = list(wins), list(edges)
    found.turn_seconds[4] = list(turns)
    found.turn_seconds[3] = [0.001] * len(turns)
    return found


def test_the_figures_have_the_shape_the_bots_page_reads(bench):
    figures = bench.measured([outcome(bench, [1, 0.5, 1, 0], [10, 0, 4, -6], [0.1, 0.2])], "cmd")
    assert set(figures) == {"command", "measured_at", "load_average", "pairings", "decision_ms"}
    assert figures["command"] == "cmd"
    assert figures["measured_at"].endswith("Z")
    (row,) = figures["pairings"]
    assert row == {
        "preset": "serbian",
        "level": 4,
        "opponent": 3,
        "deals": 4,
        "win_rate": 0.625,
        "interval": pytest.approx(1.96 * statistics.stdev([1, 0.5, 1, 0]) / 2, abs=1e-4),
        "edge": 2.0,
        "edge_interval": pytest.approx(1.96 * statistics.stdev([10, 0, 4, -6]) / 2, abs=0.01),
    }
    assert figures["decision_ms"]["4"] == {"p50": 200.0, "p99": 200.0, "max": 200.0, "turns": 2}


def test_two_runs_of_one_pairing_pool_into_the_figures_of_all_their_deals(bench):
    wins = [1, 0.5, 1, 0, 0, 1, 1, 0.5, 1]
    edges = [10, 0, 4, -6, -12, 8, 20, 1, 3]
    first = bench.measured([outcome(bench, wins[:4], edges[:4], [0.1])], "first")
    second = bench.measured([outcome(bench, wins[4:], edges[4:], [0.2, 0.3])], "second")
    whole = bench.measured([outcome(bench, wins, edges, [0.1])], "whole")["pairings"][0]
    pooled = bench.added_to(first, second)
    (row,) = pooled["pairings"]
    assert row["deals"] == 9
    for key in ("win_rate", "interval", "edge", "edge_interval"):
        assert math.isclose(row[key], whole[key], abs_tol=0.02)
    assert pooled["command"] == "first ; second"
    # Percentiles do not pool: the higher of the two runs', over both runs' turns.
    assert pooled["decision_ms"]["4"] == {"p50": 300.0, "p99": 300.0, "max": 300.0, "turns": 3}
