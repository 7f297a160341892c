#!/usr/bin/env python
"""Check that everything the running site imports is installed by requirements.txt.

Run with the interpreter of a virtualenv made from ``requirements.txt`` alone. Two
checks, and both must pass:

1. Every module that the site's code names in an ``import`` (at module level or inside
   a function: web, worker, beat and management commands alike) is importable here.
   Only the standard library and the project's own packages are exempt.
2. Every module of the site's packages imports, with Django set up, and so do the
   backends that settings name but load only when first used (Celery's broker
   transport, the channel layer, the cache): this reaches the third-party modules
   those pull in, which their packages do not always declare.

Files given as arguments are checked as in 1, besides the site's own. Exits 1 with the
missing names, or 0. The tests, the benchmarks and the development
tools are not part of the site and are not checked.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parent.parent
SITE_PACKAGES = ("accounts", "games", "remi_site")
SITE_SCRIPTS = ("manage.py", "scripts/run_embedded.py")
FIRST_PARTY = frozenset(SITE_PACKAGES)


def site_files() -> Iterator[Path]:
    for package in SITE_PACKAGES:
        yield from sorted((ROOT / package).rglob("*.py"))
    for script in SITE_SCRIPTS:
        yield ROOT / script


def imported_names(path: Path) -> Iterator[tuple[str, int]]:
    """(top-level module, line) of every absolute import in ``path``."""
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name.partition(".")[0], node.lineno
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.partition(".")[0], node.lineno


def missing_imports(extra: list[Path]) -> list[str]:
    exempt = FIRST_PARTY | set(sys.stdlib_module_names) | {"__future__"}
    found: dict[str, bool] = {}
    problems = []
    for path in [*site_files(), *extra]:
        for name, line in imported_names(path):
            if name in exempt:
                continue
            if name not in found:
                found[name] = importlib.util.find_spec(name) is not None
            if not found[name]:
                where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
                problems.append(f"{where}:{line}: no module named {name!r}")
    return problems


def module_names() -> Iterator[str]:
    for package in SITE_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            yield ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def failing_modules() -> list[str]:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "remi_site.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    problems = []
    for name in module_names():
        try:
            importlib.import_module(name)
        except ImportError as error:
            problems.append(f"{name}: {error}")
    return problems + failing_backends()


def failing_backends() -> list[str]:
    """Load (without connecting) what the settings name and the processes use."""
    from channels.layers import get_channel_layer
    from django.core.cache import cache

    from remi_site.celery import app

    loaders = {
        "the Celery broker transport": lambda: app.connection_for_write().transport,
        "the channel layer": get_channel_layer,
        # The client is made on first use; making it imports the client library.
        "the cache": lambda: cast(Any, cache)._cache,
    }
    problems = []
    for what, load in loaders.items():
        try:
            load()
        except ImportError as error:
            problems.append(f"{what}: {error}")
    return problems


def main() -> int:
    extra = [Path(arg).resolve() for arg in sys.argv[1:]]
    problems = missing_imports(extra) or failing_modules()
    for problem in problems:
        print(f"check_runtime_imports: {problem}", file=sys.stderr)
    if problems:
        print(
            "check_runtime_imports: the site imports modules that requirements.txt does not "
            "install (a package only in requirements-dev.txt, or a missing one)",
            file=sys.stderr,
        )
        return 1
    print(f"check_runtime_imports: every import of the site resolves in {sys.prefix}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
