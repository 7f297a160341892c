"""Files of the project that are not in a package (``scripts/*.py``,
``examples/*.py``) loaded as modules, for the tests that call what they define."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_file(path: Path, name: str) -> ModuleType:
    """The file at ``path`` as the module ``name`` (registered, as dataclasses need)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_script(name: str) -> ModuleType:
    """``scripts/<name>.py`` as a module named ``name``."""
    return load_file(ROOT / "scripts" / f"{name}.py", name)
