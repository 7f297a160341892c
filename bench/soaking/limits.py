"""The soak's paces and limits: every wait, retry and shutdown of ``bench/soak.py`` is
bounded by one of these.
"""

from __future__ import annotations

PROGRESS_EVERY_S = 30.0


# A web worker's memory grows while it loads and fills its caches, then holds: a peak in
# the second half of the soak half again as high as in the first is a leak.
MEMORY_GROWTH = 1.5


# The pace lets players catch up at most this much of a stall at once, so that the
# offered rate never exceeds the target for long.
PACE_BURST_S = 1.0


# A move (or any request) is retried for this long before it is given up.
RETRY_FOR_S = 60.0


REQUEST_TIMEOUT_S = 30.0


# The API's shortest live turn and absent-player wait (games.play.create).
SLEEPER_SECONDS_PER_TURN = 10


SLEEPER_ABSENT_WAIT_S = 10


WS_PING_EVERY_S = 20.0


BOT_POLL_S = 0.5


SLEEPER_POLL_S = 1.0


SAMPLE_EVERY_S = 1.0


HEALTH_POLL_S = 0.25


HEALTH_WAIT_S = 180.0


STARTUP_WAIT_S = 120.0


RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
