"""The pages' JavaScript without a browser: every file parses as an ES module (node),
every relative import names a file and an export that exist, and the table keeps its
changing state in its store alone. Catches a broken split of the modules in seconds,
before the browser tests would find a blank table."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

JS = Path(__file__).resolve().parents[2] / "static" / "js"
TABLE = JS / "table"
SCRIPTS = sorted(JS.rglob("*.js"))
NODE = shutil.which("node")

IMPORT = re.compile(r"^import\s+(?:\{(?P<names>[^}]*)\}\s+from\s+)?\"(?P<path>[^\"]+)\";", re.M)
EXPORT_DECLARED = re.compile(
    r"^export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+([\w$]+)", re.M
)
EXPORT_LIST = re.compile(r"^export\s*\{([^}]*)\}", re.M)
# A write to the store's state: an assignment, or a call that changes a collection in it.
STATE_WRITE = re.compile(
    r"\bstate(?:\.[\w$]+)+\s*(?:[-+*/|&]?=(?!=)|\+\+|--)"
    r"|\bstate(?:\.[\w$]+)+\.(?:add|delete|clear|set|push|pop|shift|unshift|splice|sort|reverse)\("
)


def rel(path: Path) -> str:
    return str(path.relative_to(JS))


def exports_of(path: Path) -> set[str]:
    text = path.read_text()
    names = set(EXPORT_DECLARED.findall(text))
    for group in EXPORT_LIST.findall(text):
        names.update(part.split(" as ")[-1].strip() for part in group.split(",") if part.strip())
    return names


def test_the_pages_have_scripts() -> None:
    assert (TABLE / "main.js").exists()
    assert len(SCRIPTS) > 10


@pytest.mark.skipif(NODE is None, reason="node is not installed: the syntax check needs it")
@pytest.mark.parametrize("path", SCRIPTS, ids=rel)
def test_each_script_parses_as_an_es_module(path: Path) -> None:
    assert NODE is not None
    result = subprocess.run(
        [NODE, "--input-type=module", "--check"],
        input=path.read_text(),
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert result.returncode == 0, f"{rel(path)}:\n{result.stderr}"


@pytest.mark.parametrize("path", SCRIPTS, ids=rel)
def test_each_import_names_a_file_and_its_exports(path: Path) -> None:
    for match in IMPORT.finditer(path.read_text()):
        target = (path.parent / match["path"]).resolve()
        assert target.is_file(), f"{rel(path)} imports {match['path']}: no such file"
        wanted = [part.split(" as ")[0].strip() for part in (match["names"] or "").split(",")]
        missing = {name for name in wanted if name} - exports_of(target)
        assert not missing, (
            f"{rel(path)} imports {sorted(missing)} that {rel(target)} does not export"
        )


@pytest.mark.parametrize("path", sorted(TABLE.glob("*.js")), ids=rel)
def test_only_the_store_keeps_the_tables_changing_state(path: Path) -> None:
    if path.name == "store.js":
        return
    text = path.read_text()
    writes = [line.strip() for line in text.splitlines() if STATE_WRITE.search(line)]
    assert not writes, f"{rel(path)} changes the store's state itself: {writes}"
    module_level = re.findall(r"^(?:let|var)\s+[\w$]+", text, re.M)
    assert not module_level, f"{rel(path)} keeps state of its own: {module_level}"


def test_the_dom_helpers_are_defined_once() -> None:
    for name in ("el", "button"):
        definition = re.compile(rf"^(?:export\s+)?function {name}\(", re.M)
        defined = [rel(p) for p in SCRIPTS if definition.search(p.read_text())]
        assert defined == ["dom.js"], f"{name}() is defined in {defined}"
    own_lookup = re.compile(r"^const \$ = ", re.M)
    assert [rel(p) for p in SCRIPTS if own_lookup.search(p.read_text())] == []
