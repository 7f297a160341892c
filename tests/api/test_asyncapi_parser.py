"""docs/asyncapi.yaml as AsyncAPI tools load it: the official parser (@asyncapi/parser,
pinned in package.json and installed by scripts/ensure_services.sh with ``npm ci``)
accepts it with no error and no warning, and the check fails on a document it rejects."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VALIDATE = ROOT / "scripts" / "validate_asyncapi.mjs"
DOCUMENT = ROOT / "docs" / "asyncapi.yaml"


def parse(document: Path) -> subprocess.CompletedProcess[str]:
    node = shutil.which("node")
    assert node is not None, "node is not installed: run scripts/ensure_services.sh"
    parser = ROOT / "node_modules" / "@asyncapi" / "parser" / "package.json"
    assert parser.exists(), "the AsyncAPI parser is not installed: run scripts/ensure_services.sh"
    return subprocess.run(
        [node, str(VALIDATE), str(document)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_official_parser_accepts_docs_asyncapi_yaml() -> None:
    result = parse(DOCUMENT)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "valid AsyncAPI" in result.stdout
    lines = result.stdout.splitlines()
    assert not [line for line in lines if line.startswith(("error", "warning"))], result.stdout


def test_the_check_fails_on_a_document_the_parser_rejects(tmp_path: Path) -> None:
    # The defect the parser found once: close codes as numeric mapping keys.
    broken = DOCUMENT.read_text().replace('      "4401": not authenticated', "      4401: x")
    assert broken != DOCUMENT.read_text()
    (tmp_path / "asyncapi.yaml").write_text(broken)

    result = parse(tmp_path / "asyncapi.yaml")

    assert result.returncode == 1
    assert "Mapping key must be a string" in result.stdout
    assert "INVALID" in result.stdout


def test_the_parser_is_pinned_to_one_exact_version() -> None:
    wanted = json.loads((ROOT / "package.json").read_text())["devDependencies"]
    locked = json.loads((ROOT / "package-lock.json").read_text())["packages"]

    assert re.fullmatch(r"\d+\.\d+\.\d+", wanted["@asyncapi/parser"])
    assert locked["node_modules/@asyncapi/parser"]["version"] == wanted["@asyncapi/parser"]
