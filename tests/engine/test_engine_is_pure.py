"""The engine is pure Python: importing it pulls in no Django and no I/O frameworks."""

from __future__ import annotations

import subprocess
import sys


def test_importing_the_engine_does_not_import_django():
    code = (
        "import sys, games.engine, games.engine.playout; "
        "roots = {name.split('.')[0] for name in sys.modules}; "
        "print(','.join(sorted(roots & {'django', 'rest_framework', 'channels', 'celery'})))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""
