"""The publisher queues background work by Celery task name, in a process that never
imported ``games.tasks`` (a web server): the name must still resolve."""

from __future__ import annotations

import subprocess
import sys

from tests.sites import ROOT

PROBE = """
import sys
import django
django.setup()
assert "games.tasks" not in sys.modules, "the probe must start without the task modules"
from games.live import publisher
print(publisher._task("games.tasks.bot_move").name)
print(publisher._task("games.tasks.your_turn_email").name)
"""


def test_a_web_process_finds_the_tasks_it_queues_by_name(tmp_path):
    found = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(ROOT),
            "DJANGO_SETTINGS_MODULE": "remi_site.settings",
            "REMI_VAR_DIR": str(tmp_path),
        },
        timeout=120,
    )

    assert found.returncode == 0, found.stderr
    assert found.stdout.split() == ["games.tasks.bot_move", "games.tasks.your_turn_email"]
