"""When a web worker's garbage collector runs: between requests, not in the middle of one.

Django's models hold reference cycles (a prefetched seat points back to its game, a
user to the profile loaded with it), so every list leaves cyclic garbage that only
the collector frees. Left to its thresholds, CPython collects every 700 new objects,
in the middle of whichever request crossed the line: the objects that request was
still using are promoted to older generations, and every few requests a full
collection walks all of them. Measured with ``bench/scale.py`` (its ``GC ms``
column): pauses of 20 to 80 ms inside single requests, the p99 of most reads.

Instead, once the server is loaded (``settle``):

- everything loaded so far leaves the collector's sight (``gc.freeze``): a full
  collection walks only what requests created since;
- automatic collections wait for ``YOUNG_LIMIT`` new objects, a safety net for work
  that is not a request (websocket consumers, the publisher);
- after each answer is sent (``between_requests``, called by the ASGI handler), the
  young generation is collected: the request's own cyclic garbage, while it is
  small; every ``OLDER_EVERY`` young collections the middle one, and as often again
  the oldest, as CPython would, but never in front of an answer. A full collection
  walks everything that is not frozen, so it waits until the time since the last
  one is ``FULL_SPACING`` times what that one took: however large the heap (a
  process that also runs a test suite), full collections stay about 1 % of its time.
"""

from __future__ import annotations

import gc
import time

YOUNG_LIMIT = 100_000
OLDER_EVERY = 10
FULL_SPACING = 100

_full_due_at = 0.0  # time.monotonic() from which a full collection may run again


def settle() -> None:
    """Freeze what is loaded, and leave the collections to ``between_requests``."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_LIMIT, OLDER_EVERY, OLDER_EVERY)


def between_requests() -> None:
    """Collect the generation that is due (the young one at least); returns at once
    when nothing was created since the last call."""
    global _full_due_at
    young, middle, old = gc.get_count()
    if old >= OLDER_EVERY and time.monotonic() >= _full_due_at:
        began = time.monotonic()
        gc.collect(2)
        ended = time.monotonic()
        _full_due_at = ended + (ended - began) * FULL_SPACING
    elif middle >= OLDER_EVERY or old >= OLDER_EVERY:
        gc.collect(1)
    elif young:
        gc.collect(0)
