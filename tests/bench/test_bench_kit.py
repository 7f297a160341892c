"""The benchmarks stay runnable and small: every script under bench/ starts and explains its
command line, every module of their shared library imports, every file under bench/ is
under 400 lines and every module outside the engine under 600. None of this times
anything (the benchmarks do, outside the test suite)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.kit.measure import percentile
from bench.kit.report import table, write_json
from bench.loadgen.stalls import BUCKET_S, Timeline

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
# Source folders of the project (the rest of the checkout is tooling, data or packages).
SOURCES = ("accounts", "games", "remi_site", "scripts", "bench", "tests")

SCRIPTS = sorted(
    path for path in BENCH.glob("*.py") if 'if __name__ == "__main__":' in path.read_text()
)
PACKAGES = ("kit", "loadgen", "atscale", "soaking")
MODULES = sorted(
    f"bench.{package}.{path.stem}"
    for package in PACKAGES
    for path in (BENCH / package).glob("*.py")
    if path.stem != "__init__"
)


def test_the_benchmarks_are_found():
    assert {"api.py", "scale.py", "soak.py"} <= {path.name for path in SCRIPTS}
    assert "bench.kit.stack" in MODULES


# The benchmarks that start a stack of their own (Redis and a scratch database), those of
# them with a web server, and every benchmark with a scratch database.
STACK_SCRIPTS = {
    "api.py",
    "scale.py",
    "soak.py",
    "notify.py",
    "timeouts.py",
    "stats.py",
    "db_restart.py",
}
DATABASE_SCRIPTS = STACK_SCRIPTS | {
    "move_cost.py",
    "turn_cost.py",
    "move_reads.py",
    "round_trips.py",
}
WEB_SCRIPTS = {"api.py", "soak.py", "notify.py", "db_restart.py"}


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_every_bench_script_explains_its_command_line_with_its_ports_and_database(script):
    done = subprocess.run(
        [sys.executable, str(script), "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "usage:" in done.stdout
    if script.name in STACK_SCRIPTS:
        assert "--redis-port" in done.stdout
    if script.name in DATABASE_SCRIPTS:
        assert "--db-name" in done.stdout
    if script.name in WEB_SCRIPTS:
        assert "--web-port" in done.stdout


@pytest.mark.parametrize("module", MODULES)
def test_every_module_of_the_bench_library_imports(module):
    importlib.import_module(module)


def python_files(folder: Path) -> list[Path]:
    return [path for path in folder.rglob("*.py") if "migrations" not in path.parts]


def test_every_file_under_bench_is_under_400_lines():
    long = {
        str(path.relative_to(ROOT)): lines
        for path in python_files(BENCH)
        if (lines := len(path.read_text().splitlines())) >= 400
    }
    assert long == {}


def test_every_module_outside_the_engine_is_under_600_lines():
    engine = ROOT / "games" / "engine"
    long = {
        str(path.relative_to(ROOT)): lines
        for source in SOURCES
        for path in python_files(ROOT / source)
        if engine not in path.parents and (lines := len(path.read_text().splitlines())) >= 600
    }
    assert long == {}


def test_a_percentile_is_the_sorted_sample_at_that_rank_in_milliseconds():
    samples = [index / 1000 for index in range(1, 101)]  # 1 to 100 ms, sorted
    assert percentile(samples, 0.5) == pytest.approx(51)
    assert percentile(samples, 0.99) == pytest.approx(100)
    assert percentile(samples, 1.0) == pytest.approx(100)
    assert percentile([], 0.99) != percentile([], 0.99)  # NaN: nothing was measured


def test_an_open_loop_timeline_keeps_each_buckets_peak():
    timeline = Timeline(began=100.0)
    timeline.note(3, at=100.0)
    timeline.note(7, at=100.0 + BUCKET_S / 2)
    timeline.note(5, at=100.0 + BUCKET_S / 2)
    timeline.note(2, at=100.0 + 2 * BUCKET_S)
    assert timeline.values(4) == [7, 0, 2, 0]


def test_a_report_table_aligns_each_column_to_its_widest_cell():
    printed = table(
        (("round", "d"), ("GET/s", ".0f"), ("settings", "<s")),
        [(1, 512.3, "WEB_THREADS=4"), (12, 61.0, "")],
    )
    assert printed.splitlines() == [
        "  round GET/s settings",
        "      1   512 WEB_THREADS=4",
        "     12    61",
    ]


def test_a_json_dump_writes_what_was_not_measured_as_null(tmp_path):
    path = tmp_path / "figures.json"
    write_json(path, {"move p99": float("nan"), "cycles": [{"ratio": 1.25}]})
    assert json.loads(path.read_text()) == {"move p99": None, "cycles": [{"ratio": 1.25}]}
