"""The engine's command line: python -m games.engine."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(argv), out=out)
    return status, out.getvalue()


def test_help_runs_as_a_module() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    for command in ("check", "score", "opening", "partition", "presets"):
        assert command in done.stdout


def test_check_prints_the_meld_its_kind_and_value() -> None:
    assert run("check", "AH 2H JK 4H", "--rules", "serbian") == (
        0,
        "run  AH 2H JK 4H  value 10  (JK=3H)\n",
    )


def test_check_reads_a_high_to_low_run() -> None:
    status, text = run("check", "KH QH JK 10H", "--rules", "serbian")
    assert status == 0
    assert "value 40" in text


def test_check_prints_the_error_code_and_exits_1_on_an_illegal_meld() -> None:
    status, text = run("check", "7H JK JK 10H JH")
    assert status == 1
    assert text.startswith("not a meld [adjacent_jokers]: two jokers may not stand side by side")


def test_check_on_the_table_allows_more_serbian_jokers() -> None:
    assert run("check", "JK 5C JK 7C", "--rules", "serbian")[0] == 1
    assert run("check", "JK 5C JK 7C", "--rules", "serbian", "--table")[0] == 0


def test_bad_cards_are_a_usage_error_not_a_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["score", "KH ZZ"])
    assert exit_.value.code == 2
    assert "not a card: 'ZZ'" in capsys.readouterr().err


def test_unknown_ruleset_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["score", "KH", "--rules", "klondike"])
    assert "invalid choice: 'klondike'" in capsys.readouterr().err


def test_score_sums_the_hand_penalty() -> None:
    assert run("score", "KH JK 7S") == (0, "KH 10 + JK 20 + 7S 7 = 37\n")
    assert run("score", "KH JK 7S", "--rules", "polish51")[1].endswith("= 42\n")


def test_opening_prints_the_melds_the_total_and_whether_it_opens() -> None:
    status, text = run("opening", "10H JH QH KH JK 5C 6C 7C 3D", "--rules", "serbian")
    assert status == 0
    assert text.splitlines() == [
        "run  10H JH QH KH JK  value 51  (JK=AH)",
        "run  5C 6C 7C  value 18",
        "total 69: reaches the 51 to open",
        "left in hand: 3D",
    ]


def test_opening_of_the_forum_bug_hand_does_not_open() -> None:
    text = run("opening", "KH QH JK 10H", "--rules", "serbian")[1]
    assert "total 40: does not reach the 51 to open" in text


def test_opening_can_keep_cards_back() -> None:
    text = run("opening", "10H JH QH KH AH 5C 6C 7C", "--rules", "serbian", "--keep", "1")[1]
    assert "total 58" in text
    assert "left in hand: AH" in text


def test_partition_prints_the_leftover_penalty() -> None:
    status, text = run("partition", "5C 6C 7C 5S 5D 9H")
    assert status == 0
    assert text.splitlines()[-2:] == ["left in hand: 5S 5D 9H", "penalty left: 19"]


def test_presets_prints_every_field_of_every_preset() -> None:
    status, text = run("presets")
    assert status == 0
    for name in ("[macedonian]", "[serbian]", "[polish51]", "[serbian_old_remi]"):
        assert name in text
    assert "  royal_run_ace_value = 11" in text
    assert "  dry_hand_close = winner=-280, multiplier=4, bonus=0, unopened=400" in text
