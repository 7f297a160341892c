"""Celery beat's scheduler for this site: the schedule file's folder is made if it is
missing, and beat records its own heartbeat for /healthz.

Beat is configured to use it (``CELERY_BEAT_SCHEDULER``), so ``celery -A remi_site
beat`` starts in any configuration, whether or not the embedded mode's ``var/`` exists.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

from celery import beat

from remi_site import health

logger = logging.getLogger(__name__)

# Often enough for /healthz (BEAT_HEARTBEAT_MAX_AGE), rarely enough to cost nothing.
HEARTBEAT_EVERY_S = 2.0
# A lost Redis is reported once in this long, not at every tick.
WARN_EVERY_S = 60.0


class Scheduler(beat.PersistentScheduler):
    _last_heartbeat = 0.0
    _last_warning = 0.0

    def setup_schedule(self) -> None:
        Path(self.schedule_filename).parent.mkdir(parents=True, exist_ok=True)
        super().setup_schedule()

    def tick(self, *args: Any, **kwargs: Any) -> float:
        self._heartbeat()
        return float(super().tick(*args, **kwargs))

    def _heartbeat(self) -> None:
        now = time.monotonic()
        if now - self._last_heartbeat < HEARTBEAT_EVERY_S:
            return
        try:
            health.heartbeat_record(process=health.BEAT)
        except Exception as error:
            if now - self._last_warning >= WARN_EVERY_S:
                self._last_warning = now
                logger.warning("beat could not record its heartbeat: %s", error)
            return
        self._last_heartbeat = now
