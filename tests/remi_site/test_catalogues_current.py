"""The committed catalogues hold every text the code marks for translation, and nothing
else: what ``makemigrations --check`` is for the models, for the words.

A text marked but never collected (``scripts/update_catalogues.sh`` not run) reads in
English in every language; the walks in the pseudo-locale find it only on the pages they
visit, never on an error page, in an email or in the admin. This collects the catalogues
afresh in a copy of the tracked files and compares their texts with the committed ones.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import polib  # type: ignore[import-untyped]
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
# What the collection does not read (scripts/update_catalogues.sh ignores them).
NOT_COLLECTED = ("bench/", "docs/", "artifacts/", "tests/", "examples/")

Entry = tuple[str | None, str, str]


def tracked_files() -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, text=True
    ).stdout
    return [name for name in listed.split("\0") if name and not name.startswith(NOT_COLLECTED)]


def texts(po: Path) -> set[Entry]:
    return {(e.msgctxt, e.msgid, e.msgid_plural) for e in polib.pofile(str(po)) if not e.obsolete}


def test_the_catalogues_hold_every_marked_text_and_no_other(tmp_path: Path) -> None:
    assert shutil.which("xgettext"), "no GNU gettext: scripts/ensure_services.sh installs it"
    copy = tmp_path / "site"
    for name in tracked_files():
        target = copy / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    subprocess.run(
        ["bash", "scripts/update_catalogues.sh"],
        cwd=copy,
        env={"PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin", "PY": sys.executable},
        check=True,
        capture_output=True,
    )

    differences = []
    committed = sorted(name for name in tracked_files() if name.endswith(".po"))
    for name in committed:
        fresh, kept = texts(copy / name), texts(ROOT / name)
        differences += [
            f"{name}: not collected: {text!r}" for text in sorted(fresh - kept, key=str)
        ]
        differences += [
            f"{name}: no longer marked: {text!r}" for text in sorted(kept - fresh, key=str)
        ]

    assert len(committed) >= 16, committed  # four catalogues in each of four languages
    assert not differences, "run scripts/update_catalogues.sh:\n" + "\n".join(differences)
