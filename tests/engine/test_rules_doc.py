"""docs/rules.md: its generated section is exactly what the rulesets produce."""

from __future__ import annotations

import dataclasses
import io
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import PRESETS, Ruleset
from games.engine.rules_doc import (
    BEGIN,
    END,
    FIELD_DOCS,
    current_section,
    generated_section,
    main,
    splice,
)

ROOT = Path(__file__).resolve().parents[2]
RULES_DOC = ROOT / "docs" / "rules.md"


def test_the_generated_section_of_docs_rules_md_matches_the_rulesets() -> None:
    written = current_section(RULES_DOC.read_text(encoding="utf-8"))
    assert written == generated_section(), (
        "docs/rules.md disagrees with the rulesets: run "
        "`python -m games.engine.rules_doc --update docs/rules.md`"
    )


def test_the_section_shows_every_field_of_every_preset() -> None:
    section = generated_section()
    for field in dataclasses.fields(Ruleset):
        if field.name not in ("display_name", "description"):
            assert f"| `{field.name}` |" in section
    for ruleset in PRESETS.values():
        assert f"**{ruleset.display_name}** (`{ruleset.name}`). {ruleset.description}" in section
        assert f"| `{ruleset.name}` |" in section


def test_every_field_has_a_meaning_and_a_missing_one_stops_the_generator() -> None:
    assert set(FIELD_DOCS) == {field.name for field in dataclasses.fields(Ruleset)}


def test_a_changed_preset_changes_the_section() -> None:
    changed = {**PRESETS, "serbian": PRESETS["serbian"].replace(opening_minimum=61)}
    assert generated_section(changed) != generated_section()
    assert "| 51 | 61 | 51 | 51 |" in generated_section(changed)


def test_splice_replaces_only_the_generated_section() -> None:
    document = f"# Title\n\nby hand\n\n{BEGIN}\nold\n{END}\n\nafter\n"
    spliced = splice(document, generated_section())
    assert spliced.startswith("# Title\n\nby hand\n\n" + BEGIN)
    assert spliced.endswith(END + "\n\nafter\n")
    assert current_section(spliced) == generated_section()
    with pytest.raises(ValueError, match="no generated section"):
        splice("# no markers\n", "x")


def test_the_command_prints_the_section_and_updates_a_file(tmp_path: Path) -> None:
    out = io.StringIO()
    assert main([], out=out) == 0
    assert out.getvalue() == generated_section()
    target = tmp_path / "rules.md"
    target.write_text(f"intro\n\n{BEGIN}\nstale\n{END}\n", encoding="utf-8")
    assert main(["--update", str(target)]) == 0
    assert target.read_text(encoding="utf-8") == "intro\n\n" + generated_section()


def test_it_runs_as_a_module() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "games.engine.rules_doc"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert done.stdout == generated_section()
