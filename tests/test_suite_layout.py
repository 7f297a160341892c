"""How the test suite is laid out: what tests share lives in kit modules and fixtures
plugins, never in a test module or a ``conftest.py`` that another module imports."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def is_test_module_or_conftest(dotted: str) -> bool:
    last = dotted.rpartition(".")[2]
    return last.startswith("test_") or last == "conftest"


def package_dir(path: Path, module: str | None, level: int) -> Path:
    """The folder of the package ``from <level dots><module> import ...`` names in the
    module at ``path``."""
    base = ROOT
    if level:
        base = path.parent
        for _ in range(level - 1):
            base = base.parent
    return base.joinpath(*module.split(".")) if module else base


def imported_test_modules(path: Path) -> list[tuple[int, str]]:
    """(line, module) for each import in the module at ``path`` of a test module or a
    conftest, wherever the import sits (a function, ``if TYPE_CHECKING:``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [
                (node.lineno, alias.name)
                for alias in node.names
                if is_test_module_or_conftest(alias.name)
            ]
        elif isinstance(node, ast.ImportFrom):
            dots = "." * node.level
            if node.module and is_test_module_or_conftest(node.module):
                found.append((node.lineno, dots + node.module))
                continue
            # from tests.live import test_consumers, from . import conftest
            package = package_dir(path, node.module, node.level)
            prefix = dots + (f"{node.module}." if node.module else "")
            found += [
                (node.lineno, prefix + alias.name)
                for alias in node.names
                if is_test_module_or_conftest(alias.name)
                and ((package / f"{alias.name}.py").is_file() or (package / alias.name).is_dir())
            ]
    return found


def test_no_test_module_imports_another_test_module_or_a_conftest() -> None:
    """A helper or a constant several modules share goes into a kit module named for
    what it holds (``tests/gamekit.py``, ``tests/live/ws_kit.py``), a shared fixture into
    the nearest ``conftest.py`` or a fixtures plugin (pytest finds it by name)."""
    offences = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sorted(TESTS.rglob("*.py"))
        for line, module in imported_test_modules(path)
    ]
    assert not offences, (
        "test modules and conftests import no test module or conftest; move what they "
        "share into a kit module (or a fixture into a conftest.py):\n" + "\n".join(offences)
    )


def test_the_layout_check_sees_every_form_of_import(tmp_path: Path) -> None:
    (tmp_path / "test_other.py").write_text("")
    (tmp_path / "conftest.py").write_text("")
    module = tmp_path / "test_here.py"
    module.write_text(
        "import tests.live.test_consumers\n"
        "from tests.live.test_worker import Worker\n"
        "from tests.conftest import PASSWORD\n"
        "from .test_other import x\n"
        "from . import conftest, kit\n"
        "def f():\n"
        "    from tests.browser.conftest import Player\n"
        "import tests.gamekit\n"
        "from tests.live import ws_kit\n"
        "from tests.gamekit import test_like_name\n"
    )
    assert imported_test_modules(module) == [
        (1, "tests.live.test_consumers"),
        (2, "tests.live.test_worker"),
        (3, "tests.conftest"),
        (4, ".test_other"),
        (5, ".conftest"),
        (7, "tests.browser.conftest"),
    ]
